import { fromBase64Url, toBase64 } from './base64'
import { hmacMessage } from '../../shared/hmacMessage'
import { InvalidSecretError } from './merchantErrors'

export type SignRequestParameters = {
  /** The public key id, `svc_pk_…`. */
  keyId: string
  /** The secret shown once at creation, `svc_sk_…`. */
  secret: string
  method: string
  /** The path from /v1 exactly as it will be sent, without the query. */
  path: string
  /** The query exactly as it will be sent, without the `?`. */
  query?: string | undefined
  /** The exact bytes that will be sent; a string is sent as UTF-8. */
  body?: Uint8Array | string | undefined
  /** Unix milliseconds; now by default. */
  timestamp?: number | undefined
  /** Fresh for every request; a random UUID by default. */
  nonce?: string | undefined
}

/** The four headers of SPEC 5.2. */
export type SignedHeaders = {
  'x-svc-key': string
  'x-svc-ts': string
  'x-svc-nonce': string
  authorization: string
}

const secretPrefix = 'svc_sk_'

/** SPEC 5.2 step 1: the HMAC key is the decoded bytes, not the printable secret. */
function hmacKeyBytes(secret: string): Uint8Array<ArrayBuffer> {
  const bytes = secret.startsWith(secretPrefix) ? fromBase64Url(secret.slice(secretPrefix.length)) : null
  if (!bytes || bytes.length !== 32) throw new InvalidSecretError('the secret must be svc_sk_ followed by 32 bytes in base64url, as shown at key creation')
  return bytes
}

/** Signs one request with WebCrypto, so it runs in Node 20+ and in browsers alike. Send the headers
 * with exactly the path, query and body given here; a retry needs a new signature. */
export async function signRequest({
  keyId,
  secret,
  method,
  path,
  query = '',
  body = new Uint8Array(),
  timestamp = Date.now(),
  nonce = crypto.randomUUID(),
}: SignRequestParameters): Promise<SignedHeaders> {
  const key = await crypto.subtle.importKey('raw', hmacKeyBytes(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  // copied: WebCrypto takes only views of a plain ArrayBuffer, and the caller's may be shared
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : new Uint8Array(body)
  const bodyHash = toBase64(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)))
  const ts = String(timestamp)
  const message = hmacMessage({ method, path, query, bodyHash, timestamp: ts, nonce })
  const signature = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(message))
  return {
    'x-svc-key': keyId,
    'x-svc-ts': ts,
    'x-svc-nonce': nonce,
    authorization: `SVC-HMAC ${toBase64(new Uint8Array(signature))}`,
  }
}
