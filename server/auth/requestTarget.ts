import type { HttpBindings } from '@hono/node-server'
import type { Context } from 'hono'

/**
 * The path and query as the client transmitted them (SPEC 5.2: the query is signed as sent, never
 * re-encoded). On Node that is the request line's target; elsewhere (app.request in tests, other
 * runtimes) the Request's URL is the closest there is.
 */
export function requestTarget(c: Context): { path: string; query: string } {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming?.url
  const raw = incoming ?? c.req.url
  // An absolute-form target (`GET http://host/v1/...`) carries the origin in front of the path.
  const target = raw.startsWith('/') ? raw : raw.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '')
  const at = target.indexOf('?')
  return at < 0 ? { path: target, query: '' } : { path: target.slice(0, at), query: target.slice(at + 1) }
}
