import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { BaseError } from 'viem'
import { CodedError } from '../../shared/codedError'
import { HttpError, ValidationError } from './httpError'
import type { Logger } from './logger'

/** The codes of the layers below (chain, bundler, paymaster), as the statuses SPEC 7.2 gives them:
 * by code, so that this layer needs none of their classes. */
const answers: Record<string, { status: HttpError['status']; code?: string; message?: string }> = {
  INVOICE_NOT_FOUND: { status: 404, code: 'NOT_FOUND', message: 'no invoice with this id' },
  // the bundler's or the EntryPoint's reason is the client's to read
  USEROP_REJECTED: { status: 400, code: 'TRANSACTION_FAILED' },
  BUNDLER_UNAVAILABLE: { status: 503, message: 'the bundler is unavailable; nothing was lost: submit the same signed operation again' },
  PAYMASTER_UNAVAILABLE: { status: 502, message: 'the paymaster is unavailable: try again shortly' },
  // the sponsorship's own reason (its window against the permit) is the client's to read
  PAYMASTER_SPONSORSHIP_INVALID: { status: 502 },
  CHAIN_UNAVAILABLE: { status: 503, message: 'the chain is unavailable: try again shortly' },
  PERMIT_DOMAIN_UNKNOWN: { status: 502, message: 'the token does not describe its permit domain consistently' },
}

function asHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error
  if (error instanceof CodedError) {
    const answer = answers[error.code]
    if (answer) return new HttpError(answer.status, answer.code ?? error.code, answer.message ?? error.message)
  }
  // an RPC call that failed where no layer expected it: the chain's answer, not the request, is at fault
  if (error instanceof BaseError) return new HttpError(503, 'CHAIN_UNAVAILABLE', 'the chain is unavailable: try again shortly')
  if (error instanceof HTTPException && error.status === 413) return new HttpError(413, 'PAYLOAD_TOO_LARGE', 'the body is too large')
  return undefined
}

/** RPC, bundler and paymaster URLs often carry an API key in their path or query: never log one. */
function redacted(error: Error): string {
  const message = error instanceof BaseError ? error.shortMessage : error.message
  return message.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>').slice(0, 300)
}

/** The code a client is answered with for `error`: what the outcome counters count by. */
export function errorCode(error: unknown): string {
  if (error instanceof ValidationError) return error.code
  return asHttpError(error)?.code ?? 'INTERNAL_ERROR'
}

export function errorHandler(logger: Logger) {
  return function onError(error: Error, c: Context) {
    if (error instanceof ValidationError) return c.json({ error: error.code, details: error.details }, 400)
    // the request id lets an operator find the client's report of this answer, and the access line
    const context = { requestId: c.get('requestId'), route: c.req.routePath }
    const known = asHttpError(error)
    if (known) {
      if (known.status >= 500) logger.error({ ...context, code: known.code, error: error.name, message: redacted(error) }, 'upstream failure')
      for (const [name, value] of Object.entries(known.headers)) c.header(name, value)
      return c.json({ error: known.code, code: known.code, message: known.message, ...known.extra }, known.status)
    }
    logger.error({ ...context, error: error.name, message: redacted(error) }, 'unhandled error')
    return c.json({ error: 'INTERNAL_ERROR', code: 'INTERNAL_ERROR', message: 'something went wrong on our side' }, 500)
  }
}
