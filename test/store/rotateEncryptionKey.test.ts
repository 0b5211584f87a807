import { randomBytes } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import { bytesToHex, getAddress } from 'viem'
import { hashMetadata } from '../../shared/metadataHash'
import { createAccessTokenStore } from '../../server/store/accessTokenStore'
import { createApiKeyStore } from '../../server/store/apiKeyStore'
import type { Database } from '../../server/store/database'
import { createInvoiceMetadataStore } from '../../server/store/invoiceMetadataStore'
import { createSealingCiphers, EncryptionKeyMissingError, type EncryptionKeys } from '../../server/store/metadataCipher'
import { checkSealingKeys } from '../../server/store/checkSealingKeys'
import { countSealedRows, rotateEncryptionKey } from '../../server/store/rotateEncryptionKey'
import { createStudioStore } from '../../server/store/studioStore'
import { createWebhookEndpointStore } from '../../server/store/webhookEndpointStore'
import { backends, useDatabases } from '../support/postgres'
import { randomInvoiceKey, sampleMetadata } from './fixtures'

const databases = useDatabases()
const legacyKey = randomBytes(32).toString('base64')
const key1 = randomBytes(32).toString('base64')
const key2 = randomBytes(32).toString('base64')
const keyring = (entries: [number, string][], activeKeyId: number): EncryptionKeys => ({ keys: new Map(entries), activeKeyId })

/** The stores a server with these keys runs. */
function server(db: Database, keys: string | EncryptionKeys) {
  const ciphers = createSealingCiphers(keys)
  return {
    ciphers,
    metadata: createInvoiceMetadataStore(db, ciphers.metadata),
    apiKeys: createApiKeyStore(db, ciphers['api-key-secret']),
    tokens: createAccessTokenStore(db, ciphers['share-token']),
    webhooks: createWebhookEndpointStore(db, ciphers['webhook-secret']),
  }
}

type Server = ReturnType<typeof server>
type Written = {
  invoice: ReturnType<typeof randomInvoiceKey>
  metadata: ReturnType<typeof sampleMetadata>
  keyId: string
  secret: string
  token: string
  endpointId: string
  webhookSecret: string
}

/** One record of each kind: an invoice's metadata, an API key's secret, a default share token, a webhook secret. */
async function writeRecords(db: Database, on: Server, count: number): Promise<Written[]> {
  const studio = await createStudioStore(db).createStudio({ name: 'Northwind', vaultAddress: getAddress(bytesToHex(randomBytes(20))), chainId: 31337 })
  const written: Written[] = []
  for (let i = 0; i < count; i++) {
    const invoice = randomInvoiceKey()
    const metadata = sampleMetadata({ invoiceNumber: `NW-${i}`, merchant: { name: '株式会社さくら' } })
    await on.metadata.putMetadata(invoice, metadata, hashMetadata(metadata))
    const { keyId, secret } = await on.apiKeys.createApiKey({ studioId: studio.id, name: `key ${i}`, scopes: ['invoice:read'] })
    const { token } = await on.tokens.createToken({ invoice, isDefault: true })
    const { endpoint, secret: webhookSecret } = await on.webhooks.createEndpoint({ studioId: studio.id, url: `https://hooks.example/${i}`, events: ['invoice.paid'] })
    written.push({ invoice, metadata, keyId, secret, token, endpointId: endpoint.id, webhookSecret })
  }
  return written
}

/** Reads every record back through `on`, as a server answering requests does. */
async function readRecords(on: Server, written: Written[]): Promise<void> {
  for (const { invoice, metadata, keyId, secret, token, endpointId, webhookSecret } of written) {
    expect(await on.metadata.getMetadata(invoice)).toEqual(metadata)
    const forVerification = await on.apiKeys.getApiKeyForVerification(keyId)
    expect(Buffer.from(forVerification!.hmacKey).toString('base64url')).toBe(secret.slice('svc_sk_'.length))
    expect((await on.tokens.getDefaultToken(invoice))?.token).toBe(token)
    expect((await on.webhooks.getTarget(endpointId))?.secrets).toEqual([webhookSecret])
  }
}

