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

/** Who a verified token speaks for: the provider's issuer and subject name the user; the studio claim,
 * when the provider sets one, names the studio outright (else the user's membership does). */
export type VerifiedIdentity = { issuer: string; subject: string | null; email: string | null; studioId: string | null }

/** Checks a bearer token and returns whom it names; throws AuthenticationError (401) or
 * AuthUnavailableError (503). */
export type IdentityVerifier = (token: string) => Promise<VerifiedIdentity>

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
 * refetched by jose when an unknown key id appears). A token names its subject or its studio; a studio
 * claim that is there must be a studio id. */
export function createIdentityVerifier(
  { jwksUrl, issuer, audience, studioClaim, algorithms = asymmetricJwtAlgorithms, clockToleranceSeconds = 30 }: CreateJwtVerifierParameters,
  now: () => number = Date.now,
): IdentityVerifier {
  const keys = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5_000 })
  const refusedAlgorithms = algorithms.filter((name) => !(asymmetricJwtAlgorithms as readonly string[]).includes(name))
  if (refusedAlgorithms.length > 0) throw new ConfigError(`JWT_ALGORITHMS is not valid: ${refusedAlgorithms.join(', ')} is not an asymmetric signature algorithm`)
  const allowed = [...algorithms]
  return async function verifyIdentity(token) {
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
    if (studioId !== undefined && (typeof studioId !== 'string' || !isUuid(studioId))) throw refused()
    // a token that names its studio needs no subject; one that does not is read by its subject
    const subject = typeof payload.sub === 'string' && payload.sub.length > 0 && payload.sub.length <= 255 ? payload.sub : null
    if (subject === null && studioId === undefined) throw refused()
    const email = typeof payload.email === 'string' && payload.email.length <= 254 ? payload.email : null
    return { issuer, subject, email, studioId: studioId ?? null }
  }
}

/** A verifier for deployments whose provider names the studio in every token (JWT_STUDIO_CLAIM):
 * a token without the claim is refused. */
export function createJwtVerifier(parameters: CreateJwtVerifierParameters, now: () => number = Date.now): JwtVerifier {
  const verifyIdentity = createIdentityVerifier(parameters, now)
  return async function verifyJwt(token) {
    const { studioId } = await verifyIdentity(token)
    if (studioId === null) throw refused()
    return studioId
  }
}
