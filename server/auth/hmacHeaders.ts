import type { Context } from 'hono'
import * as z from 'zod/mini'
import { HmacHeadersError } from './authErrors'

export type HmacHeaders = { keyId: string; timestamp: string; nonce: string; signature: Buffer }

// The signature is standard base64 of 32 bytes, padded (SPEC 5.2 step 4: not base64url).
const headersSchema = z.object({
  'x-svc-key': z.string().check(z.regex(/^svc_pk_[A-Za-z0-9_-]{1,100}$/, 'the full svc_pk_ key id')),
  'x-svc-ts': z.string().check(z.regex(/^\d{13}$/, 'a 13-digit Unix-millisecond timestamp')),
  'x-svc-nonce': z.string().check(z.regex(/^[\x21-\x7e]{8,128}$/, 'a fresh nonce of 8 to 128 visible characters, e.g. a UUID')),
  authorization: z.string().check(z.regex(/^SVC-HMAC [A-Za-z0-9+/]{43}=$/, '"SVC-HMAC " and the standard base64 of the 32-byte signature')),
})

/** The four headers of SPEC 5.2, checked for shape only; a malformed set is a 400 that names what is wrong. */
export function hmacHeaders(c: Context): HmacHeaders {
  const result = headersSchema.safeParse({
    'x-svc-key': c.req.header('x-svc-key'),
    'x-svc-ts': c.req.header('x-svc-ts'),
    'x-svc-nonce': c.req.header('x-svc-nonce'),
    authorization: c.req.header('authorization'),
  })
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.code === 'invalid_type' ? 'missing' : issue.message}`)
    throw new HmacHeadersError(`malformed HMAC headers (${problems.join('; ')})`)
  }
  const headers = result.data
  return {
    keyId: headers['x-svc-key'],
    timestamp: headers['x-svc-ts'],
    nonce: headers['x-svc-nonce'],
    signature: Buffer.from(headers.authorization.slice('SVC-HMAC '.length), 'base64'),
  }
}
