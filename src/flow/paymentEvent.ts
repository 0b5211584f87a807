import type { Address, Hex } from 'viem'
import type { Funding } from '../../shared/fundedPayCall'
import type { PermitSignature } from '../../shared/payCall'
import type { ShownInvoice } from '../verify/confirmInvoice'
import type { CheckInvoiceReturnType } from './checkInvoice'
import type { VerifyPreparedPaymentReturnType } from '../verify/verifyPreparedPayment'
import type { PrepareResponse } from '../api/createPayApi'
import type { VerifyPermitToSignReturnType } from '../verify/verifyPermitToSign'
import type { Failure } from './failure'
import type { SubmitResponse } from '../api/createPayApi'
import type { Payer } from './paymentState'
import type { SimulatedEffect } from '../chain/simulatePayment'
import type { SmartWalletOutcome } from './smartWallet/smartWalletEvent'

/** What the payer asks for. */
export type PaymentAction =
  /** `served`: the service's invoice the page was rendered with, unconfirmed; without it, it is fetched. */
  | { type: 'start'; served?: ShownInvoice }
  | { type: 'connect' }
  | { type: 'switchNetwork' }
  | { type: 'pay' }
  /** Pay what the vault lacks from the connected account, inside the same sponsored operation. */
  | { type: 'payFromWallet' }
  /** Send what the vault lacks from the connected account first, as the wallet's own transaction. */
  | { type: 'sendToVault' }
  /** A smart account takes back what its vault holds, which it can never pay from. */
  | { type: 'moveBack' }
  | { type: 'renewPermit' }
  | { type: 'retry'; at: number }
  /** The wallet reported another account or chain (or none: disconnected). `wantedChainId`: the pinned chain. */
  | { type: 'walletChanged'; connection: { owner: Address; chainId: number } | null; wantedChainId: number }

/** The vault as the chain has it now: its EntryPoint nonce on key 0 and the latest block's time
 * (seconds). Read while a signed operation is out. */
export type VaultOnChain = { nonce: bigint; blockTime: number }

/** What the work attached to a state found out. `at` is the clock (ms since the epoch) when it did. */
export type PaymentOutcome =
  /** The invoice held to the chain; `vault` only where a signed operation is being followed. */
  | { type: 'chainRead'; check: CheckInvoiceReturnType; vault: VaultOnChain | null; at: number }
  /** What the chain holds under the id the service said it does not know. */
  | { type: 'notFoundChecked'; chain: { kind: 'unreadable' } | { kind: 'absent' } | { kind: 'present'; invoice: ShownInvoice }; at: number }
  | { type: 'wrongNetwork'; chainId: number; wantedChainId: number }
  | { type: 'networkSwitched' }
  /** `check`: the invoice held to the chain, as read through the pinned RPC and through the wallet. */
  /** `accountBalance`: the connected account's own balance of the token, read when the vault lacks part
   * of the amount. */
  | { type: 'payerResolved'; payer: Payer; check: CheckInvoiceReturnType; accountBalance?: bigint }
  /** `funding`: the funding permit's verdict, when paying from the wallet. */
  | { type: 'permitReceived'; verdict: VerifyPermitToSignReturnType; funding?: VerifyPermitToSignReturnType }
  | { type: 'fundingSigned'; funding: Funding }
  /** The wallet's transfer to the vault is mined. */
  | { type: 'vaultFunded' }
  | { type: 'permitSigned'; permit: PermitSignature }
  | { type: 'prepared'; prepared: PrepareResponse }
  /** `simulated`: what the verified operation moves, run through the pinned RPC (absent when refused). */
  | { type: 'verified'; verdict: VerifyPreparedPaymentReturnType; simulated?: SimulatedEffect }
  | { type: 'operationSigned'; signature: Hex }
  | { type: 'submitted'; result: SubmitResponse; at: number }
  | { type: 'permitExpiring' }
  /** The sponsorship of the prepared operation ends before it could be signed, sent and included,
   * while the permit still has time: the same permit is prepared again, with a new sponsorship. */
  | { type: 'sponsorshipExpiring' }
  | { type: 'failed'; failure: Failure; at: number }
  | SmartWalletOutcome

export type PaymentEvent = PaymentAction | PaymentOutcome