describe.each(backends)('%s', (backend) => {
  let db: Database
  beforeAll(async () => {
    db = await databases.open(backend)
  })

  test('behavior: records of the single key (id 0) read under a keyring that adds id 1; rotated, they read with id 1 alone', async () => {
    const before = await writeRecords(db, server(db, legacyKey), 3)
    const adding = server(db, keyring([[0, legacyKey], [1, key1]], 1))
    const after = await writeRecords(db, adding, 2)
    await readRecords(adding, [...before, ...after])
    // the old rows are as they were; the new ones carry key id 1
    expect(Object.fromEntries(await countSealedRows(db))).toEqual({ 0: 12, 1: 8 })

    const progress: string[] = []
    const result = await rotateEncryptionKey({ db, ciphers: adding.ciphers }, { batchSize: 2, onProgress: ({ table, read }) => progress.push(`${table} ${read}`) })
    expect(result).toEqual({
      activeKeyId: 1,
      tables: {
        invoice_metadata: { resealed: 3, changed: 0 },
        api_keys: { resealed: 3, changed: 0 },
        invoice_access_tokens: { resealed: 3, changed: 0 },
        webhook_secrets: { resealed: 3, changed: 0 },
      },
      sealedUnder: { 1: 20 },
    })
    // in batches of two: the rows under key id 1 are not even read
    expect(progress).toEqual(['invoice_metadata 2', 'invoice_metadata 3', 'api_keys 2', 'api_keys 3', 'invoice_access_tokens 2', 'invoice_access_tokens 3', 'webhook_secrets 2', 'webhook_secrets 3'])

    await readRecords(server(db, keyring([[1, key1]], 1)), [...before, ...after])
    // a server still on the single key is told plainly what it lacks
    await expect(server(db, legacyKey).metadata.getMetadata(before[0]!.invoice)).rejects.toThrow(
      'rows sealed with key id 1, which METADATA_ENCRYPTION_KEYS lacks: add it back until rotation finishes',
    )
  })

  test('behavior: a rotation to key id 2 while servers holding both keys read and write', async () => {
    const old = server(db, keyring([[1, key1]], 1))
    const written = await writeRecords(db, old, 6)
    const both = server(db, keyring([[1, key1], [2, key2]], 2))
    let reading = true
    let reads = 0
    const readers = (async () => {
      while (reading) {
        await readRecords(both, written)
        reads++
      }
    })()
    const writes = writeRecords(db, both, 3)
    const result = await rotateEncryptionKey({ db, ciphers: both.ciphers }, { batchSize: 2 })
    const newer = await writes
    reading = false
    await readers
    expect(reads).toBeGreaterThan(0)
    // these six, and the first test's five, which it left under key id 1
    expect(result.tables.invoice_metadata).toEqual({ resealed: 11, changed: 0 })
    expect(result.tables.webhook_secrets).toEqual({ resealed: 11, changed: 0 })
    expect(Object.keys(result.sealedUnder)).toEqual(['2'])
    await readRecords(server(db, keyring([[2, key2]], 2)), [...written, ...newer])
  })

  test('behavior: a row changed between its read and its rewrite is left as it now is', async () => {
    const old = server(db, keyring([[2, key2]], 2))
    const [record] = await writeRecords(db, old, 1)
    const next = server(db, keyring([[2, key2], [3, randomBytes(32).toString('base64')]], 3))
    let revoked = false
    // the token is revoked (its sealed copy erased) just before the rotation rewrites its row
    const racing: Database = {
      ...db,
      async query<T>(sql: string, params?: readonly unknown[]) {
        if (!revoked && sql.startsWith('UPDATE invoice_access_tokens')) {
          revoked = true
          const token = await old.tokens.getDefaultToken(record!.invoice)
          if (token) await old.tokens.revokeToken(record!.invoice, token.tokenId)
        }
        return db.query<T>(sql, params)
      },
    }
    const result = await rotateEncryptionKey({ db: racing, ciphers: next.ciphers })
    expect(revoked).toBe(true)
    expect(result.tables.invoice_access_tokens!.changed).toBe(1)
    expect(await next.tokens.getDefaultToken(record!.invoice)).toBeNull()
  })

  test('behavior: a rotation that lacks a key id the rows carry refuses before rewriting anything', async () => {
    const counts = await countSealedRows(db)
    const lacking = server(db, keyring([[9, randomBytes(32).toString('base64')]], 9))
    const rotation = rotateEncryptionKey({ db, ciphers: lacking.ciphers })
    await expect(rotation).rejects.toBeInstanceOf(EncryptionKeyMissingError)
    await expect(rotateEncryptionKey({ db, ciphers: lacking.ciphers })).rejects.toThrow(/^rows sealed with key id \d, which METADATA_ENCRYPTION_KEYS lacks: add it back until rotation finishes$/)
    expect(await countSealedRows(db)).toEqual(counts)
  })

  test('behavior: a server started without a key id the rows carry is told which, in the words of the fix', async () => {
    const ids = [...(await countSealedRows(db)).keys()]
    expect(await checkSealingKeys(db, ids)).toEqual([])
    expect(await checkSealingKeys(db, [9])).toEqual(
      ids.sort((a, b) => a - b).map((keyId) => `rows sealed with key id ${keyId}, which METADATA_ENCRYPTION_KEYS lacks: add it back until rotation finishes`),
    )
  })
})
