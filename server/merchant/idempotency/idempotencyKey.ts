import { IdempotencyRefusedError } from './idempotencyErrors'

/** SPEC 7.4.1 and 8: 1 to 128 visible ASCII characters (0x21 to 0x7e), so no space and no control. */
const keyPattern = /^[\x21-\x7e]{1,128}$/

/** The header a client names its operation with. */
export const idempotencyKeyHeader = 'Idempotency-Key'

/**
 * The request's Idempotency-Key, checked: undefined when it sent none and the deployment lets it
 * (then every call is an operation of its own). A header sent empty is an invalid key, not a
 * missing one: the client meant to send one.
 */
export function readIdempotencyKey(header: string | undefined, { required }: { required: boolean }): string | undefined {
  if (header === undefined) {
    if (!required) return undefined
    throw new IdempotencyRefusedError(
      'IDEMPOTENCY_KEY_REQUIRED',
      `this deployment requires an ${idempotencyKeyHeader} header: send a new random value (such as a UUID) for each new invoice, and the same value when you retry it`,
    )
  }
  if (!keyPattern.test(header)) {
    throw new IdempotencyRefusedError(
      'IDEMPOTENCY_KEY_INVALID',
      `the ${idempotencyKeyHeader} header must be 1 to 128 visible ASCII characters, without spaces (a UUID fits)`,
    )
  }
  return header
}

/** The codes a route under an Idempotency-Key that sends nothing on-chain answers (client-signed prepare). */
export const idempotentPrepareErrors = ['IDEMPOTENCY_KEY_REQUIRED', 'IDEMPOTENCY_KEY_INVALID', 'IDEMPOTENCY_CONFLICT', 'IDEMPOTENCY_LEASE_CONTENTION'] as const

/** The codes a route that sends an invoice-creating operation under its key answers besides (SPEC 7.3). */
export const idempotentSubmissionErrors = [...idempotentPrepareErrors, 'IDEMPOTENCY_SUBMISSION_UNCERTAIN', 'FINALIZATION_FAILED'] as const
