import type { HttpBindings } from '@hono/node-server'
import type { Context, MiddlewareHandler } from 'hono'
import { answerHeaders } from './answerHeaders'

declare module 'hono' {
  interface ContextVariableMap {
    requestId: string
  }
}

/** What a proxy or a client's tracing puts in x-request-id (UUIDs, trace ids); anything else could
 * forge or break a log line, and is replaced. */
const saneId = /^[\w.:=-]{1,128}$/

function incomingHeader(c: Context, name: string): string | undefined {
  // On the Node adapter, the socket's own headers: reading c.req's builds a whole Fetch Request,
  // which costs the hot GET path dearly (publicCors.ts).
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming
  const value = incoming ? incoming.headers[name] : c.req.header(name)
  return typeof value === 'string' ? value : undefined
}

/** Every request gets an id, the caller's when it sent a sane one: in the logs and in the answer's
 * x-request-id, so an operator can find the lines of a request a client reports. */
export function requestId(): MiddlewareHandler {
  return async function identified(c, next) {
    const offered = incomingHeader(c, 'x-request-id')
    const id = offered && saneId.test(offered) ? offered : crypto.randomUUID()
    c.set('requestId', id)
    await answerHeaders(c, { 'x-request-id': id }, next)
  }
}
