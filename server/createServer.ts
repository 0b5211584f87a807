import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { ServerType } from '@hono/node-server'
import { Hono } from 'hono'
import { createWalletClient, getAddress, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { readPinnedDeployment } from '../build/readPinnedDeployment'
import { builtDeploymentFile, distDir as defaultDistDir } from '../build/distDir'
import type { Deployment } from '../shared/deployment'
import { createApp } from './app'
import { createJwtVerifier } from './auth/jwtVerifier'
import { startNoncePruning } from './auth/startNoncePruning'
import { localBundler, rpcBundler, type Bundler } from './chain/bundler'
import { chainFor, createChainClient } from './chain/chainClient'
import { createInvoiceReader } from './chain/invoiceReader'
import { erc7677Sponsor, localVerifyingSponsor, type Sponsor } from './chain/sponsor'
import { timedTransport, type CallTimer } from './chain/timedTransport'
import { connectionLimitsOf, encryptionKeysOf, jwtAlgorithmsOf, trustedProxiesOf, type Config } from './config'
import type { ConnectionLimits } from './http/connectionLimits'
import { listenOn } from './http/listenOn'
import type { Logger } from './http/logger'
import { countedBundler, countedSponsor } from './ops/countedDependencies'
import { createMetrics } from './ops/metrics'
import { advisoryChecks, checkReadiness, serverChecks } from './ops/readiness'
import { connectRedis } from './ops/connectRedis'
import { memoryRateCounter } from './http/rateLimit'
import { sharedRateCounter } from './http/sharedRateCounter'
import { closeHttpServer } from './ops/shutdown'
import { operationsRoutes } from './routes/operations'
import { startPreparedPruning } from './payments/preparedPruning'
import { createSponsorshipLimiter } from './payments/sponsorshipLimiter'
import { createPaymasterService, type ServedEntryPoint } from './payments/paymasterService'
import type { PayDependencies } from './payments/payDependencies'
import { registeredMerchantOf } from './payments/registeredMerchant'
import { startReconciler } from './payments/reconcileSubmissions'
import type { DevnetWalletKey } from '../shared/devnetWalletKey'
import { checkSealingKeys } from './store/checkSealingKeys'
import type { Database } from './store/database'
import { openMigratedDatabase, openStores, type Stores } from './store/openStores'
import { defaultWebhookSchedule, startWebhookDelivery, type WebhookSchedule } from './webhooks/deliverWebhooks'
import { startRegistryFollower } from './webhooks/followRegistry'
import { startWebhookPruning } from './webhooks/startWebhookPruning'
import type { HostLookup } from './webhooks/verifyWebhookUrl'

/** The origins of the RPCs the built page reads the chain through (its pinned deployment's): the
 * page's CSP must let it reach them, and nothing else of the chain. */
function pinnedRpcOrigins(dir: string): string[] {
  const path = join(dir, builtDeploymentFile)
  if (!existsSync(path)) return []
  const { rpcUrls } = readPinnedDeployment(path)
  return rpcUrls.map((url) => new URL(url).origin)
}

export type RunningServer = {
  url: string
  /** PUBLIC_URL, else `url`: where share links point. */
  publicUrl: string
  port: number
  /** The OPS_PORT listener's URL (GET /readyz and /metrics), when there is one. */
  opsUrl?: string
  stores: Stores
  close(): Promise<void>
}

/** Checksummed once here: every comparison and every recorded operation then agrees on the spelling. */
export function deploymentOf(config: Config): Deployment {
  return {
    chainId: config.CHAIN_ID,
    entryPoint: getAddress(config.ENTRY_POINT_ADDRESS),
    token: getAddress(config.TOKEN_ADDRESS),
    registry: getAddress(config.REGISTRY_ADDRESS),
    vaultFactory: getAddress(config.VAULT_FACTORY_ADDRESS),
    paymaster: getAddress(config.PAYMASTER_ADDRESS),
    ...(config.ENTRY_POINT_V06_ADDRESS && config.PAYMASTER_V06_ADDRESS
      ? { entryPointV06: getAddress(config.ENTRY_POINT_V06_ADDRESS), paymasterV06: getAddress(config.PAYMASTER_V06_ADDRESS) }
      : {}),
    ...(config.MERCHANT_VAULT_FACTORY_ADDRESS ? { merchantVaultFactory: getAddress(config.MERCHANT_VAULT_FACTORY_ADDRESS) } : {}),
    ...(config.SESSION_VALIDATOR_ADDRESS ? { sessionValidator: getAddress(config.SESSION_VALIDATOR_ADDRESS) } : {}),
  }
}

/** The EntryPoints our ERC-7677 service signs for: v0.7 (the vault flow's), and v0.6 where configured. */
function servedEntryPoints(deployment: Deployment): ServedEntryPoint[] {
  const { entryPointV06, paymasterV06 } = deployment
  return [
    { version: '0.7', entryPoint: deployment.entryPoint, paymaster: deployment.paymaster },
    ...(entryPointV06 && paymasterV06 ? [{ version: '0.6' as const, entryPoint: entryPointV06, paymaster: paymasterV06 }] : []),
  ]
}

/** Long enough for a database or node across a network, short enough for a platform's probe. */
const readinessTimeoutMs = 2_000

function bundlerFor(config: Config, context: { client: PayDependencies['client']; deployment: Deployment; timeRpc: CallTimer }): Bundler {
  if (config.BUNDLER_URL) return rpcBundler({ url: config.BUNDLER_URL, deployment: context.deployment, queueLimit: config.UPSTREAM_QUEUE_LIMIT })
  const wallet = createWalletClient({
    chain: chainFor(config.CHAIN_ID, config.RPC_URL),
    transport: timedTransport(http(config.RPC_URL, { retryCount: 0, timeout: 10_000 }), context.timeRpc),
    account: privateKeyToAccount(config.BUNDLER_PRIVATE_KEY!),
  })
  return localBundler({ ...context, wallet, fromBlock: config.REGISTRY_FROM_BLOCK, queueLimit: config.UPSTREAM_QUEUE_LIMIT })
}

function jwtVerifierFor(config: Config, now: () => number) {
  const { JWT_JWKS_URL: jwksUrl, JWT_ISSUER: issuer, JWT_AUDIENCE: audience } = config
  const settings = { studioClaim: config.JWT_STUDIO_CLAIM, algorithms: jwtAlgorithmsOf(config), clockToleranceSeconds: config.JWT_CLOCK_TOLERANCE_SECONDS }
  return jwksUrl && issuer && audience ? createJwtVerifier({ jwksUrl, issuer, audience, ...settings }, now) : null
}

function sponsorFor(config: Config, context: { client: PayDependencies['client']; deployment: Deployment; now: () => number }): Sponsor {
  const { deployment } = context
  if (config.PAYMASTER_URL) return erc7677Sponsor({ ...context, url: config.PAYMASTER_URL, queueLimit: config.UPSTREAM_QUEUE_LIMIT })
  return localVerifyingSponsor({ deployment, signer: privateKeyToAccount(config.PAYMASTER_SIGNER_PRIVATE_KEY!) })
}

/** The platform's listener (OPS_PORT): readiness and metrics for the probes and the scraper, on an
 * address the public never reaches (127.0.0.1 unless OPS_HOST says otherwise). */
async function listenForOperations(hostname: string, port: number, routes: Hono, limits: ConnectionLimits): Promise<{ server: ServerType; url: string }> {
  const app = new Hono()
  app.route('/', routes)
  app.notFound((c) => c.json({ error: 'NOT_FOUND', code: 'NOT_FOUND', message: 'no such route' }, 404))
  const server = await listenOn({ fetch: app.fetch, hostname, port, variable: 'OPS_PORT', hostVariable: 'OPS_HOST', limits })
  const address = server.address()
  const bound = typeof address === 'object' && address ? address.port : port
  return { server, url: `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${bound}` }
}

/** What createServer is given besides its configuration. `now` is injectable for expiry tests;
 * `payPageDir` is the built page (default SVC_DIST_DIR or dist/); `webhookSchedule` shortens the
 * webhooks' retry schedule for tests (the configuration's interval, timeout and lease win over it);
 * `webhookLookup` resolves webhook hosts instead of the system's resolver. */
export type CreateServerDependencies = {
  logger: Logger
  now?: () => number
  db?: Database
  devnetWallet?: DevnetWalletKey
  payPageDir?: string
  webhookSchedule?: Partial<WebhookSchedule>
  webhookLookup?: HostLookup
}

/** Opens the database (unless given one already open), wires the chain parts and listens. */
export async function createServer(
  config: Config,
  {
    logger,
    now = Date.now,
    db,
    devnetWallet,
    payPageDir = defaultDistDir(),
    webhookSchedule,
    webhookLookup,
  }: CreateServerDependencies,
): Promise<RunningServer> {
  const deployment = deploymentOf(config)
  const metrics = createMetrics()
  const timeRpc: CallTimer = (method) => {
    const end = metrics.rpcDuration.startTimer({ method })
    return (outcome) => end({ outcome })
  }
  const client = createChainClient(config.CHAIN_ID, config.RPC_URL, timeRpc)
  const stores = openStores(config, db ?? (await openMigratedDatabase(config)))
  // said at start, not first at a payer's request; in the background: it reads every sealed table
  checkSealingKeys(stores.db, [...encryptionKeysOf(config).keys.keys()]).then(
    (problems) => problems.forEach((problem) => logger.error({ code: 'ENCRYPTION_KEY_MISSING' }, problem)),
    // a database that fails here fails the readiness probe too, which says so
    () => {},
  )
  const bundler = bundlerFor(config, { client, deployment, timeRpc })
  const sponsorships = createSponsorshipLimiter(stores.db, {
    perInvoice: config.SPONSORSHIP_LIMIT_PER_INVOICE,
    perOwner: config.SPONSORSHIP_LIMIT_PER_OWNER,
    perClient: config.SPONSORSHIP_LIMIT_PER_CLIENT,
  })
  const registeredMerchant = registeredMerchantOf(stores.studios, deployment.chainId)
  const pay: PayDependencies = {
    client,
    deployment,
    invoices: createInvoiceReader({ client, deployment, fromBlock: config.REGISTRY_FROM_BLOCK }),
    sponsor: countedSponsor(sponsorFor(config, { client, deployment, now }), metrics.sponsorshipErrors),
    bundler: countedBundler(bundler, metrics.bundlerErrors),
    payments: stores.payments,
    now,
    submitWaitMs: config.SUBMIT_WAIT_MS,
    receiptPollMs: 100,
    sponsorshipWindowSeconds: config.SPONSORSHIP_WINDOW_SECONDS,
    sponsorships,
    registeredMerchant,
  }
  const paymaster = createPaymasterService({
    client,
    deployment,
    // with PAYMASTER_URL the deployment's paymaster is another service's: our signature would not verify there
    signer: !config.PAYMASTER_URL && config.PAYMASTER_SIGNER_PRIVATE_KEY ? privateKeyToAccount(config.PAYMASTER_SIGNER_PRIVATE_KEY) : null,
    entryPoints: servedEntryPoints(deployment),
    sponsorships,
    registeredMerchant,
    sponsorshipWindowSeconds: config.SPONSORSHIP_WINDOW_SECONDS,
    now,
  })
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL) : null
  const checks = serverChecks({ db: stores.db, rpcUrl: config.RPC_URL, chainId: config.CHAIN_ID, bundler, redis, timeoutMs: readinessTimeoutMs })
  const skewMs = config.HMAC_SKEW_SECONDS * 1000
  // Known once listening: port 0 picks a free port.
  let publicUrl = config.PUBLIC_URL ?? ''
  const app = createApp({
    pay,
    metadata: stores.metadataAccess,
    merchant: {
      auth: { apiKeys: stores.apiKeys, nonces: stores.nonces, studios: stores.studios, jwt: jwtVerifierFor(config, now), skewMs, now },
      share: {
        invoices: pay.invoices,
        chainId: config.CHAIN_ID,
        tokens: stores.tokens,
        metadata: stores.metadata,
        invoiceKey: stores.invoiceKey,
        publicUrl: () => publicUrl,
        now,
      },
      webhooks: { endpoints: stores.webhookEndpoints, allowPrivateUrls: config.WEBHOOK_ALLOW_PRIVATE_URLS, ...(webhookLookup ? { lookup: webhookLookup } : {}) },
      branding: { store: stores.branding, invoices: pay.invoices, chainId: config.CHAIN_ID },
    },
    logger,
    metrics,
    readiness: () => checkReadiness(checks, readinessTimeoutMs, advisoryChecks),
    rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
    ...(config.PERMIT_RATE_LIMIT_PER_MINUTE ? { permitRateLimitPerMinute: config.PERMIT_RATE_LIMIT_PER_MINUTE } : {}),
    ...(config.PREPARE_RATE_LIMIT_PER_MINUTE ? { prepareRateLimitPerMinute: config.PREPARE_RATE_LIMIT_PER_MINUTE } : {}),
    ...(config.PAYMASTER_RATE_LIMIT_PER_MINUTE ? { paymasterRateLimitPerMinute: config.PAYMASTER_RATE_LIMIT_PER_MINUTE } : {}),
    ...(redis
      ? {
          sharedRateCounter: (name: string, window: { limit: number; windowMs: number }) =>
            sharedRateCounter({
              redis,
              ...window,
              prefix: `svc_checkout:rate:${name}`,
              fallback: memoryRateCounter(window),
              logger,
              onStoreError: () => metrics.rateLimitStoreErrors.inc(),
            }),
        }
      : {}),
    paymaster,
    trustProxy: config.TRUST_PROXY,
    trustedProxies: trustedProxiesOf(config),
    operationsElsewhere: config.OPS_PORT !== undefined,
    embedDir: join(payPageDir, 'embed'),
    payPage: {
      publicOrigin: () => new URL(publicUrl).origin,
      distDir: payPageDir,
      frameAncestors: config.ALLOWED_FRAME_ANCESTORS,
      // the page reads the chain through its pinned RPCs; the devnet wallet signs against the devnet's node
      connectSources: [
        ...new Set([
          ...pinnedRpcOrigins(payPageDir),
          ...(devnetWallet ? [new URL(devnetWallet.rpcUrl).origin] : []),
          ...config.PAY_PAGE_CONNECT_SRC.split(/\s+/).filter(Boolean),
        ]),
      ],
    },
    ...(devnetWallet ? { devnetWallet } : {}),
  })
  const limits = connectionLimitsOf(config)
  const server = await listenOn({ fetch: app.fetch, hostname: config.HOST, port: config.PORT, variable: 'PORT', hostVariable: 'HOST', limits })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : config.PORT
  const url = `http://${config.HOST}:${port}`
  publicUrl ||= url
  const ops = config.OPS_PORT === undefined ? null : await listenForOperations(config.OPS_HOST, config.OPS_PORT, operationsRoutes({ readiness: () => checkReadiness(checks, readinessTimeoutMs, advisoryChecks), registry: metrics.registry }), limits)
  // every instance prunes; the stores let them share the work without stepping on each other
  const stopPruning = startNoncePruning(stores.nonces, { everyMs: 60_000, now, logger })
  const stopPreparedPruning = startPreparedPruning(
    { prunePrepared: (before, limit) => stores.payments.prunePrepared(before, limit), pruneSponsorships: sponsorships.prune },
    { everyMs: 60_000, now, logger },
  )
  const reconciler =
    config.RECONCILE_INTERVAL_MS > 0
      ? startReconciler(pay, {
          claims: stores.reconcileClaims,
          metrics,
          logger,
          options: {
            intervalMs: config.RECONCILE_INTERVAL_MS,
            leaseMs: config.RECONCILE_LEASE_MS,
            submittedForMs: config.SUBMIT_WAIT_MS,
            fromBlock: config.REGISTRY_FROM_BLOCK,
          },
        })
      : null
  const stopWebhookPruning = startWebhookPruning(stores.webhookOutbox, { everyMs: 3_600_000, now, logger })
  // every instance reads the registry and sends; the cursor, the events' unique key and the leases share the work
  const webhooks =
    config.WEBHOOK_INTERVAL_MS > 0
      ? [
          startRegistryFollower(
            { client, deployment, outbox: stores.webhookOutbox, logger, metrics },
            { fromBlock: config.REGISTRY_FROM_BLOCK, confirmations: config.WEBHOOK_CONFIRMATIONS, intervalMs: config.WEBHOOK_INTERVAL_MS },
          ),
          startWebhookDelivery({
            outbox: stores.webhookOutbox,
            endpoints: stores.webhookEndpoints,
            allowPrivateUrls: config.WEBHOOK_ALLOW_PRIVATE_URLS,
            ...(webhookLookup ? { lookup: webhookLookup } : {}),
            logger,
            metrics,
            now,
            schedule: {
              ...defaultWebhookSchedule,
              ...webhookSchedule,
              intervalMs: config.WEBHOOK_INTERVAL_MS,
              timeoutMs: config.WEBHOOK_TIMEOUT_MS,
              leaseMs: config.WEBHOOK_LEASE_MS,
            },
          }),
        ]
      : []
  return {
    url,
    publicUrl,
    port,
    ...(ops ? { opsUrl: ops.url } : {}),
    stores,
    /** Stops the reconciler (after its pass under way) first, then taking connections, answers the
     * requests in flight, then closes the database. */
    async close() {
      await reconciler?.stop()
      await Promise.all(webhooks.map((loop) => loop.stop()))
      // a pruning pass under way ends before the database closes under it
      await Promise.all([stopPruning(), stopPreparedPruning(), stopWebhookPruning()])
      await Promise.all([closeHttpServer(server), ...(ops ? [closeHttpServer(ops.server)] : [])])
      redis?.disconnect()
      await stores.close()
    },
  }
}
