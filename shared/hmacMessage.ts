/** The parts of a request that SPEC 5.2 signs, as they are transmitted. */
export type HmacMessageParts = {
  method: string
  /** The full path from /v1, without origin or query. */
  path: string
  /** The query string as transmitted, without the `?`; empty when there is none. */
  query: string
  /** Standard base64 of the SHA-256 of the exact body bytes. */
  bodyHash: string
  /** Unix milliseconds, 13 digits, as sent in x-svc-ts. */
  timestamp: string
  nonce: string
}

/** SPEC 5.2 step 3. The one piece of the wire format that the client and the server's verifier share:
 * the crypto around it is each side's own, so a mistake in one is caught by the other. */
export function hmacMessage({ method, path, query, bodyHash, timestamp, nonce }: HmacMessageParts): string {
  return [method.toUpperCase(), path, query, bodyHash, timestamp, nonce].join('\n')
}
