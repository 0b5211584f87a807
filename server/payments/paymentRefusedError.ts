import { CodedError, type ErrorDetails } from '../../shared/codedError'

/** Why a payment step refuses the payer's request (SPEC 7.3). The HTTP layer gives each its status. */
export type PaymentRefusal =
  | 'INVALID_STATUS'
  | 'TOKEN_NOT_SUPPORTED'
  | 'MERCHANT_NOT_REGISTERED'
  | 'PERMIT_EXPIRED'
  | 'PERMIT_DEADLINE_TOO_FAR'
  | 'PERMIT_SIGNATURE_INVALID'
  | 'PAYER_NOT_OWNER_VAULT'
  | 'INSUFFICIENT_BALANCE'
  | 'FUNDING_OWNER_MISMATCH'
  | 'FUNDING_AMOUNT_MISMATCH'
  | 'FUNDING_PERMIT_INVALID'
  | 'USEROP_NOT_PREPARED'
  | 'USEROP_SIGNATURE_INVALID'
  | 'USEROP_PERMIT_MISMATCH'
  | 'TRANSACTION_FAILED'

/** The payer's request cannot go through as sent: the message says what to send instead, `details`
 * carry the figures (a balance, a hash) the payer's client reads. */
export class PaymentRefusedError extends CodedError {
  override name = 'PaymentRefusedError'
  constructor(
    readonly code: PaymentRefusal,
    message: string,
    details?: ErrorDetails,
  ) {
    super(message, details ? { details } : {})
  }
}
