import type { Hex } from 'viem'
import type { WireInvoice } from '../shared/wire'
import type { PermitSignature } from '../shared/payCall'
import type { PrepareResponse, VerifyPreparedPaymentReturnType } from '../verify/verifyPreparedPayment'
import type { VerifyOnchainInvoiceReturnType } from '../verify/verifyOnchainInvoice'
import type { VerifyPermitToSignReturnType } from '../verify/verifyPermitToSign'
import type { Failure } from './failure'
import type { SubmitResponse } from './paymentFlowDeps'
import type { Payer } from './paymentState'

/** What the payer asks for. */
export type PaymentAction =
  | { type: 'start' }
  | { type: 'connect' }
  | { type: 'switchNetwork' }
  | { type: 'pay' }
  | { type: 'renewPermit' }
  | { type: 'retry'; at: number }

/** What the work attached to a state found out. `at` is the clock (ms since the epoch) when it did. */
export type PaymentOutcome =
  | { type: 'invoiceRead'; invoice: WireInvoice; at: number }
  | { type: 'wrongNetwork'; chainId: number; wantedChainId: number }
  | { type: 'networkSwitched' }
  /** `onchain`: the invoice shown, checked against the registry's. */
  | { type: 'payerResolved'; payer: Payer; onchain: VerifyOnchainInvoiceReturnType }
  | { type: 'permitReceived'; invoice: WireInvoice; verdict: VerifyPermitToSignReturnType }
  | { type: 'permitSigned'; permit: PermitSignature }
  | { type: 'prepared'; prepared: PrepareResponse }
  | { type: 'verified'; verdict: VerifyPreparedPaymentReturnType }
  | { type: 'operationSigned'; signature: Hex }
  | { type: 'submitted'; result: SubmitResponse; at: number }
  | { type: 'permitExpiring' }
  | { type: 'failed'; failure: Failure; at: number }

export type PaymentEvent = PaymentAction | PaymentOutcome
