import type { Address } from 'viem'
import type { ShownInvoice } from '../../verify/confirmInvoice'
import type { CallsStatus } from '../../wallet/readCallsStatus'

/** The connected account itself pays: a smart account whose wallet runs a sponsored batch in one
 * prompt (EIP-5792 with ERC-7677). `owner`: that account, named as the vault flow names the wallet's
 * account (so an account switch is followed alike); `balance`: its token balance, read from the chain. */
export type SmartPayer = { owner: Address; balance: bigint }

/** Why the payer is back at the one-prompt payment, each said only after a chain read showed the
 * invoice still open: declined in the wallet; the wallet reported the batch failed; the wallet
 * reported it done but the chain does not show it; the wallet never said, within `followCallsMs`. */
export type SmartWalletNote = 'callsRejected' | 'callsFailed' | 'callsNotOnChain' | 'callsUnknown'

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
