import { randomBytes } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import { hashMetadata } from '../../shared/metadataHash'
import { createAccessTokenStore, type AccessTokenStore } from '../../server/store/accessTokenStore'
import type { Database } from '../../server/store/database'
import { createInvoiceMetadataStore, type InvoiceMetadataStore } from '../../server/store/invoiceMetadataStore'
import { invoiceKeyParams, type InvoiceKey } from '../../server/store/invoiceKey'
import { createMetadataAccess, type MetadataAccessDependencies } from '../../server/store/metadataAccess'
import { createMetadataCipher } from '../../server/store/metadataCipher'
import { backends, useDatabases } from '../support/postgres'
import { randomInvoiceKey, sampleMetadata } from './fixtures'

const databases = useDatabases()
const cipher = createMetadataCipher(randomBytes(32).toString('base64'))

describe.each(backends)('%s', (backend) => {
  let db: Database
  let tokens: AccessTokenStore
  let metadata: InvoiceMetadataStore
  beforeAll(async () => {
    db = await databases.open(backend)
    tokens = createAccessTokenStore(db, cipher)
    metadata = createInvoiceMetadataStore(db, cipher)
  })

  /** An access over the real stores that counts what it asks of them. */
  async function counted(options: Partial<MetadataAccessDependencies> = {}) {
    const asked = { tokens: 0, metadata: 0 }
    const keys = new Map<bigint, InvoiceKey>()
    const access = createMetadataAccess({
      db,
      tokens: { findValidToken: (...args) => (asked.tokens++, tokens.findValidToken(...args)) },
      metadata: { getMetadata: (...args) => (asked.metadata++, metadata.getMetadata(...args)) },
      invoiceKey: (id) => keys.get(id)!,
      ...options,
    })
    const fromMemory = await access.listening
    const invoice = async (expiresAt?: Date) => {
      const key = randomInvoiceKey()
      keys.set(key.invoiceId, key)
      const stored = sampleMetadata({ invoiceNumber: `NW-${key.invoiceId}` })
      await metadata.putMetadata(key, stored, hashMetadata(stored))
      const { token, tokenId } = await tokens.createToken({ invoice: key, isDefault: true, expiresAt })
      return { key, token, tokenId, stored }
    }
    return { access, asked, fromMemory, invoice }
  }

  test('default: a valid token opens the metadata, any other token nothing', async () => {
    const { access, invoice } = await counted()
    const { key, token, stored } = await invoice()
    expect(await access.open(key.invoiceId, token)).toEqual(stored)
    expect(await access.open(key.invoiceId, `svc_tk_${'A'.repeat(43)}`)).toBeNull()
    const other = await invoice()
    // a valid token of another invoice opens nothing here, even once it opened its own
    expect(await access.open(other.key.invoiceId, other.token)).toEqual(other.stored)
    expect(await access.open(key.invoiceId, other.token)).toBeNull()
  })

  test('behavior: a record is decrypted once; the token is checked every time unless the database reports every change', async () => {
    const { access, asked, fromMemory, invoice } = await counted()
    expect(fromMemory).toBe(backend === 'pglite')
    const { key, token, stored } = await invoice()
    for (let i = 0; i < 3; i++) expect(await access.open(key.invoiceId, token)).toEqual(stored)
    expect(asked).toEqual({ tokens: backend === 'pglite' ? 1 : 3, metadata: 1 })
  })

  test('behavior: a revoked token opens nothing at once, whether the store revoked it or any other statement ended it', async () => {
    const { access, invoice } = await counted()
    const first = await invoice()
    expect(await access.open(first.key.invoiceId, first.token)).toEqual(first.stored)
    expect(await tokens.revokeToken(first.key, first.tokenId)).toBe(true)
    expect(await access.open(first.key.invoiceId, first.token)).toBeNull()

    // as the devnet's tools do, through the same database but not through this process's stores
    const second = await invoice()
    expect(await access.open(second.key.invoiceId, second.token)).toEqual(second.stored)
    const ended = "UPDATE invoice_access_tokens SET expires_at = now() - interval '1 second' WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3"
    await db.query(ended, invoiceKeyParams(second.key))
    expect(await access.open(second.key.invoiceId, second.token)).toBeNull()
  })

  test('behavior: a regenerated share link replaces the old one at once', async () => {
    const { access, invoice } = await counted()
    const { key, token, stored } = await invoice()
    expect(await access.open(key.invoiceId, token)).toEqual(stored)
    const regenerated = await tokens.regenerateDefault(key)
    expect(await access.open(key.invoiceId, token)).toBeNull()
    expect(await access.open(key.invoiceId, regenerated.token)).toEqual(stored)
  })

  test('behavior: an expiring token opens nothing from the moment it expires', async () => {
    const { access, invoice } = await counted()
    const { key, token, stored } = await invoice(new Date(Date.now() + 700))
    expect(await access.open(key.invoiceId, token)).toEqual(stored)
    await new Promise((resolve) => setTimeout(resolve, 800))
    expect(await access.open(key.invoiceId, token)).toBeNull()
  })

  test('behavior: a record is kept for the TTL only, and for the most recent tokens only', async () => {
    let clock = Date.now()
    const { access, asked, invoice } = await counted({ ttlMs: 1_000, maxEntries: 2, now: () => clock })
    const [a, b, c] = [await invoice(), await invoice(), await invoice()]
    for (const { key, token } of [a, b, c]) await access.open(key.invoiceId, token)
    expect(asked.metadata).toBe(3)
    await access.open(c.key.invoiceId, c.token)
    await access.open(a.key.invoiceId, a.token)
    expect(asked.metadata).toBe(4)
    clock += 1_000
    await access.open(a.key.invoiceId, a.token)
    expect(asked.metadata).toBe(5)
  })
})

describe('a lookup under way when a change is heard', () => {
  test('behavior: answers what it found, but does not keep it', async () => {
    let heard: (invoice: string) => void = () => {}
    const key = randomInvoiceKey()
    const stored = sampleMetadata()
    let checks = 0
    const access = createMetadataAccess({
      db: { listen: async (_channel, listener) => ((heard = listener), async () => {}) },
      tokens: {
        async findValidToken(invoice) {
          checks++
          // revoked while this lookup was on its way
          if (checks === 1) heard(`${invoice.chainId}:${invoice.registry.toLowerCase()}:${invoice.invoiceId}`)
          return { tokenId: 'x', invoice, hint: '…AAAA', label: null, isDefault: true, createdAt: new Date(), expiresAt: null, revokedAt: null }
        },
      },
      metadata: { getMetadata: async () => stored },
      invoiceKey: () => key,
    })
    expect(await access.listening).toBe(true)
    const token = `svc_tk_${'B'.repeat(43)}`
    expect(await access.open(key.invoiceId, token)).toEqual(stored)
    await access.open(key.invoiceId, token)
    expect(checks).toBe(2)
  })
})
