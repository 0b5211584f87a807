import { createRemoteJWKSet, errors, jwtVerify } from 'jose'
import { isUuid } from '../store/database'
import { AuthenticationError, AuthUnavailableError } from './authErrors'

export type JwtSettings = {
  jwksUrl: string
  issuer: string
  audience: string
  /** The claim that names the user's studio (a UUID). */
  studioClaim: string
}

/** Checks a bearer token and returns the studio id it names; throws AuthenticationError (401) or
 * AuthUnavailableError (503). */
export type JwtVerifier = (token: string) => Promise<string>

/** What the token itself got wrong; anything else (the key set cannot be fetched or read) is the
 * identity provider's trouble, not the caller's. */
const tokenFaults = new Set([
  errors.JWTExpired.code,
  errors.JWTClaimValidationFailed.code,
  errors.JWTInvalid.code,
  errors.JWSInvalid.code,
  errors.JWSSignatureVerificationFailed.code,
  errors.JWKSNoMatchingKey.code,
  errors.JWKSMultipleMatchingKeys.code,
  errors.JOSEAlgNotAllowed.code,
  errors.JOSENotSupported.code,
])

const refused = () => new AuthenticationError('UNAUTHORIZED', 'the bearer token does not verify: sign in again')

/** SPEC 5.1 item 3: identity-provider JWTs, verified against the issuer's published keys (cached and
 * refetched by jose when an unknown key id appears). */
export function createJwtVerifier({ jwksUrl, issuer, audience, studioClaim }: JwtSettings, now: () => number = Date.now): JwtVerifier {
  const keys = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5_000 })
  return async function verifyJwt(token) {
    let payload
    try {
      ;({ payload } = await jwtVerify(token, keys, { issuer, audience, requiredClaims: ['exp'], currentDate: new Date(now()) }))
    } catch (error) {
      if (error instanceof errors.JOSEError && tokenFaults.has(error.code)) throw refused()
      throw new AuthUnavailableError()
    }
    const studioId = payload[studioClaim]
    if (typeof studioId !== 'string' || !isUuid(studioId)) throw refused()
    return studioId
  }
}
