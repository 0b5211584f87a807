import type { Context, MiddlewareHandler } from 'hono'
import type { StudioStore } from '../store/studioStore'
import { AuthenticationError, ForbiddenError, MixedAuthError } from './authErrors'
import { hmacHeaders } from './hmacHeaders'
import type { JwtVerifier } from './jwtVerifier'
import type { AuthEnv, Principal } from './principal'
import { verifyHmacRequest, type VerifyHmacRequestDependencies } from './verifyHmacRequest'

export type AuthDependencies = VerifyHmacRequestDependencies & {
  studios: Pick<StudioStore, 'getStudio'>
  /** Null where no identity provider is configured: bearer tokens are then refused. */
  jwt: JwtVerifier | null
}

const bearerPattern = /^Bearer +(\S+)$/i

/**
 * HMAC (SPEC 5.2) or an identity-provider JWT (SPEC 5.1 item 3), never both. Sets the principal,
 * with its studio, for the route. Put it on each route, not on a prefix: a second run would find the
 * request's nonce already claimed.
 */
export function authenticate(dependencies: AuthDependencies): MiddlewareHandler<AuthEnv> {
  async function principalOf(c: Context<AuthEnv>): Promise<Principal> {
    const authorization = c.req.header('authorization') ?? ''
    const bearer = bearerPattern.exec(authorization)?.[1]
    if (c.req.header('x-svc-key') !== undefined || authorization.startsWith('SVC-HMAC')) {
      if (bearer) throw new MixedAuthError()
      const key = await verifyHmacRequest(c, hmacHeaders(c), dependencies)
      const studio = await dependencies.studios.getStudio(key.studioId)
      // Keys reference their studio in the database; a missing one is as good as no key.
      if (!studio) throw new AuthenticationError('UNAUTHORIZED', 'the API key has no studio')
      return { kind: 'apiKey', studio, scopes: key.scopes }
    }
    if (bearer) {
      if (!dependencies.jwt) throw new AuthenticationError('UNAUTHORIZED', 'this deployment accepts no bearer tokens: sign requests with an API key (SPEC 5.2)')
      const studio = await dependencies.studios.getStudio(await dependencies.jwt(bearer))
      if (!studio) throw new ForbiddenError("the signed-in user's studio is not known to this deployment")
      return { kind: 'user', studio }
    }
    throw new AuthenticationError('UNAUTHORIZED', 'sign the request with an API key (x-svc-key, x-svc-ts, x-svc-nonce, Authorization: SVC-HMAC) or send a bearer token')
  }

  return async function authenticated(c, next) {
    c.set('principal', await principalOf(c))
    await next()
  }
}
