import { CodedError } from '../../../shared/codedError'

/** 403 LIMIT_EXCEEDED: an OAuth grant's issue goes past what the person approved at consent (SPEC
 * 5.4), the largest invoice or the invoices in 24 hours; the message names the limit in USDC. Thrown
 * before anything is signed or any of the studio's quota is spent. */
export class InvoiceLimitExceededError extends CodedError {
  override name = 'InvoiceLimitExceededError'
  readonly code = 'LIMIT_EXCEEDED'
}
