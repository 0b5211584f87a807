import { execFileSync } from 'node:child_process'

/** SPEC 5.2 signatures and body hashes computed by the openssl CLI, not by any code of ours. */
export function opensslSignature(hexKey: string, message: string): string {
  return execFileSync('sh', ['-c', 'openssl dgst -sha256 -mac HMAC -macopt "hexkey:$HMAC_KEY" -binary | openssl base64 -A'], {
    input: message,
    env: { ...process.env, HMAC_KEY: hexKey },
  }).toString()
}

export function opensslBodyHash(body: string): string {
  return execFileSync('sh', ['-c', 'openssl dgst -sha256 -binary | openssl base64 -A'], { input: body }).toString()
}
