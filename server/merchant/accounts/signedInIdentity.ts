import type { Context } from 'hono'
import { AuthenticationError, ForbiddenError, MixedAuthError } from '../../auth/authErrors'
import type { IdentityVerifier, VerifiedIdentity } from '../../auth/jwtVerifier'

const bearerPattern = /^Bearer +(\S+)$/i

/**
 * The identity behind the request's bearer token, for the routes a user reaches before owning a
 * studio (/v1/auth/*): `authenticate` would refuse them for having none. The same refusals as it:
 * a key beside the token is MIXED_AUTH, a key alone is not a sign-in (SPEC 5.6: API keys unsupported).
 */
export async function signedInIdentity(c: Context, verify: IdentityVerifier | null): Promise<VerifiedIdentity & { subject: string }> {
  const authorization = c.req.header('authorization') ?? ''
  const bearer = bearerPattern.exec(authorization)?.[1]
  if (c.req.header('x-svc-key') !== undefined || authorization.startsWith('SVC-HMAC')) {
    if (bearer) throw new MixedAuthError()
    throw new ForbiddenError("API keys cannot sign in: send the identity provider's access token as a bearer token")
  }
  if (!bearer) throw new AuthenticationError('UNAUTHORIZED', "send the identity provider's access token: Authorization: Bearer <token>")
  if (!verify) throw new AuthenticationError('UNAUTHORIZED', 'this deployment accepts no bearer tokens: no identity provider is configured (JWT_ISSUER)')
  const identity = await verify(bearer)
  if (identity.subject === null) throw new AuthenticationError('UNAUTHORIZED', 'the token names no user (sub): sign in with the identity provider')
  return identity as VerifiedIdentity & { subject: string }
}
