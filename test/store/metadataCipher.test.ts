import { randomBytes } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { createMetadataCipher, DecryptionError, EncryptionKeyError } from '../../server/store/metadataCipher'

const key = randomBytes(32).toString('base64')
const cipher = createMetadataCipher(key)
const plaintext = Buffer.from('{"lineItems":[{"description":"Front-end build"}]}')
const context = 'svc-checkout/invoice-metadata/v1/31337:0xabc:7'

describe('createMetadataCipher', () => {
  test('default: opens what it sealed', () => {
    const sealed = cipher.seal(plaintext, context)
    expect(sealed.iv).toHaveLength(12)
    expect(sealed.ciphertext).toHaveLength(plaintext.length + 16)
    expect(Buffer.from(cipher.open(sealed, context)).toString()).toBe(plaintext.toString())
  })

  test('behavior: a fresh IV per record, so equal plaintexts do not look equal', () => {
    const a = cipher.seal(plaintext, context)
    const b = cipher.seal(plaintext, context)
    expect(Buffer.from(a.iv).equals(Buffer.from(b.iv))).toBe(false)
    expect(Buffer.from(a.ciphertext).equals(Buffer.from(b.ciphertext))).toBe(false)
  })

  test('behavior: another context (another invoice) does not open it', () => {
    const sealed = cipher.seal(plaintext, context)
    expect(() => cipher.open(sealed, 'svc-checkout/invoice-metadata/v1/31337:0xabc:8')).toThrow(DecryptionError)
  })

  test('behavior: any flipped bit, in the body, the tag or the IV, is refused', () => {
    const sealed = cipher.seal(plaintext, context)
    for (const [field, index] of [['ciphertext', 0], ['ciphertext', sealed.ciphertext.length - 1], ['iv', 5]] as const) {
      const copy = { ciphertext: Buffer.from(sealed.ciphertext), iv: Buffer.from(sealed.iv) }
      copy[field][index]! ^= 1
      expect(() => cipher.open(copy, context)).toThrow(DecryptionError)
    }
    expect(() => cipher.open({ ...sealed, ciphertext: sealed.ciphertext.subarray(0, 10) }, context)).toThrow(DecryptionError)
  })

  test('behavior: another key does not open it', () => {
    const sealed = cipher.seal(plaintext, context)
    const other = createMetadataCipher(randomBytes(32).toString('base64'))
    expect(() => other.open(sealed, context)).toThrowError(expect.objectContaining({ code: 'DECRYPTION_FAILED' }))
  })

  test('parameters: the key must be exactly 32 bytes of standard base64, and is never echoed', () => {
    const short = randomBytes(16).toString('base64')
    const notBase64 = `${key.slice(0, -2)}!=`
    for (const bad of [short, notBase64, '', randomBytes(32).toString('base64url')]) {
      let error: unknown
      try {
        createMetadataCipher(bad)
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(EncryptionKeyError)
      expect((error as EncryptionKeyError).code).toBe('ENCRYPTION_KEY_INVALID')
      if (bad) expect((error as Error).message).not.toContain(bad)
    }
    expect(() => createMetadataCipher(`${key}\n`)).not.toThrow()
  })
})
