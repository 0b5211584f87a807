import { describe, expect, test } from 'vitest'
import { hmacMessage } from '../../shared/hmacMessage'
import { InvalidSecretError } from '../../cli/merchant/merchantErrors'
import { signRequest } from '../../cli/merchant/signRequest'
import { opensslBodyHash, opensslSignature } from '../support/openssl'

const hexKey = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f'
// SPEC 5.2 step 1: the secret is the key's base64url after svc_sk_.
const secret = 'svc_sk_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8'
const keyId = 'svc_pk_testvectors'
const timestamp = 1767225600000
const nonce = '5f0c2a4e-8d7b-4f0e-9a51-3c2d1b0a9e8f'

const vectors = [
  {
    name: 'a GET without query or body',
    method: 'GET',
    path: '/v1/invoices/42/share',
    query: '',
    body: '',
    message: `GET\n/v1/invoices/42/share\n\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n${timestamp}\n${nonce}`,
  },
  {
    name: 'a POST with an unsorted query and a UTF-8 body',
    method: 'post',
    path: '/v1/invoices/42/tokens',
    query: 'z=1&a=%20b&a=2',
    body: '{"label":"Büro – Q4","expiresAt":"2027-01-01T00:00:00Z"}',
    message: `POST\n/v1/invoices/42/tokens\nz=1&a=%20b&a=2\n${opensslBodyHash('{"label":"Büro – Q4","expiresAt":"2027-01-01T00:00:00Z"}')}\n${timestamp}\n${nonce}`,
  },
  {
    name: 'a DELETE whose body is empty',
    method: 'DELETE',
    path: '/v1/invoices/7/tokens/0b6f1f9e-8a1d-4d39-9d0c-6c1f3f0f2a11',
    query: '',
    body: '',
    message: `DELETE\n/v1/invoices/7/tokens/0b6f1f9e-8a1d-4d39-9d0c-6c1f3f0f2a11\n\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n${timestamp}\n${nonce}`,
  },
]

describe('signRequest', () => {
  test.each(vectors)('default: $name signs to what openssl computes', async ({ method, path, query, body, message }) => {
    const headers = await signRequest({ keyId, secret, method, path, query, body, timestamp, nonce })
    expect(headers).toEqual({
      'x-svc-key': keyId,
      'x-svc-ts': String(timestamp),
      'x-svc-nonce': nonce,
      authorization: `SVC-HMAC ${opensslSignature(hexKey, message)}`,
    })
  })

  test('behavior: the body hash is over the exact bytes, as openssl hashes them', () => {
    expect(opensslBodyHash('')).toBe('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=')
    for (const { method, path, query, body, message } of vectors) {
      expect(hmacMessage({ method, path, query, bodyHash: opensslBodyHash(body), timestamp: String(timestamp), nonce })).toBe(message)
    }
  })

  test('behavior: a body given as bytes signs like the same string', async () => {
    const vector = vectors[1]!
    const fromBytes = await signRequest({ keyId, secret, ...vector, body: new TextEncoder().encode(vector.body), timestamp, nonce })
    expect(fromBytes.authorization).toBe(`SVC-HMAC ${opensslSignature(hexKey, vector.message)}`)
  })

  test('behavior: defaults are a current timestamp and a fresh nonce', async () => {
    const before = Date.now()
    const [first, second] = await Promise.all([1, 2].map(() => signRequest({ keyId, secret, method: 'GET', path: '/v1/invoices/1/share' })))
    expect(Number(first!['x-svc-ts'])).toBeGreaterThanOrEqual(before)
    expect(first!['x-svc-ts']).toMatch(/^\d{13}$/)
    expect(first!['x-svc-nonce']).not.toBe(second!['x-svc-nonce'])
  })

  test.each([
    ['no prefix', 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8'],
    ['31 bytes', 'svc_sk_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHg'],
    ['standard base64', 'svc_sk_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh+/'],
    ['the public key id', keyId],
  ])('parameters: a secret with %s is refused', async (_, bad) => {
    await expect(signRequest({ keyId, secret: bad, method: 'GET', path: '/v1/x' })).rejects.toBeInstanceOf(InvalidSecretError)
    await expect(signRequest({ keyId, secret: bad, method: 'GET', path: '/v1/x' })).rejects.toMatchObject({ code: 'SECRET_INVALID' })
  })
})
