import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { HttpError } from './httpError'

/** The largest body a route reads, and what a client sent more is told. */
export type BodyLimit = { maxBytes: number; refusal: string }

/** What every route of the API reads at most, unless its declaration says otherwise. */
export const apiBodyLimit: BodyLimit = { maxBytes: 64 * 1024, refusal: 'the body is larger than 64 KiB' }

/** Answers 413 PAYLOAD_TOO_LARGE for a body over `maxBytes`. Reads without a body skip it: checking
 * one builds a full Fetch Request on the Node adapter. */
export function limitBody({ maxBytes, refusal }: BodyLimit): MiddlewareHandler {
  const limited = bodyLimit({
    maxSize: maxBytes,
    // Refused by its Content-Length, the body is left unread, and the Node adapter's drain of it stalls
    // (the Fetch Request built to read the length holds the stream paused): it resets the connection,
    // under the client's next request on it. Closing it is the clean end (RFC 9110 15.5.14).
    onError: () => {
      throw new HttpError(413, 'PAYLOAD_TOO_LARGE', refusal, {}, { Connection: 'close' })
    },
  })
  return function bodyLimited(c, next) {
    return c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limited(c, next)
  }
}
