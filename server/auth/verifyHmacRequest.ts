import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Context } from 'hono'
import { hmacMessage } from '../../shared/hmacMessage'
import type { ApiKeyForVerification, ApiKeyStore } from '../store/apiKeyStore'
import type { NonceStore } from '../store/nonceStore'
import { AuthenticationError, ForbiddenError } from './authErrors'
import type { HmacHeaders } from './hmacHeaders'
import { requestTarget } from './requestTarget'

export type VerifyHmacRequestDependencies = {
  apiKeys: Pick<ApiKeyStore, 'getApiKeyForVerification'>
  nonces: Pick<NonceStore, 'claimNonce'>
  /** How far x-svc-ts may lie from the server's clock, either way (SPEC 8: 5 minutes by default). */
  skewMs: number
  now: () => number
}

/** Signs for keys that do not exist, so an unknown key id costs the same work as a known one. */
const standInKey = randomBytes(32)

/** Unknown, revoked and expired keys and bad signatures answer alike: an answer must never tell
 * whether a key id exists. */
const invalidCredentials = () =>
  new AuthenticationError('UNAUTHORIZED', 'the signature does not verify with an active API key: check the key id and secret, and that the key is neither revoked nor expired')

/**
 * SPEC 5.2: the key's HMAC over the six-line message must equal the presented signature, compared in
 * constant time. Only then is the nonce claimed, atomically in the database, so a forged request
 * cannot burn a nonce and two instances can never both accept one. It is kept for twice the skew
 * window: past that, the timestamp check alone refuses the replay.
 */
export async function verifyHmacRequest(c: Context, headers: HmacHeaders, { apiKeys, nonces, skewMs, now }: VerifyHmacRequestDependencies): Promise<ApiKeyForVerification> {
  const at = now()
  if (Math.abs(at - Number(headers.timestamp)) > skewMs) {
    throw new AuthenticationError(
      'CLOCK_SKEW',
      `x-svc-ts is more than ${skewMs / 1000} s from the server's clock (${new Date(at).toISOString()}): sign with the current time`,
    )
  }
  const key = await apiKeys.getApiKeyForVerification(headers.keyId)
  const body = Buffer.from(await c.req.arrayBuffer())
  const message = hmacMessage({
    method: c.req.method,
    ...requestTarget(c),
    bodyHash: createHash('sha256').update(body).digest('base64'),
    timestamp: headers.timestamp,
    nonce: headers.nonce,
  })
  const expected = createHmac('sha256', key?.hmacKey ?? standInKey).update(message).digest()
  const signatureMatches = timingSafeEqual(expected, headers.signature)
  const usable = key !== null && key.status === 'active' && (key.expiresAt === null || key.expiresAt.getTime() > at)
  if (!signatureMatches || !usable) throw invalidCredentials()
  // the owner disabled the agent holding this key (SPEC 3.2, 7.2): the key is genuine, so the answer
  // may say why; enabling the agent again lets it back in
  if (key.agentStatus === 'disabled') throw new ForbiddenError("this API key belongs to a disabled agent: the studio's owner can enable the agent again")
  if (!(await nonces.claimNonce(key.keyId, headers.nonce, new Date(at + 2 * skewMs)))) {
    throw new AuthenticationError('NONCE_REUSED', 'this nonce was already used with this key: sign every request, retries too, with a fresh nonce')
  }
  return key
}
