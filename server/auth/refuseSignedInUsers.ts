import type { MiddlewareHandler } from 'hono'
import { ForbiddenError } from './authErrors'
import type { AuthEnv } from './principal'

/**
 * SPEC 5.6 for the server-signed writes (issue, cancel/submit): an API key or an OAuth grant drives
 * them, never a signed-in user's token. A browser session that leaked must not make the server's key
 * sign; the owner issues and cancels by signing the operation itself.
 */
export const refuseSignedInUsers: MiddlewareHandler<AuthEnv> = async function refuseSignedInUsers(c, next) {
  if (c.get('principal').kind === 'user') {
    throw new ForbiddenError(
      "this route is for API keys: signed in, issue with POST /v1/invoices/prepare and POST /v1/invoices, or cancel with POST /v1/invoices/:id/cancel/prepare and /cancel, which the owner's wallet signs",
    )
  }
  await next()
}
