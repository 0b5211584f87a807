import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto'
import { StoreError } from './storeError'

/** AES-256-GCM output: the 16-byte tag travels at the end of `ciphertext`. */
export type SealedRecord = { ciphertext: Uint8Array; iv: Uint8Array }

export type MetadataCipher = {
  /** `context` is authenticated, not stored: opening with any other context fails. Callers name the
   * record in it (which invoice, which API key), so a ciphertext cannot be moved to another one. */
  seal(plaintext: Uint8Array, context: string): SealedRecord
  open(sealed: SealedRecord, context: string): Uint8Array
}

export class EncryptionKeyError extends StoreError {
  override name = 'EncryptionKeyError'
  readonly code = 'ENCRYPTION_KEY_INVALID'
}

export class DecryptionError extends StoreError {
  override name = 'DecryptionError'
  readonly code = 'DECRYPTION_FAILED'
}

const keyBytes = 32
const ivBytes = 12
const tagBytes = 16

/** `base64Key`: 32 random bytes in standard base64, as METADATA_ENCRYPTION_KEY holds them. */
export function createMetadataCipher(base64Key: string): MetadataCipher {
  const key = decodeKey(base64Key)
  return {
    seal(plaintext, context) {
      // A fresh random IV per record: GCM loses both secrecy and integrity if a key ever reuses one.
      const iv = randomBytes(ivBytes)
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: tagBytes }).setAAD(Buffer.from(context))
      const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()])
      return { ciphertext, iv }
    },
    open({ ciphertext, iv }, context) {
      if (iv.length !== ivBytes || ciphertext.length < tagBytes) throw new DecryptionError('the sealed record is malformed')
      const body = ciphertext.subarray(0, ciphertext.length - tagBytes)
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: tagBytes })
        .setAAD(Buffer.from(context))
        .setAuthTag(ciphertext.subarray(ciphertext.length - tagBytes))
      try {
        return Buffer.concat([decipher.update(body), decipher.final()])
      } catch {
        throw new DecryptionError('the record does not authenticate: tampered, moved from another record, or sealed under another key')
      }
    },
  }
}

function decodeKey(base64Key: string): KeyObject {
  const text = base64Key.trim()
  const bytes = Buffer.from(text, 'base64')
  // Buffer.from skips characters outside the alphabet: only an exact round trip proves the text was the key.
  if (bytes.length !== keyBytes || bytes.toString('base64') !== text) {
    throw new EncryptionKeyError(`the encryption key must be ${keyBytes} bytes in standard base64: generate one with \`openssl rand -base64 32\``)
  }
  return createSecretKey(bytes)
}
