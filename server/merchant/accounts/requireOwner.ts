import type { Context, MiddlewareHandler } from 'hono'
import { ForbiddenError } from '../../auth/authErrors'
import type { AuthEnv, Principal } from '../../auth/principal'
import { isUuid } from '../../store/database'

/**
 * SPEC 5.6 "JWT with owner checks; API keys unsupported": the studio's routes are its owner's,
 * signed in. A key of the very studio is refused too: a leaked key must not mint more keys or move
 * the withdrawal address. A key beside a JWT never gets here (authenticate answers MIXED_AUTH).
 */
export function requireOwner(c: Context<AuthEnv>, studioId: string): Extract<Principal, { kind: 'user' }> {
  const principal = c.get('principal')
  if (principal.kind !== 'user') throw new ForbiddenError("API keys cannot use this route: it takes the studio owner's bearer token (SPEC 5.6)")
  if (principal.studio.id !== studioId) throw new ForbiddenError('the signed-in user does not own this studio')
  return principal
}

/**
 * The same check for every owner-only route, put after authentication and before the body is read:
 * an API key, or another studio's owner, is refused for what it is, never told what the body lacks.
 * The studio is the path's (`:studioId`, or `:id` under /v1/studios); `me`, and an id that is no UUID
 * (its validator answers 400), name the caller's own. Handlers still call requireOwner themselves.
 */
export const ownerOfPathStudio: MiddlewareHandler<AuthEnv> = async function ownerOfPathStudio(c, next) {
  const named = c.req.param('studioId') ?? c.req.param('id')
  requireOwner(c, named !== undefined && isUuid(named) ? named : c.get('principal').studio.id)
  await next()
}
