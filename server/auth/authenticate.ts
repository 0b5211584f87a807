import type { Context, MiddlewareHandler } from 'hono'
import type { StudioStore } from '../store/studioStore'
import { AuthenticationError, ForbiddenError, MixedAuthError } from './authErrors'
import { hmacHeaders } from './hmacHeaders'
import { oauthAccessTokenPrefix } from './oauthTokenPrefix'
import type { IdentityVerifier } from './jwtVerifier'
import type { AuthEnv, Principal } from './principal'
import { verifyHmacRequest, type VerifyHmacRequestDependencies } from './verifyHmacRequest'

export type AuthDependencies = VerifyHmacRequestDependencies & {
  studios: Pick<StudioStore, 'getStudio'>
  /** Null where no identity provider is configured: bearer tokens are then refused. */
  jwt: IdentityVerifier | null
  /** Where a token without a studio claim finds its user's studio (POST /v1/auth/login made the user). */
  users?: { findUser(issuer: string, subject: string): Promise<{ id: string; studioId: string | null } | null> }
  /** A CLI's OAuth access token (svc_oat_, SPEC 5.3) for the API's audience, read into its principal;
   * null when unknown, expired, revoked or issued for another audience (a hosted MCP token). Absent
   * where no authorization server runs. */
  oauth?: (token: string) => Promise<Extract<Principal, { kind: 'oauth' }> | null>
  /** Told of each request an API key authenticated (the audit log samples them); must not throw. */
  keyUsed?: (c: Context, studioId: string, keyId: string) => void
}

const bearerPattern = /^Bearer +(\S+)$/i

/**
 * HMAC (SPEC 5.2) or an identity-provider JWT (SPEC 5.1 item 3), never both. Sets the principal,
 * with its studio, for the route. Put it on each route, not on a prefix: a second run would find the
 * request's nonce already claimed.
 */
export function authenticate(dependencies: AuthDependencies, { acceptsOAuth = false }: { acceptsOAuth?: boolean } = {}): MiddlewareHandler<AuthEnv> {
  async function principalOf(c: Context<AuthEnv>): Promise<Principal> {
    const authorization = c.req.header('authorization') ?? ''
    const bearer = bearerPattern.exec(authorization)?.[1]
    if (c.req.header('x-svc-key') !== undefined || authorization.startsWith('SVC-HMAC')) {
      if (bearer) throw new MixedAuthError()
      const key = await verifyHmacRequest(c, hmacHeaders(c), dependencies)
      const studio = await dependencies.studios.getStudio(key.studioId)
      // Keys reference their studio in the database; a missing one is as good as no key.
      if (!studio) throw new AuthenticationError('UNAUTHORIZED', 'the API key has no studio')
      dependencies.keyUsed?.(c, studio.id, key.keyId)
      return { kind: 'apiKey', studio, scopes: key.scopes }
    }
    if (bearer?.startsWith(oauthAccessTokenPrefix)) {
      const principal = dependencies.oauth ? await dependencies.oauth(bearer) : null
      // a hosted MCP token is no REST credential at all (SPEC 5.4); a CLI's is, where 5.6 allows it
      if (!principal) throw new AuthenticationError('UNAUTHORIZED', 'this OAuth token is unknown, expired or revoked, or it was issued for /mcp: sign in again with the CLI')
      if (!acceptsOAuth) throw new ForbiddenError('OAuth tokens cannot use this route (SPEC 5.6): use an API key or a signed-in session')
      return principal
    }
    if (bearer) {
      if (!dependencies.jwt) throw new AuthenticationError('UNAUTHORIZED', 'this deployment accepts no bearer tokens: sign requests with an API key (SPEC 5.2)')
      const identity = await dependencies.jwt(bearer)
      let userId: string | undefined
      let studioId: string
      if (identity.studioId !== null) studioId = identity.studioId
      else {
        const user = identity.subject === null ? null : await dependencies.users?.findUser(identity.issuer, identity.subject)
        if (!user) throw new AuthenticationError('UNAUTHORIZED', 'this user has not signed in to this deployment yet: POST /v1/auth/login first')
        if (!user.studioId) throw new ForbiddenError('the signed-in user owns no studio yet: provision one first (SPEC 4.3)')
        studioId = user.studioId
        userId = user.id
      }
      const studio = await dependencies.studios.getStudio(studioId)
      if (!studio) throw new ForbiddenError("the signed-in user's studio is not known to this deployment")
      return { kind: 'user', studio, ...(userId ? { userId } : {}) }
    }
    throw new AuthenticationError('UNAUTHORIZED', 'sign the request with an API key (x-svc-key, x-svc-ts, x-svc-nonce, Authorization: SVC-HMAC) or send a bearer token')
  }

  return async function authenticated(c, next) {
    c.set('principal', await principalOf(c))
    await next()
  }
}
