import type { Address, Hex } from 'viem'
import type { UserOperation } from 'viem/account-abstraction'
import type { PermitSignature } from '../shared/payCall'
import type { WireInvoice } from '../shared/wire'
import type { UnsafeProblem } from '../verify/unsafeProblem'
import type { PrepareResponse } from '../verify/verifyPreparedPayment'
import type { PermitTypedData } from '../verify/verifyPermitToSign'
import type { Failure } from './failure'

/** The owner's wallet and the vault it controls, as read when connecting. */
export type Payer = { owner: Address; vault: Address; deployed: boolean; balance: bigint }

/** What the payer is asked to authorise, shown before the wallet opens. */
export type Authorisation = { amount: bigint; token: WireInvoice['token']; merchant: Address; spender: Address; deadline: bigint }

/** A payment this widget made. txHash is null when the invoice does not (yet) say. */
export type Receipt = { amount: bigint; invoiceNumber: string; userOpHash: Hex; txHash: Hex | null }

/** Why the payer is back at a step: the UI words it. */
export type FlowNote = 'connectRejected' | 'switchRejected' | 'switchFailed' | 'permitRejected' | 'operationRejected'

type WithInvoice = { invoice: WireInvoice }
type WithPayer = WithInvoice & { payer: Payer }
type WithPermit = WithPayer & { permit: PermitSignature }
/** userOp is the verified operation; from `submitting` on it carries the owner's signature. */
type WithOperation = WithPermit & { userOp: UserOperation<'0.7'>; userOpHash: Hex }

/** Every state carries data and codes, never text. States with work attached (loading, connecting,
 * requestingPermit, signingPermit, preparing, verifying, signingOperation, submitting, reconciling,
 * pending, refreshing, switchingNetwork) leave on their own; the others wait for an action. */
export type PaymentState =
  | { name: 'idle' }
  | { name: 'loading' }
  | { name: 'notFound' }
  | ({ name: 'ready'; note: FlowNote | null } & WithInvoice)
  /** receipt is null when the invoice was paid, but not by this widget's operation. */
  | ({ name: 'paid'; receipt: Receipt | null } & WithInvoice)
  | ({ name: 'canceled' } & WithInvoice)
  | ({ name: 'connecting' } & WithInvoice)
  | ({ name: 'wrongNetwork'; chainId: number; wantedChainId: number; note: FlowNote | null } & WithInvoice)
  | ({ name: 'switchingNetwork'; chainId: number; wantedChainId: number } & WithInvoice)
  | ({ name: 'connected'; note: FlowNote | null } & WithPayer)
  | ({ name: 'insufficientBalance'; missing: bigint } & WithPayer)
  | ({ name: 'requestingPermit' } & WithPayer)
  | ({ name: 'signingPermit'; authorisation: Authorisation; typedData: PermitTypedData } & WithPayer)
  | ({ name: 'preparing' } & WithPermit)
  | ({ name: 'verifying'; prepared: PrepareResponse } & WithPermit)
  /** Terminal: the widget never offers to sign what failed verification. */
  | ({ name: 'unsafe'; problems: UnsafeProblem[] } & WithInvoice)
  | ({ name: 'signingOperation' } & WithOperation)
  | ({ name: 'submitting' } & WithOperation)
  /** The submission's outcome is unknown: read the invoice before anything else (SPEC 7.5). */
  | ({ name: 'reconciling'; failure: Failure } & WithOperation)
  /** Submitted and not yet Paid: the invoice is read again at nextCheckAt (ms since the epoch). */
  | ({ name: 'pending'; nextCheckAt: number } & WithOperation)
  /** A step was refused before anything was submitted: the invoice may have been paid or canceled meanwhile. */
  | ({ name: 'refreshing'; failure: Failure; resume: PaymentState } & WithInvoice)
  | ({ name: 'permitExpired' } & WithPayer)
  /** `code` is the API's code, or NETWORK_ERROR (the API did not answer), WALLET_ERROR, CONNECT_FAILED,
   * VERIFICATION_FAILED (the verifier threw);
   * `retry` is refused before retryAt (ms since the epoch, from Retry-After) and then resumes `resume`. */
  | { name: 'error'; code: string; status: number | null; retryAt: number | null; resume: PaymentState }

export type PaymentStateName = PaymentState['name']
