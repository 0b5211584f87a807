import { CodedError, type ErrorDetails } from '../../../shared/codedError'

/** Why a request that carries (or lacks) an Idempotency-Key is refused (SPEC 7.3, 7.4). The HTTP
 * layer gives each its status (server/http/errorHandler.ts). */
export type IdempotencyRefusal =
  | 'IDEMPOTENCY_KEY_REQUIRED'
  | 'IDEMPOTENCY_KEY_INVALID'
  | 'IDEMPOTENCY_CONFLICT'
  | 'IDEMPOTENCY_LEASE_CONTENTION'
  | 'IDEMPOTENCY_SUBMISSION_UNCERTAIN'

/** The request cannot run as sent under its key: the message says what the client does next. */
export class IdempotencyRefusedError extends CodedError {
  override name = 'IdempotencyRefusedError'
  constructor(
    readonly code: IdempotencyRefusal,
    message: string,
    details?: ErrorDetails,
  ) {
    super(message, details ? { details } : {})
  }
}

/**
 * The operation of a key began to be sent and nothing shows that it went out: building it again
 * could issue the invoice twice. With the hash it was to have, the merchant can look for it.
 */
export function submissionUncertain(userOpHash?: string): IdempotencyRefusedError {
  return new IdempotencyRefusedError(
    'IDEMPOTENCY_SUBMISSION_UNCERTAIN',
    `the operation of this Idempotency-Key began to be submitted${userOpHash ? ' and is not on-chain' : ''}, and no receipt hash was kept: the server will not build it again. Reconcile it with GET /v1/invoices?mode=strong before sending a new key`,
    userOpHash ? { userOpHash } : undefined,
  )
}

export type FinalizationFailedDetails = { invoiceId: string; txHash: string; userOpHash: string }

/**
 * The invoice exists on-chain, but what follows it (its encrypted metadata, its share token) was not
 * written. The details name the invoice and its transaction so the merchant never issues it again:
 * the same request with the same key runs finalization again, and only that.
 */
export class FinalizationFailedError extends CodedError<FinalizationFailedDetails> {
  override name = 'FinalizationFailedError'
  readonly code = 'FINALIZATION_FAILED'
}
