import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { BaseError } from 'viem'
import { CodedError } from '../../shared/codedError'
import { HttpError, ValidationError, type HttpStatus } from './httpError'
import type { Logger } from './logger'

/** How a code is answered: its SPEC 7.2 status, and where the client is told something other than
 * what the layer below said, the code or message it is told instead. */
export type Answer = { status: HttpStatus; code?: string; message?: string }

/**
 * The one table from code to status. Every layer below throws its coded error (payments, chain,
 * bundler, paymaster) and needs to know nothing of HTTP; this layer needs none of their classes. What
 * only HTTP explains (authentication's challenge, 405, 413, 415, 429) is an HttpError with its own.
 */
export const answers: Readonly<Record<string, Answer>> = {
  // the payer's request, refused as sent (server/payments)
  INVALID_STATUS: { status: 400 },
  TOKEN_NOT_SUPPORTED: { status: 409 },
  MERCHANT_NOT_REGISTERED: { status: 409 },
  PERMIT_EXPIRED: { status: 409 },
  PERMIT_DEADLINE_TOO_FAR: { status: 400 },
  PERMIT_SIGNATURE_INVALID: { status: 400 },
  PAYER_NOT_OWNER_VAULT: { status: 400 },
  INSUFFICIENT_BALANCE: { status: 400 },
  FUNDING_OWNER_MISMATCH: { status: 400 },
  FUNDING_AMOUNT_MISMATCH: { status: 400 },
  FUNDING_PERMIT_INVALID: { status: 400 },
  USEROP_NOT_PREPARED: { status: 400 },
  USEROP_SIGNATURE_INVALID: { status: 400 },
  USEROP_PERMIT_MISMATCH: { status: 400 },
  TRANSACTION_FAILED: { status: 400 },
  // too many sponsored payments in progress for the invoice, the wallet or the client: Retry-After
  // says when the oldest of them ends (server/payments/sponsorshipLimiter.ts)
  SPONSORSHIP_LIMIT: { status: 429 },
  // a studio's logo, refused with what to send instead (server/branding/verifyLogo.ts)
  LOGO_TOO_LARGE: { status: 400 },
  LOGO_TYPE_NOT_ACCEPTED: { status: 400 },
  LOGO_INVALID: { status: 400 },
  // a studio's customers and profile (server/merchant): existingCustomerId travels in the details
  CUSTOMER_EXISTS: { status: 409 },
  CUSTOMER_NOT_FOUND: { status: 404, code: 'NOT_FOUND' },
  PROFILE_INCOMPLETE: { status: 400 },
  // server-signed writes (server/merchant/signer): the vault has no live session for the server's key,
  // or the studio's sponsored operations for the day or the month are used (Retry-After: the next UTC
  // day, or the first of the next month)
  no_active_signer: { status: 403 },
  QUOTA_EXCEEDED: { status: 429 },
  // an OAuth grant's issue past the limits set at consent (server/merchant/oauth/invoiceLimitExceededError.ts)
  LIMIT_EXCEEDED: { status: 403 },
  EMAIL_REQUEST_LIMIT: { status: 429 },
  // an invoice-creating request under its Idempotency-Key (server/merchant/idempotency, SPEC 7.4)
  IDEMPOTENCY_KEY_REQUIRED: { status: 400 },
  IDEMPOTENCY_KEY_INVALID: { status: 400 },
  IDEMPOTENCY_CONFLICT: { status: 409 },
  IDEMPOTENCY_LEASE_CONTENTION: { status: 409 },
  IDEMPOTENCY_SUBMISSION_UNCERTAIN: { status: 409 },
  // the invoice is on-chain, what follows it is not written: the body names the invoice and its
  // transaction, and the same request with the same key finishes it (SPEC 7.2: 500)
  FINALIZATION_FAILED: { status: 500 },
  // the layers below the service (server/chain)
  INVOICE_NOT_FOUND: { status: 404, code: 'NOT_FOUND', message: 'no invoice with this id' },
  // the bundler's or the EntryPoint's reason is the client's to read
  USEROP_REJECTED: { status: 400, code: 'TRANSACTION_FAILED' },
  BUNDLER_UNAVAILABLE: { status: 503, message: 'the bundler is unavailable; nothing was lost: submit the same signed operation again' },
  PAYMASTER_UNAVAILABLE: { status: 502, message: 'the paymaster is unavailable: try again shortly' },
  // the sponsorship's own reason (its window against the permit) is the client's to read
  PAYMASTER_SPONSORSHIP_INVALID: { status: 502 },
  CHAIN_UNAVAILABLE: { status: 503, message: 'the chain is unavailable: try again shortly' },
  // the queue in front of the bundler or the paymaster service is full: nothing was sent
  UPSTREAM_BUSY: { status: 503 },
  PERMIT_DOMAIN_UNKNOWN: { status: 502, message: 'the token does not describe its permit domain consistently' },
}

