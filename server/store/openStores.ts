import { encryptionKeysOf, type Config } from '../config'
import type { InvoiceMetadata } from '../../shared/metadata'
import { createAccessTokenStore } from './accessTokenStore'
import { createApiKeyStore } from './apiKeyStore'
import { createBrandingStore } from './brandingStore'
import { createEmailDeliveryStore } from '../merchant/email/emailDeliveryStore'
import { createCancelAttemptStore } from '../merchant/cancel/cancelAttemptStore'
import { createWithdrawalAddressStore } from '../merchant/withdrawals/withdrawalAddressStore'
import { createWithdrawalStore } from '../merchant/withdrawals/withdrawalStore'
import { createRefundSubmissionStore } from '../merchant/refunds/refundSubmissionStore'
import { createCustomerStore } from '../merchant/customers/customerStore'
import { createBusinessProfileStore } from '../merchant/profile/businessProfileStore'
import { createIssuedInvoiceStore } from '../merchant/invoices/issuedInvoiceStore'
import { createIdempotencyStore } from '../merchant/idempotency/idempotencyStore'
import { openDatabase, type Database } from './database'
import { createInvoiceMetadataStore } from './invoiceMetadataStore'
import { createInvoiceIndex } from '../merchant/invoices/invoiceIndex'
import { createMetadataAccess } from './metadataAccess'
import { createSealingCiphers } from './metadataCipher'
import { migrate } from './migrations'
import { createNonceStore } from './nonceStore'
import { createPaymentStore } from './paymentStore'
import { createReconcileClaims } from './reconcileClaims'
import { createStudioStore } from './studioStore'
import { createUserStore } from '../merchant/accounts/userStore'
import { createApiKeyAuditLog } from '../merchant/accounts/apiKeyAuditLog'
import { createAgentStore } from '../merchant/agents/agentStore'
import { createLeadStore } from '../merchant/leads/leadStore'
import { createWebhookEndpointStore } from './webhookEndpointStore'
import { createWebhookOutbox } from './webhookOutbox'

/** Opens an invoice's metadata with an access token; null for a missing, wrong, expired or revoked one alike. */
export type MetadataAccess = { open(invoiceId: bigint, token: string): Promise<InvoiceMetadata | null> }

/** PostgreSQL with DATABASE_URL, else embedded PGlite in DATA_DIR, with every migration applied.
 * Opening PGlite takes seconds (WebAssembly start and initdb), so callers start it early. */
export async function openMigratedDatabase(config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>): Promise<Database> {
  const db = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATABASE_URL ? undefined : config.DATA_DIR })
  await migrate(db)
  return db
}

/** The stores over the server's database. Metadata, API-key secrets, share tokens and webhook secrets are each
 * sealed under a key of their own, derived from the configured keys (metadataCipher.ts). */
export function openStores(
  config: Pick<Config, 'CHAIN_ID' | 'REGISTRY_ADDRESS' | 'METADATA_ENCRYPTION_KEY'> &
    Partial<Pick<Config, 'METADATA_ENCRYPTION_KEYS' | 'METADATA_ENCRYPTION_ACTIVE_KEY' | 'IDEMPOTENCY_LEASE_MS'>>,
  db: Database,
) {
  const ciphers = createSealingCiphers(encryptionKeysOf(config))
  const metadata = createInvoiceMetadataStore(db, ciphers.metadata)
  const tokens = createAccessTokenStore(db, ciphers['share-token'])
  const invoiceKey = (invoiceId: bigint) => ({ chainId: config.CHAIN_ID, registry: config.REGISTRY_ADDRESS, invoiceId })
  const metadataAccess = createMetadataAccess({ db, tokens, metadata, invoiceKey })
  return {
    db,
    metadata,
    tokens,
    payments: createPaymentStore(db),
    reconcileClaims: createReconcileClaims(db),
    metadataAccess,
    invoiceKey,
    studios: createStudioStore(db),
    apiKeys: createApiKeyStore(db, ciphers['api-key-secret']),
    nonces: createNonceStore(db),
    users: createUserStore(db),
    apiKeyAudit: createApiKeyAuditLog(db),
    agents: createAgentStore(db),
    leads: createLeadStore(db),
    webhookEndpoints: createWebhookEndpointStore(db, ciphers['webhook-secret']),
    webhookOutbox: createWebhookOutbox(db, { chainId: config.CHAIN_ID, registry: config.REGISTRY_ADDRESS }),
    branding: createBrandingStore(db),
    invoiceIndex: createInvoiceIndex(db, { chainId: config.CHAIN_ID, registry: config.REGISTRY_ADDRESS }),
    emailDeliveries: createEmailDeliveryStore(db),
    cancelAttempts: createCancelAttemptStore(db),
    withdrawalAddresses: createWithdrawalAddressStore(db),
    withdrawals: createWithdrawalStore(db),
    refundSubmissions: createRefundSubmissionStore(db),
    customers: createCustomerStore(db),
    businessProfiles: createBusinessProfileStore(db),
    issuedInvoices: createIssuedInvoiceStore(db, ciphers.metadata),
    idempotency: createIdempotencyStore(db, config.IDEMPOTENCY_LEASE_MS === undefined ? {} : { leaseMs: config.IDEMPOTENCY_LEASE_MS }),
    close: () => db.close(),
  }
}

export type Stores = ReturnType<typeof openStores>
