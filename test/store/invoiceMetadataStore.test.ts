import { randomBytes } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import { hashMetadata } from '../../shared/metadataHash'
import type { Database } from '../../server/store/database'
import { invoiceKeyParams } from '../../server/store/invoiceKey'
import {
  createInvoiceMetadataStore,
  MetadataConflictError,
  MetaHashMismatchError,
  type InvoiceMetadataStore,
} from '../../server/store/invoiceMetadataStore'
import { createMetadataCipher, DecryptionError } from '../../server/store/metadataCipher'
import { backends, useDatabases } from '../support/postgres'
import { randomInvoiceKey, sampleMetadata } from './fixtures'

const databases = useDatabases()
const cipher = createMetadataCipher(randomBytes(32).toString('base64'))
const keyColumns = 'chain_id = $1 AND registry = $2 AND invoice_id = $3'

describe.each(backends)('%s', (backend) => {
  let db: Database
  let store: InvoiceMetadataStore
  beforeAll(async () => {
    db = await databases.open(backend)
    store = createInvoiceMetadataStore(db, cipher)
  })

  test('default: returns the metadata it stored', async () => {
    const key = randomInvoiceKey()
    const metadata = sampleMetadata({ notes: 'Phase 2 starts on receipt of payment.', deliverables: ['wireframes'] })
    await store.putMetadata(key, metadata, hashMetadata(metadata))
    const read = await store.getMetadata(key)
    expect(read).toEqual(metadata)
    expect(hashMetadata(read!)).toBe(hashMetadata(metadata))
  })

  test('behavior: none stored is null', async () => {
    expect(await store.getMetadata(randomInvoiceKey())).toBeNull()
  })

  test('behavior: the database holds only ciphertext, never the plaintext', async () => {
    const key = randomInvoiceKey()
    const metadata = sampleMetadata({ lineItems: [{ description: 'Confidential line item 7f3a', quantity: 2, unitPrice: '10.00', amount: '20.00' }] })
    await store.putMetadata(key, metadata, hashMetadata(metadata))
    const [row] = await db.query<{ text: string; ciphertext: Uint8Array; meta_hash: string }>(
      `SELECT m::text AS text, ciphertext, meta_hash FROM invoice_metadata m WHERE ${keyColumns}`,
      invoiceKeyParams(key),
    )
    for (const secret of ['Confidential line item 7f3a', 'Acme Robotics', 'NW-0042', 'lineItems']) {
      expect(row!.text).not.toContain(secret)
      expect(Buffer.from(row!.ciphertext).includes(secret)).toBe(false)
    }
    expect(row!.meta_hash).toBe(hashMetadata(metadata))
  })

  test('behavior: a ciphertext moved onto another invoice does not open there', async () => {
    const [from, to] = [randomInvoiceKey(), randomInvoiceKey()]
    await store.putMetadata(from, sampleMetadata({ invoiceNumber: 'A-1' }), hashMetadata(sampleMetadata({ invoiceNumber: 'A-1' })))
    await store.putMetadata(to, sampleMetadata({ invoiceNumber: 'B-1' }), hashMetadata(sampleMetadata({ invoiceNumber: 'B-1' })))
    await db.query(
      `UPDATE invoice_metadata SET (ciphertext, iv) = (SELECT ciphertext, iv FROM invoice_metadata WHERE ${keyColumns})
       WHERE chain_id = $4 AND registry = $5 AND invoice_id = $6`,
      [...invoiceKeyParams(from), ...invoiceKeyParams(to)],
    )
    await expect(store.getMetadata(to)).rejects.toBeInstanceOf(DecryptionError)
    expect(await store.getMetadata(from)).toMatchObject({ invoiceNumber: 'A-1' })
  })

  test('behavior: a tampered ciphertext is refused with a typed error', async () => {
    const key = randomInvoiceKey()
    await store.putMetadata(key, sampleMetadata(), hashMetadata(sampleMetadata()))
    // Flips one bit of the third byte.
    await db.query(`UPDATE invoice_metadata SET ciphertext = set_byte(ciphertext, 2, get_byte(ciphertext, 2) # 1) WHERE ${keyColumns}`, invoiceKeyParams(key))
    await expect(store.getMetadata(key)).rejects.toMatchObject({ code: 'DECRYPTION_FAILED' })
  })

  test('behavior: metadata that does not hash to the metaHash is refused', async () => {
    const key = randomInvoiceKey()
    const metadata = sampleMetadata()
    await expect(store.putMetadata(key, metadata, hashMetadata(sampleMetadata({ amount: '1.00' })))).rejects.toBeInstanceOf(MetaHashMismatchError)
    expect(await store.getMetadata(key)).toBeNull()
  })

  test('behavior: storing the same metadata again is a no-op; different metadata is a conflict', async () => {
    const key = randomInvoiceKey()
    const metadata = sampleMetadata()
    await store.putMetadata(key, metadata, hashMetadata(metadata))
    await store.putMetadata(key, metadata, hashMetadata(metadata).toUpperCase().replace('0X', '0x') as `0x${string}`)
    const other = sampleMetadata({ notes: 'changed' })
    await expect(store.putMetadata(key, other, hashMetadata(other))).rejects.toBeInstanceOf(MetadataConflictError)
    expect(await store.getMetadata(key)).toEqual(metadata)
  })
})
