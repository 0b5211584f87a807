import type { Hex } from 'viem'
import type { InvoiceMetadata } from '../../shared/metadata'
import { canonicalJson, hashMetadata } from '../../shared/metadataHash'
import type { Database } from './database'
import { invoiceKeyParams, invoiceKeyString, type InvoiceKey } from './invoiceKey'
import type { MetadataCipher } from './metadataCipher'
import { StoreError } from './storeError'

/** The metadata does not hash to the metaHash it is stored under: the invoice would commit on-chain
 * to something else than what its payer is shown. */
export class MetaHashMismatchError extends StoreError {
  override name = 'MetaHashMismatchError'
  readonly code = 'META_HASH_MISMATCH'
}

/** An invoice's metadata is fixed once stored, as its on-chain metaHash is. */
export class MetadataConflictError extends StoreError {
  override name = 'MetadataConflictError'
  readonly code = 'METADATA_CONFLICT'
}

/** The encryption context names the invoice, so a row copied onto another invoice does not open. */
export const invoiceMetadataContext = (key: InvoiceKey) => `svc-checkout/invoice-metadata/v1/${invoiceKeyString(key)}`

/** SPEC 2.5: billing metadata, stored only encrypted, one record per invoice. */
export function createInvoiceMetadataStore(db: Database, cipher: MetadataCipher) {
  return {
    /** Idempotent for the same metadata, so an issuance can be retried; anything else is a conflict. */
    async putMetadata(key: InvoiceKey, metadata: InvoiceMetadata, metaHash: Hex): Promise<void> {
      const hash = metaHash.toLowerCase()
      if (hashMetadata(metadata) !== hash) throw new MetaHashMismatchError('the metadata does not hash to the given metaHash')
      // Canonical JSON: the plaintext is exactly what was hashed.
      const { ciphertext, iv } = cipher.seal(Buffer.from(canonicalJson(metadata)), invoiceMetadataContext(key))
      const inserted = await db.query(
        `INSERT INTO invoice_metadata (chain_id, registry, invoice_id, ciphertext, iv, meta_hash)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING invoice_id`,
        [...invoiceKeyParams(key), ciphertext, iv, hash],
      )
      if (inserted.length > 0) return
      const [existing] = await db.query<{ meta_hash: string }>(
        'SELECT meta_hash FROM invoice_metadata WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3',
        invoiceKeyParams(key),
      )
      if (existing?.meta_hash !== hash) throw new MetadataConflictError('the invoice already has different metadata')
    },

    /** The decrypted metadata, or null when none is stored. A record that does not authenticate
     * throws DecryptionError: that is tampering or a wrong key, not a missing record. */
    async getMetadata(key: InvoiceKey): Promise<InvoiceMetadata | null> {
      const [row] = await db.query<{ ciphertext: Uint8Array; iv: Uint8Array }>(
        'SELECT ciphertext, iv FROM invoice_metadata WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3',
        invoiceKeyParams(key),
      )
      if (!row) return null
      const plaintext = cipher.open(row, invoiceMetadataContext(key))
      // Authenticated, so it is exactly the JSON putMetadata wrote.
      return JSON.parse(Buffer.from(plaintext).toString('utf8')) as InvoiceMetadata
    },
  }
}

export type InvoiceMetadataStore = ReturnType<typeof createInvoiceMetadataStore>
