import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto'
import { StoreError } from './storeError'

/** AES-256-GCM output: the 16-byte tag travels at the end of `ciphertext`, after the key-id header
 * (below) when the key is not the legacy one. */
export type SealedRecord = { ciphertext: Uint8Array; iv: Uint8Array }

/** What a key seals: each gets a key of its own, derived from the configured key with HKDF, so a
 * ciphertext of one kind does not open as another even under the same configured key. */
export type EncryptionPurpose = 'metadata' | 'api-key-secret' | 'share-token' | 'webhook-secret'

/**
 * The configured keys by id (base64 of 32 bytes each) and the one new records are sealed under.
 * Id 0 is METADATA_ENCRYPTION_KEY, the single key of before: its records carry no header and are
 * sealed under the key itself (no derivation), exactly as they always were, so they read unchanged
 * and a server of before still reads what id 0 seals.
 */
export type EncryptionKeys = { keys: ReadonlyMap<number, string>; activeKeyId: number }

export type MetadataCipher = {
  /** `context` is authenticated, not stored: opening with any other context fails. Callers name the
   * record in it (which invoice, which API key), so a ciphertext cannot be moved to another one. */
  seal(plaintext: Uint8Array, context: string): SealedRecord
  open(sealed: SealedRecord, context: string): Uint8Array
  /** The id of the key a record was sealed under (0 for the legacy key). */
  keyIdOf(sealed: Pick<SealedRecord, 'ciphertext'>): number
  /** The id new records are sealed under. */
  readonly activeKeyId: number
  /** The header every record sealed under the active key begins with; null for the legacy key. */
  readonly activeHeader: Uint8Array | null
  /** Every key id this cipher opens. */
  readonly keyIds: readonly number[]
}

export class EncryptionKeyError extends StoreError {
  override name = 'EncryptionKeyError'
  readonly code = 'ENCRYPTION_KEY_INVALID'
}

export class DecryptionError extends StoreError {
  override name = 'DecryptionError'
  readonly code = 'DECRYPTION_FAILED'
}

/** A record is sealed under a key id the configuration lacks: a key was removed before rotation
 * finished, or an instance runs without a key the others already seal with. */
export class EncryptionKeyMissingError extends StoreError {
  override name = 'EncryptionKeyMissingError'
  readonly code = 'ENCRYPTION_KEY_MISSING'
}

const keyBytes = 32
const ivBytes = 12
const tagBytes = 16
/** "svk", format 1, then the key id as two bytes: 1 to 65535. */
const magic = [0x73, 0x76, 0x6b, 0x01] as const
const headerBytes = magic.length + 2
export const maxKeyId = 0xffff

const labels: { [purpose in EncryptionPurpose]: string } = {
  metadata: 'svc-checkout metadata v1',
  'api-key-secret': 'svc-checkout api-key-secret v1',
  'share-token': 'svc-checkout share-token v1',
  'webhook-secret': 'svc-checkout webhook-secret v1',
}

/** The header of records sealed under `keyId` (never 0: the legacy key's records have none). */
export function keyIdHeader(keyId: number): Uint8Array {
  return Uint8Array.from([...magic, keyId >> 8, keyId & 0xff])
}

function headerKeyId(ciphertext: Uint8Array): number | null {
  if (ciphertext.length < headerBytes + tagBytes || magic.some((byte, i) => ciphertext[i] !== byte)) return null
  const keyId = (ciphertext[4]! << 8) | ciphertext[5]!
  return keyId === 0 ? null : keyId
}

/** What an operator reads when records need a key this configuration lacks. */
export function missingKeyMessage(keyId: number): string {
  return keyId === 0
    ? 'rows sealed with key id 0, the legacy METADATA_ENCRYPTION_KEY, which this configuration lacks: set it again until rotation finishes'
    : `rows sealed with key id ${keyId}, which METADATA_ENCRYPTION_KEYS lacks: add it back until rotation finishes`
}

/**
 * Seals and opens records of one purpose under the configured keys. `keys` as a string is the single
 * legacy key (id 0), as METADATA_ENCRYPTION_KEY holds it. Every key stays able to open what it
 * sealed for as long as it is configured: that is what lets a rotation re-seal records while the
 * servers read both.
 */
