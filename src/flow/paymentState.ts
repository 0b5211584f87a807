import type { Address, Hex } from 'viem'
import type { UserOperation } from 'viem/account-abstraction'
import type { Funding } from '../../shared/fundedPayCall'
import type { PaymentMessage } from '../../shared/paymentMessage'
import type { PermitSignature } from '../../shared/payCall'
import type { WireInvoice } from '../../shared/wire'
import type { SponsorshipWindow } from '../../shared/verifyingPaymaster'
import type { ShownInvoice } from '../verify/confirmInvoice'
import type { UnsafeProblem } from '../verify/unsafeProblem'
import type { PrepareResponse } from '../api/createPayApi'
import type { SmartWalletState } from './smartWallet/smartWalletState'
import type { PermitTypedData } from '../verify/verifyPermitToSign'
import type { SimulatedEffect } from '../chain/simulatePayment'

/** The owner's wallet and the vault it controls, as read from the chain when connecting. */
/** `sendsTransactions: false`: the wallet signs for this checkout but sends no transaction of its own
 * from here (a host page's wallet relays signatures only), so the vault is funded by permit alone. */
export type Payer = { owner: Address; vault: Address; deployed: boolean; balance: bigint; sendsTransactions?: false }

/** What the payer is asked to authorise, shown before the wallet opens. */
export type Authorisation = { amount: bigint; token: WireInvoice['token']; merchant: Address; spender: Address; deadline: bigint }

/** A payment this widget made, as the chain records it. txHash is null while the chain has no
 * settlement event for it; userOpHash is null for a payment the payer's own smart wallet sent (the
 * wallet built that operation, and its hash is only the wallet's word). */
export type Receipt = {
  amount: bigint
  invoiceNumber: string
  userOpHash: Hex | null
  txHash: Hex | null
  /** The wallet the payer connected, whose payment account the chain names as the payer: the payer
   * knows the wallet, not the account it controls. Absent when the wallet itself paid (a smart wallet). */
  wallet?: Address
}

/** A permit the payer signed and handed to the service: until `deadline` it lets the invoice registry
 * take `amount` from the vault, and only in a payment the vault itself makes (which needs another
 * signature from the payer). */
export type HandedOverPermit = { amount: bigint; deadline: bigint; funding?: HandedOverFunding }

/** Paying from the wallet: the funding permit handed over with it, which lets the vault take `amount`
 * from the payer's account until `deadline`, again only in an operation the payer signs. */
export type HandedOverFunding = { amount: bigint; deadline: bigint }

/** Why the payer is back at a step: the UI words it. */
export type FlowNote = 'connectRejected' | 'switchRejected' | 'switchFailed' | 'permitRejected' | 'operationRejected' | 'transferRejected'

/** What the service answered to the signed operation. Only the chain decides what happened; this only
 * changes what the payer is told meanwhile. `accepted`: it says it sent it (200 or 202); `unknown`: no
 * answer, a server fault, or (`unreadable`) an answer not in the documented shape; `refused`: a plain
 * 4xx with its code. */
export type SubmissionAnswer = { kind: 'accepted' } | { kind: 'unknown'; unreadable?: true } | { kind: 'refused'; code: string }

type WithInvoice = { invoice: ShownInvoice }
type WithPayer = WithInvoice & { payer: Payer }
/** `funding`: when the vault lacked part of the amount, the permit the payer signed letting the vault
 * take that part from the connected account, inside the same operation. */
type WithPermit = WithPayer & { permit: PermitSignature; funding?: Funding }
/** The vault's permit, checked and ready for the wallet, with what it authorises in plain terms. */
type PermitToSign = { authorisation: Authorisation; typedData: PermitTypedData }
/** userOp is the verified operation; from `submitting` on it carries the owner's signature. `simulated`:
 * what it moves, as the pinned RPC ran it before the payer was asked to sign. `window`
 * is when it can execute (the sponsorship's validity, in Unix seconds); `payment` is the message the
 * wallet signs for it, built from the verified operation alone. */
type WithOperation = WithPermit & { userOp: UserOperation<'0.7'>; userOpHash: Hex; window: SponsorshipWindow; payment: PaymentMessage; simulated?: SimulatedEffect }

/** Every state carries data and codes, never text. States with work attached (loading, checking, connecting,
 * requestingPermit, signingFunding, signingPermit, preparing, verifying, signingOperation, submitting, pending,
 * refreshing, switchingNetwork, and ready while its invoice is unconfirmed) leave on their own; the
 * others wait for an action. */
