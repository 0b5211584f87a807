import { randomBytes } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { createMetadataCipher, DecryptionError, EncryptionKeyError, EncryptionKeyMissingError, type EncryptionKeys } from '../../server/store/metadataCipher'

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

describe('createMetadataCipher with key ids', () => {
  const legacyKey = key
  const key1 = randomBytes(32).toString('base64')
  const key2 = randomBytes(32).toString('base64')
  const keys = (entries: [number, string][], activeKeyId: number): EncryptionKeys => ({ keys: new Map(entries), activeKeyId })

  test('behavior: the single key of before is key id 0: its records carry no header and read unchanged', () => {
    const before = cipher.seal(plaintext, context)
    expect(cipher.keyIdOf(before)).toBe(0)
    expect(createMetadataCipher(keys([[0, legacyKey]], 0)).seal(plaintext, context).ciphertext).toHaveLength(plaintext.length + 16)
    const rotated = createMetadataCipher(keys([[0, legacyKey], [1, key1]], 1))
    expect(Buffer.from(rotated.open(before, context)).toString()).toBe(plaintext.toString())
  })

  test('behavior: a record names its key id in a header, and a keyring with both keys reads old and new', () => {
    const one = createMetadataCipher(keys([[1, key1]], 1))
    const sealed = one.seal(plaintext, context)
    expect(Buffer.from(sealed.ciphertext.subarray(0, 6)).toString('hex')).toBe('73766b010001')
    expect(sealed.ciphertext).toHaveLength(6 + plaintext.length + 16)
    expect(one.keyIdOf(sealed)).toBe(1)
    const both = createMetadataCipher(keys([[1, key1], [2, key2]], 2))
    const newer = both.seal(plaintext, context)
    expect(both.keyIdOf(newer)).toBe(2)
    for (const record of [sealed, newer]) expect(Buffer.from(both.open(record, context)).toString()).toBe(plaintext.toString())
  })

  test('behavior: a record under a key id the configuration lacks says which, and what to do', () => {
    const sealed = createMetadataCipher(keys([[1, key1]], 1)).seal(plaintext, context)
    const withoutIt = createMetadataCipher(keys([[2, key2]], 2))
    expect(() => withoutIt.open(sealed, context)).toThrow(EncryptionKeyMissingError)
    expect(() => withoutIt.open(sealed, context)).toThrow('rows sealed with key id 1, which METADATA_ENCRYPTION_KEYS lacks: add it back until rotation finishes')
    expect(() => withoutIt.open(cipher.seal(plaintext, context), context)).toThrow(
      'rows sealed with key id 0, the legacy METADATA_ENCRYPTION_KEY, which this configuration lacks: set it again until rotation finishes',
    )
  })

  test('behavior: each purpose has a key of its own: a metadata record does not open as an API-key secret', () => {
    const keyring = keys([[1, key1]], 1)
    const sealed = createMetadataCipher(keyring, 'metadata').seal(plaintext, context)
    for (const purpose of ['api-key-secret', 'share-token'] as const) {
      expect(() => createMetadataCipher(keyring, purpose).open(sealed, context)).toThrow(DecryptionError)
    }
    expect(Buffer.from(createMetadataCipher(keyring, 'metadata').open(sealed, context)).toString()).toBe(plaintext.toString())
  })

  test('behavior: the header is authenticated: a record relabelled with another configured key id does not open', () => {
    const both = createMetadataCipher(keys([[1, key1], [2, key2]], 1))
    const sealed = both.seal(plaintext, context)
    const relabelled = { ...sealed, ciphertext: Buffer.from(sealed.ciphertext) }
    relabelled.ciphertext[5] = 2
    expect(() => both.open(relabelled, context)).toThrow(DecryptionError)
  })

  test('parameters: the active key id must be configured', () => {
    expect(() => createMetadataCipher(keys([[1, key1]], 2))).toThrow(EncryptionKeyError)
  })
})
