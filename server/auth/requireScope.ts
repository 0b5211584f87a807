import type { MiddlewareHandler } from 'hono'
import { ForbiddenError } from './authErrors'
import type { AuthEnv } from './principal'
import { grantsScope, type Scope } from './scopes'

/** SPEC 5.6: a route's granular scope, checked for API keys and OAuth grants after `authenticate`;
 * `only` checks it for that kind of principal alone (a scope the OAuth column names and the route does not). */
export function requireScope(needed: Scope, { only }: { only?: 'oauth' } = {}): MiddlewareHandler<AuthEnv> {
  return async function scoped(c, next) {
    const principal = c.get('principal')
    if (only && principal.kind !== only) return next()
    if (principal.kind === 'apiKey' && !grantsScope(principal.scopes, needed)) {
      throw new ForbiddenError(`this API key lacks the ${needed} scope`)
    }
    if (principal.kind === 'oauth' && !grantsScope(principal.scopes, needed)) {
      throw new ForbiddenError(`this grant lacks the ${needed} scope: sign in again and approve it`)
    }
    await next()
  }
}