export type PaymentState =
  | { name: 'idle' }
  /** `notFoundByService`: the service answered 404, and the chain is read before anything is said. */
  | { name: 'loading'; notFoundByService?: true }
  /** The service's invoice is already on the page (rendered with it by the server): shown unconfirmed
   * while the chain is read for the first time. */
  | ({ name: 'checking' } & WithInvoice)
  | { name: 'notFound' }
  /** `rechecks`: how often the chain has been read again while the invoice is unconfirmed. */
  | ({ name: 'ready'; note: FlowNote | null; rechecks: number } & WithInvoice)
  /** receipt is null when the chain shows the invoice paid, but not by this widget's vault. */
  | ({ name: 'paid'; receipt: Receipt | null } & WithInvoice)
  | ({ name: 'canceled' } & WithInvoice)
  | ({ name: 'connecting' } & WithInvoice)
  | ({ name: 'wrongNetwork'; chainId: number; wantedChainId: number; note: FlowNote | null } & WithInvoice)
  | ({ name: 'switchingNetwork'; chainId: number; wantedChainId: number } & WithInvoice)
  | ({ name: 'connected'; note: FlowNote | null } & WithPayer)
  /** `fromWallet`: the connected account holds the missing amount, so the vault can be funded from it
   * inside the payment; `note` says why the payer is back here. */
  | ({ name: 'insufficientBalance'; missing: bigint; fromWallet?: boolean; note?: FlowNote | null } & WithPayer)
  /** The wallet sends what the vault lacks from the account to the vault, as an ordinary transaction. */
  | ({ name: 'sendingToVault'; missing: bigint } & WithPayer)
  /** `fromWallet`: the vault lacks part of the amount and the payer chose to pay it from the account. */
  | ({ name: 'requestingPermit'; fromWallet?: boolean } & WithPayer)
  /** Step 1 of 3 when paying from the wallet: the account lets its vault take what the vault lacks;
   * `next` is the vault's permit, signed after it. */
  | ({ name: 'signingFunding'; next: PermitToSign } & PermitToSign & WithPayer)
  | ({ name: 'signingPermit'; funding?: Funding } & PermitToSign & WithPayer)
  | ({ name: 'preparing' } & WithPermit)
  | ({ name: 'verifying'; prepared: PrepareResponse } & WithPermit)
  /** Terminal: the widget never offers to sign what failed verification. `handedOver` is the permit
   * the payer had already signed and sent, if any. */
  | ({ name: 'unsafe'; problems: UnsafeProblem[]; handedOver: HandedOverPermit | null } & WithInvoice)
  | ({ name: 'signingOperation' } & WithOperation)
  /** `resend`: the same operation again, after the service's answer to it was lost. */
  | ({ name: 'submitting'; resend: boolean } & WithOperation)
  /** Signed and handed over: the chain is read at nextCheckAt (ms since the epoch) until it shows the
   * invoice settled, or the operation spent or out of its window. */
  | ({ name: 'pending'; nextCheckAt: number; submission: SubmissionAnswer } & WithOperation)
  /** The chain is read before `next`: the invoice may have been paid or canceled meanwhile, and
   * nothing is reported that the chain has not shown. `lapse`: the payer's signed permit (its earliest
   * deadline), read against the chain's clock with the invoice: "expired" follows only if the chain's
   * time has it (nearly) passed, never on the service's word. */
  | ({ name: 'refreshing'; next: PaymentState; lapse?: { deadline: bigint; payer: Payer } } & WithInvoice)
  /** Nothing was paid, as read from the chain: the signed permit lapsed (`expired`), the operation
   * ran without paying (`failed`), or the service said it had sent the operation and the chain never
   * showed it before its window closed (`notSent`). */
  | ({ name: 'permitExpired'; reason: 'expired' | 'failed' | 'notSent' } & WithPayer)
  /** `code` is the API's code, or NETWORK_ERROR (the API did not answer), WALLET_ERROR, CONNECT_FAILED,
   * CHAIN_UNREADABLE (neither the pinned RPC nor the wallet answered), VERIFICATION_FAILED (the
   * verifier threw), PERMIT_REFUSED (the service asked for a new permit, saying PERMIT_EXPIRED, while
   * the chain's clock has the signed one still good: its claim is not passed on); `retry` is refused before retryAt (ms since the epoch, from Retry-After) and then
   * resumes `resume`. */
  | { name: 'error'; code: string; status: number | null; retryAt: number | null; resume: PaymentState }
  /** Paying from a smart wallet in one prompt (src/flow/smartWallet/). */
  | SmartWalletState

export type PaymentStateName = PaymentState['name']
