import { createRemoteJWKSet, errors, jwtVerify } from 'jose'
import { isUuid } from '../store/database'
import { asymmetricJwtAlgorithms, ConfigError } from '../config'
import { AuthenticationError, AuthUnavailableError } from './authErrors'

export type CreateJwtVerifierParameters = {
  jwksUrl: string
  issuer: string
  audience: string
  /** The claim that names the user's studio (a UUID). */
  studioClaim: string
  /** The signature algorithms accepted (JWT_ALGORITHMS): asymmetric ones only, so a token "signed"
   * with `none`, or with HS256 keyed by the provider's public key, is refused before any key is used. */
  algorithms?: readonly string[]
  /** How far exp, nbf and iat may be off from this server's clock (JWT_CLOCK_TOLERANCE_SECONDS):
   * the provider's clock and ours are never exactly the same. */
  clockToleranceSeconds?: number
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
export function createJwtVerifier(
  { jwksUrl, issuer, audience, studioClaim, algorithms = asymmetricJwtAlgorithms, clockToleranceSeconds = 30 }: CreateJwtVerifierParameters,
  now: () => number = Date.now,
): JwtVerifier {
  const keys = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5_000 })
  const refusedAlgorithms = algorithms.filter((name) => !(asymmetricJwtAlgorithms as readonly string[]).includes(name))
  if (refusedAlgorithms.length > 0) throw new ConfigError(`JWT_ALGORITHMS is not valid: ${refusedAlgorithms.join(', ')} is not an asymmetric signature algorithm`)
  const allowed = [...algorithms]
  return async function verifyJwt(token) {
    let payload
    try {
      ;({ payload } = await jwtVerify(token, keys, {
        issuer,
        audience,
        algorithms: allowed,
        clockTolerance: clockToleranceSeconds,
        requiredClaims: ['exp'],
        currentDate: new Date(now()),
      }))
    } catch (error) {
      if (error instanceof errors.JOSEError && tokenFaults.has(error.code)) throw refused()
      throw new AuthUnavailableError()
    }
    const studioId = payload[studioClaim]
    if (typeof studioId !== 'string' || !isUuid(studioId)) throw refused()
    return studioId
  }
}
