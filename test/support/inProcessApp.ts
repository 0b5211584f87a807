import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll } from 'vitest'
import { createApp, type AppDependencies } from '../../server/app'
import type { TrustedProxies } from '../../server/http/clientAddress'
import { silentLogger } from '../../server/http/logger'
import { createMetrics } from '../../server/ops/metrics'
import type { Database } from '../../server/store/database'
import { openStores } from '../../server/store/openStores'
import { useDatabases } from './postgres'

/** Thrown by any use of the chain: the tests on this app assert what is answered before a route
 * reaches it (validation, authentication, methods, limits), so reaching it is a failure. */
class ChainNotAvailableError extends Error {
  override name = 'ChainNotAvailableError'
}

const randomAddress = () => privateKeyToAddress(`0x${randomBytes(32).toString('hex')}`)

function noChain<T>(what: string): T {
  return new Proxy({}, {
    get(_, property) {
      throw new ChainNotAvailableError(`this in-process app has no chain: the test reached ${what}.${String(property)}`)
    },
  }) as T
}

/**
 * The server's app, in this process, without a chain: the real stores on a new database of the
 * worker's PostgreSQL, as production runs them, and a merchant API key in them, requests answered
 * through `app.request()`. For what is decided before a route reads the chain; anything that would
 * read it fails the test. The database is a copy of the worker's migrated template (postgres.ts): a
 * PGlite in memory cost about 0.8 s of CPU to open and migrate, and the store tests prove PGlite.
 */
export type InProcessAppParameters = {
  rateLimitPerMinute?: number
  trustedProxies?: TrustedProxies
  /** Where the limits are counted (a test's Redis); absent, in the app's memory. */
  sharedRateCounter?: AppDependencies['sharedRateCounter']
  /** The database, when the file's apps share one (useInProcessDatabase); absent, the app's own. */
  database?: () => Promise<Database>
  /** More of the merchant side, over the app's stores (an identity provider's verifier, the lead
   * form's mailer): what a test needs beyond the API key and customers. */
  merchant?: (stores: ReturnType<typeof openStores>) => Promise<Partial<AppDependencies['merchant']>>
}

/**
 * One database for several in-process apps of a file, opened for the first of them and closed after
 * the file: a file whose apps differ only in their limits or proxies needs it once. Each app still
 * makes its own studio and API key in it.
 */
export function useInProcessDatabase(): () => Promise<Database> {
  const databases = useDatabases()
  let db: Promise<Database> | undefined
  return () => (db ??= databases.open('postgres'))
}

export function useInProcessApp({ rateLimitPerMinute = 100_000, trustedProxies, sharedRateCounter, merchant, database }: InProcessAppParameters = {}) {
  // first, so that its afterAll closes and drops the database after the app's below
  const databases = useDatabases()
  const context = {} as {
    app: ReturnType<typeof createApp>
    /** A merchant's API key with every invoice scope. */
    apiKey: { keyId: string; secret: string }
    /** The key's studio, for a test that needs another key of it. */
    studioId: string
    /** The app's stores, for a test that needs a second studio or key. */
    stores: ReturnType<typeof openStores>
    /** `fetch` against the app, for helpers that take one. */
    fetch: (url: string, init?: RequestInit) => Promise<Response>
    close(): Promise<void>
  }
  beforeAll(async () => {
    const db = database ? await database() : await databases.open('postgres')
    // a page folder with nothing built in it, removed with the app
    const unbuilt = mkdtempSync(join(tmpdir(), 'svc-unbuilt-'))
    const config = { CHAIN_ID: 31337, REGISTRY_ADDRESS: randomAddress(), METADATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') }
    const stores = openStores(config, db)
    const studio = await stores.studios.createStudio({ name: 'In-process Studio', vaultAddress: randomAddress(), chainId: 31337 })
    const key = await stores.apiKeys.createApiKey({ studioId: studio.id, name: 'in-process', scopes: ['invoice:read', 'invoice:write'] })
    context.apiKey = { keyId: key.keyId, secret: key.secret }
    context.studioId = studio.id
    context.stores = stores
    const more = merchant ? await merchant(stores) : {}
    context.app = createApp({
      pay: noChain('the pay routes'),
      metadata: stores.metadataAccess,
      merchant: {
        share: noChain('the share routes'),
        branding: { store: stores.branding, invoices: noChain('the branding route'), chainId: 31337 },
        customers: stores.customers,
        ...more,
        auth: { apiKeys: stores.apiKeys, nonces: stores.nonces, studios: stores.studios, jwt: null, skewMs: 300_000, now: Date.now, ...more.auth },
      },
      logger: silentLogger,
      metrics: createMetrics(),
      readiness: async () => ({}) as never,
      rateLimitPerMinute,
      trustProxy: false,
      ...(trustedProxies ? { trustedProxies } : {}),
      ...(sharedRateCounter ? { sharedRateCounter } : {}),
      payPage: { distDir: unbuilt, frameAncestors: "'self'", connectSources: [], publicOrigin: () => 'https://pay.example' },
    })
    context.fetch = async (url, init) => context.app.request(url, init)
    context.close = async () => {
      // the database is closed after the file (useDatabases)
      rmSync(unbuilt, { recursive: true, force: true })
    }
  })
  afterAll(async () => {
    await context.close?.()
  })
  return context
}
