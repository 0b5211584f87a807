import type { Context } from 'hono'
import { ForbiddenError } from '../../auth/authErrors'
import type { AuthEnv, Principal } from '../../auth/principal'

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
