import type { Context, MiddlewareHandler } from 'hono'
import { AuthenticationError, ForbiddenError, MixedAuthError } from '../../auth/authErrors'
import type { IdentityVerifier, VerifiedIdentity } from '../../auth/jwtVerifier'
import { oauthAccessTokenPrefix } from '../../auth/oauthTokenPrefix'

const bearerPattern = /^Bearer +(\S+)$/i

/**
 * The bearer token of a request that may only come from a signed-in user, refused by its kind before
 * anything is verified: a key beside the token is MIXED_AUTH, a key alone or a CLI's OAuth token is
 * no sign-in (SPEC 5.6: API keys unsupported, OAuth only where the matrix names it), none at all 401.
 */
function signedInBearer(c: Context): string {
  const authorization = c.req.header('authorization') ?? ''
  const bearer = bearerPattern.exec(authorization)?.[1]
  if (c.req.header('x-svc-key') !== undefined || authorization.startsWith('SVC-HMAC')) {
    if (bearer) throw new MixedAuthError()
    throw new ForbiddenError("API keys cannot sign in: send the identity provider's access token as a bearer token")
  }
  if (!bearer) throw new AuthenticationError('UNAUTHORIZED', "send the identity provider's access token: Authorization: Bearer <token>")
  if (bearer.startsWith(oauthAccessTokenPrefix)) throw new ForbiddenError("OAuth tokens cannot use this route (SPEC 5.6): send the identity provider's access token")
  return bearer
}

/** What a self-authenticating route (sign-in, provisioning) puts before its validators: a request
 * with no sign-in at all is refused as such, not for its body. */
export const signedInCredentialOnly: MiddlewareHandler = async function signedInCredentialOnly(c, next) {
  signedInBearer(c)
  await next()
}

/**
 * The identity behind the request's bearer token, for the routes a user reaches before owning a
 * studio (/v1/auth/*): `authenticate` would refuse them for having none. The same refusals as it.
 */
export async function signedInIdentity(c: Context, verify: IdentityVerifier | null): Promise<VerifiedIdentity & { subject: string }> {
  const bearer = signedInBearer(c)
  if (!verify) throw new AuthenticationError('UNAUTHORIZED', 'this deployment accepts no bearer tokens: no identity provider is configured (JWT_ISSUER)')
  const identity = await verify(bearer)
  if (identity.subject === null) throw new AuthenticationError('UNAUTHORIZED', 'the token names no user (sub): sign in with the identity provider')
  return identity as VerifiedIdentity & { subject: string }
}