export function createMetadataCipher(keys: string | EncryptionKeys, purpose: EncryptionPurpose = 'metadata'): MetadataCipher {
  const { keys: configured, activeKeyId } = typeof keys === 'string' ? { keys: new Map([[0, keys]]), activeKeyId: 0 } : keys
  const derived = new Map<number, KeyObject>()
  for (const [keyId, base64Key] of configured) {
    if (!Number.isInteger(keyId) || keyId < 0 || keyId > maxKeyId) throw new EncryptionKeyError(`key ids are whole numbers from 1 to ${maxKeyId} (0 is METADATA_ENCRYPTION_KEY)`)
    const key = decodeKey(base64Key)
    // the legacy key seals as it always did; the others through HKDF-SHA256, one key per purpose
    derived.set(keyId, keyId === 0 ? createSecretKey(key) : createSecretKey(Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), labels[purpose], keyBytes))))
  }
  const activeKey = derived.get(activeKeyId)
  if (!activeKey) throw new EncryptionKeyError(`the active key id ${activeKeyId} is not among the configured keys`)
  const activeHeader = activeKeyId === 0 ? null : keyIdHeader(activeKeyId)

  const openWith = (key: KeyObject, header: Uint8Array | null, ciphertext: Uint8Array, iv: Uint8Array, context: string): Uint8Array | null => {
    const body = ciphertext.subarray(header?.length ?? 0, ciphertext.length - tagBytes)
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: tagBytes })
      .setAAD(header ? Buffer.concat([header, Buffer.from(context)]) : Buffer.from(context))
      .setAuthTag(ciphertext.subarray(ciphertext.length - tagBytes))
    try {
      return Buffer.concat([decipher.update(body), decipher.final()])
    } catch {
      return null
    }
  }

  return {
    activeKeyId,
    activeHeader,
    keyIds: [...derived.keys()].sort((a, b) => a - b),
    seal(plaintext, context) {
      // A fresh random IV per record: GCM loses both secrecy and integrity if a key ever reuses one.
      const iv = randomBytes(ivBytes)
      // the header is authenticated with the context: a record cannot be relabelled with another key id
      const aad = activeHeader ? Buffer.concat([activeHeader, Buffer.from(context)]) : Buffer.from(context)
      const cipher = createCipheriv('aes-256-gcm', activeKey, iv, { authTagLength: tagBytes }).setAAD(aad)
      const ciphertext = Buffer.concat([activeHeader ?? Buffer.alloc(0), cipher.update(plaintext), cipher.final(), cipher.getAuthTag()])
      return { ciphertext, iv }
    },
    open({ ciphertext, iv }, context) {
      if (iv.length !== ivBytes || ciphertext.length < tagBytes) throw new DecryptionError('the sealed record is malformed')
      const keyId = headerKeyId(ciphertext)
      const legacy = derived.get(0)
      if (keyId !== null) {
        const key = derived.get(keyId)
        const opened = key && openWith(key, ciphertext.subarray(0, headerBytes), ciphertext, iv, context)
        if (opened) return opened
        // one legacy record in 2^32 begins like a header by chance: it is still the legacy key's
        const asLegacy = legacy && openWith(legacy, null, ciphertext, iv, context)
        if (asLegacy) return asLegacy
        if (!key) throw new EncryptionKeyMissingError(missingKeyMessage(keyId), { details: { keyId } })
      } else {
        if (!legacy) throw new EncryptionKeyMissingError(missingKeyMessage(0), { details: { keyId: 0 } })
        const opened = openWith(legacy, null, ciphertext, iv, context)
        if (opened) return opened
      }
      throw new DecryptionError('the record does not authenticate: tampered, moved from another record, or sealed under another key')
    },
    keyIdOf({ ciphertext }) {
      return headerKeyId(ciphertext) ?? 0
    },
  }
}

/** One cipher per purpose over the same keys: what the stores are given. */
export type SealingCiphers = { [purpose in EncryptionPurpose]: MetadataCipher }

export function createSealingCiphers(keys: string | EncryptionKeys): SealingCiphers {
  return {
    metadata: createMetadataCipher(keys, 'metadata'),
    'api-key-secret': createMetadataCipher(keys, 'api-key-secret'),
    'share-token': createMetadataCipher(keys, 'share-token'),
    'webhook-secret': createMetadataCipher(keys, 'webhook-secret'),
  }
}

function decodeKey(base64Key: string): Buffer {
  const text = base64Key.trim()
  const bytes = Buffer.from(text, 'base64')
  // Buffer.from skips characters outside the alphabet: only an exact round trip proves the text was the key.
  if (bytes.length !== keyBytes || bytes.toString('base64') !== text) {
    throw new EncryptionKeyError(`the encryption key must be ${keyBytes} bytes in standard base64: generate one with \`openssl rand -base64 32\``)
  }
  return bytes
}
