import { exportJWK, generateKeyPair, type JWK } from 'jose'

let key: Promise<JWK> | undefined

/**
 * One RSA signing key per test worker for the identity providers its files start
 * (startIdentityProvider's signingKey): generating one cost 0.1-0.5 s of CPU a provider. Each start
 * still publishes it under a key id of its own, at an issuer of its own.
 */
export function workerSigningKey(): Promise<JWK> {
  key ??= generateKeyPair('RS256', { extractable: true }).then(({ privateKey }) => exportJWK(privateKey))
  return key
}