const chainUnavailable = new HttpError(503, 'CHAIN_UNAVAILABLE', 'the chain is unavailable: try again shortly')
const payloadTooLarge = new HttpError(413, 'PAYLOAD_TOO_LARGE', 'the body is too large')

/** The answer `error` gets, as the HttpError that carries its status, headers and body; undefined for
 * an error no one meant a client to meet (a 500 that reveals nothing). */
export function answerFor(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error
  if (error instanceof CodedError) {
    const answer = answers[error.code]
    if (!answer) return undefined
    // details are the client's to read (a balance, a hash); a list of issues is ValidationError's own body
    const details = error.details && typeof error.details === 'object' && !Array.isArray(error.details) ? error.details : {}
    // a layer that knows when to come back says so in its details; HTTP says it in Retry-After too
    const retryAfter = 'retryAfterSeconds' in details && typeof details.retryAfterSeconds === 'number' ? { 'Retry-After': String(Math.max(1, Math.ceil(details.retryAfterSeconds))) } : undefined
    return new HttpError(answer.status, answer.code ?? error.code, answer.message ?? error.message, details, retryAfter)
  }
  // an RPC call that failed where no layer expected it: the chain's answer, not the request, is at fault
  if (error instanceof BaseError) return chainUnavailable
  if (error instanceof HTTPException && error.status === 413) return payloadTooLarge
  return undefined
}

/** RPC, bundler and paymaster URLs often carry an API key in their path or query: never log one. */
export function redacted(error: Error): string {
  const message = error instanceof BaseError ? error.shortMessage : error.message
  return message.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>').slice(0, 300)
}

/** The code a client is answered with for `error`: what the outcome counters count by. */
export function errorCode(error: unknown): string {
  if (error instanceof ValidationError) return error.code
  return answerFor(error)?.code ?? 'INTERNAL_ERROR'
}

export function errorHandler(logger: Logger) {
  return function onError(error: Error, c: Context) {
    if (error instanceof ValidationError) return c.json({ error: error.code, details: error.details }, 400)
    // the request id lets an operator find the client's report of this answer, and the access line
    const context = { requestId: c.get('requestId'), route: c.req.routePath }
    const known = answerFor(error)
    if (known) {
      if (known.status >= 500) logger.error({ ...context, code: known.code, error: error.name, message: redacted(error) }, 'upstream failure')
      for (const [name, value] of Object.entries(known.headers)) c.header(name, value)
      // the SPEC's fields last: no layer's details can stand in for them
      return c.json({ ...known.details, error: known.code, code: known.code, message: known.message }, known.status)
    }
    logger.error({ ...context, error: error.name, message: redacted(error) }, 'unhandled error')
    return c.json({ error: 'INTERNAL_ERROR', code: 'INTERNAL_ERROR', message: 'something went wrong on our side' }, 500)
  }
}
