import type { Config } from '../config'
import type { MetadataAccess } from '../routes/payRoutes'
import { createAccessTokenStore } from './accessTokenStore'
import { openDatabase } from './database'
import { createInvoiceMetadataStore } from './invoiceMetadataStore'
import { createMetadataCipher } from './metadataCipher'
import { migrate } from './migrations'
import { createPaymentStore } from './paymentStore'

/** The server's database and the stores over it, migrated and ready. */
export async function openStores(config: Config) {
  const db = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATABASE_URL ? undefined : config.DATA_DIR })
  await migrate(db)
  const cipher = createMetadataCipher(config.METADATA_ENCRYPTION_KEY)
  const metadata = createInvoiceMetadataStore(db, cipher)
  const tokens = createAccessTokenStore(db)
  const invoiceKey = (invoiceId: bigint) => ({ chainId: config.CHAIN_ID, registry: config.REGISTRY_ADDRESS, invoiceId })
  const metadataAccess: MetadataAccess = {
    async open(invoiceId, token) {
      const key = invoiceKey(invoiceId)
      return (await tokens.findValidToken(key, token)) ? metadata.getMetadata(key) : null
    },
  }
  return { db, metadata, tokens, payments: createPaymentStore(db), metadataAccess, invoiceKey, close: () => db.close() }
}

export type Stores = Awaited<ReturnType<typeof openStores>>
