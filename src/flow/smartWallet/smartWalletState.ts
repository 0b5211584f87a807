import type { Address } from 'viem'
import type { ShownInvoice } from '../../verify/confirmInvoice'
import type { CallsStatus } from '../../wallet/readCallsStatus'

/** A vault derived from a smart account as its owner, holding the token: the account cannot sign for
 * it as the vault flow needs (the vault recovers an ECDSA signature), so it can never pay from it. Only
 * the account itself can take it out, calling the vault's execute (contracts/PayerVault.sol). */
export type StrandedVault = { vault: Address; deployed: boolean; balance: bigint }

/** The connected account itself pays: a smart account whose wallet runs a sponsored batch in one
 * prompt (EIP-5792 with ERC-7677). `owner`: that account, named as the vault flow names the wallet's
 * account (so an account switch is followed alike); `balance`: its token balance, read from the chain.
 * An account with contract code never goes to a vault, short of funds or not: it is told to top up
 * itself; `cannotPay` when its wallet offers no sponsored one-prompt payment here; `stranded`, what the
 * vault derived from it holds; `movesBack` when its wallet can send the batch that takes that back
 * (atomic calls, sent from this page). */
export type SmartPayer = { owner: Address; balance: bigint; cannotPay?: true; stranded?: StrandedVault; movesBack?: true }

/** Why the payer is back at the one-prompt payment, each said only after a chain read showed the
 * invoice still open: declined in the wallet; the wallet reported the batch failed; the wallet
 * reported it done but the chain does not show it; the wallet never said, within `followCallsMs`.
 * Taking a stranded vault's funds back: declined in the wallet; not shown on the chain in time. */
export type SmartWalletNote = 'callsRejected' | 'callsFailed' | 'callsNotOnChain' | 'callsUnknown' | 'transferRejected' | 'moveNotOnChain'

type WithSmartPayer = { invoice: ShownInvoice; payer: SmartPayer }

/** The states of a one-prompt payment (the invoice in them is always the chain's, confirmed). */
export type SmartWalletState =
  | ({ name: 'smartWallet'; note: SmartWalletNote | null } & WithSmartPayer)
  /** `wallet_sendCalls` is out: the wallet shows the batch to the payer. */
  | ({ name: 'sendingCalls' } & WithSmartPayer)
  /** The wallet took the batch: the chain (and, as a hint, the wallet) is read at nextCheckAt until the
   * invoice settles or the wallet's final word has stood unconfirmed by the chain for a while.
   * `sentAt`: when the wallet took it; `finalSince`: when the wallet first said confirmed or failed. */
  | ({ name: 'followingCalls'; callsId: string; sentAt: number; nextCheckAt: number; wallet: CallsStatus; finalSince: number | null } & WithSmartPayer)
  /** `wallet_sendCalls` is out with the batch that moves a stranded vault's token back to the account. */
  | ({ name: 'movingBack'; stranded: StrandedVault } & WithSmartPayer)
  /** The wallet took it: the vault's balance is read at nextCheckAt until the chain shows it moved. */
  | ({ name: 'followingMoveBack'; stranded: StrandedVault; sentAt: number; nextCheckAt: number } & WithSmartPayer)
