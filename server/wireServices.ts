import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Redis } from 'ioredis'
import { createWalletClient, getAddress, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { readPinnedDeployment } from '../build/readPinnedDeployment'
import type { PinnedDeployment } from '../shared/pinnedDeployment'
import { builtDeploymentFile } from '../build/distDir'
import type { Deployment } from '../shared/deployment'
import type { DevnetWalletKey } from '../shared/devnetWalletKey'
import { createApp } from './app'
import { createIdentityVerifier } from './auth/jwtVerifier'
import { createAuthorizationServer } from './merchant/oauth/authorizationServer'
import { oauthPrincipalOf } from './merchant/oauth/oauthPrincipal'
import { signerRefusalOf } from './merchant/oauth/signerRefusal'
import { invoiceTokenOf, pinnedTokenOf } from './merchant/oauth/invoiceLimitAmount'
import { localBundler, rpcBundler, type Bundler } from './chain/bundler'
import { chainFor, createChainClient } from './chain/chainClient'
import { createInvoiceReader } from './chain/invoiceReader'
import { erc7677Sponsor, localVerifyingSponsor, type Sponsor } from './chain/sponsor'
import { timedTransport, type CallTimer } from './chain/timedTransport'
import { encryptionKeysOf, idempotencyKeyRequiredOf, jwtAlgorithmsOf, trustedProxiesOf, type Config } from './config'
import type { Logger } from './http/logger'
import { memoryRateCounter } from './http/rateLimit'
import { sharedRateCounter } from './http/sharedRateCounter'
import { connectRedis } from './ops/connectRedis'
import { countedBundler, countedSponsor } from './ops/countedDependencies'
import { createMetrics, type Metrics } from './ops/metrics'
import { advisoryChecks, checkReadiness, serverChecks, type Readiness } from './ops/readiness'
import type { PayDependencies } from './payments/payDependencies'
import { createPaymasterService, type ServedEntryPoint } from './payments/paymasterService'
import { registeredMerchantOf } from './payments/registeredMerchant'
import { createSponsorshipLimiter, type SponsorshipLimiter } from './payments/sponsorshipLimiter'
import type { Database } from './store/database'
import { openMigratedDatabase, openStores, type Stores } from './store/openStores'
import { smtpMailer } from './merchant/email/smtpMailer'
import { sessionSignerDependencies } from './merchant/signer/sessionSignerDependencies'
import type { HostLookup } from './webhooks/verifyWebhookUrl'
import { invoiceListCursors } from './merchant/invoices/invoiceListCursor'
import { tokenDetailsReader } from './merchant/invoices/tokenDetails'
import { explorerLinks, merchantReadsOf } from './merchant/studios/merchantReadsOf'
import { createVaultDeploymentStore } from './merchant/vaults/vaultDeploymentStore'
import { deploymentPendingOf } from './merchant/vaults/reconcileVaultDeployment'

/** The deployment the built pay page pins (written beside the build), or null before a build wrote
 * one: read once as the server is wired, for everything the server takes from it. */
function builtDeploymentIn(dir: string): PinnedDeployment | null {
  const path = join(dir, builtDeploymentFile)
  return existsSync(path) ? readPinnedDeployment(path) : null
}

/** The origins of the RPCs the built page reads the chain through (its pinned deployment's): the
 * page's CSP must let it reach them, and nothing else of the chain. */
function pinnedRpcOrigins(pinned: PinnedDeployment | null): string[] {
  return (pinned?.rpcUrls ?? []).map((url) => new URL(url).origin)
}

/** What the dashboard's owner wallet connects to besides this server and the provider: nothing for a
 * browser wallet, which reads for itself; with a WalletConnect project id in the build, what the pay
 * page is allowed for it (its pinned RPCs, which WalletConnect's provider reads through, and
 * PAY_PAGE_CONNECT_SRC, the relay). */
function dashboardConnectSources(pinned: PinnedDeployment | null, payPageConnectSources: string): string[] {
  if (!pinned?.walletConnectProjectId) return []
  return [...new Set([...pinnedRpcOrigins(pinned), ...payPageConnectSources.split(/\s+/).filter(Boolean)])]
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
/** A user needs one vault: each prepare hands out a sponsored deployment, so a handful a day covers a
 * wallet that declined or timed out, and no more is ours to pay for whatever the operation quota allows. */
const vaultPreparesPerDay = 5

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
  return jwksUrl && issuer && audience ? createIdentityVerifier({ jwksUrl, issuer, audience, ...settings }, now) : null
}

function sponsorFor(config: Config, context: { client: PayDependencies['client']; deployment: Deployment; now: () => number }): Sponsor {
  const { deployment } = context
  if (config.PAYMASTER_URL) return erc7677Sponsor({ ...context, url: config.PAYMASTER_URL, queueLimit: config.UPSTREAM_QUEUE_LIMIT })
  return localVerifyingSponsor({ deployment, signer: privateKeyToAccount(config.PAYMASTER_SIGNER_PRIVATE_KEY!) })
}

/** What the services are built with besides the configuration (createServer's options, less the jobs' own). */
export type WireServicesParameters = {
  logger: Logger
  now: () => number
  /** Already open and migrated; absent, the configuration's database is opened and migrated. */
  db?: Database | undefined
  devnetWallet?: DevnetWalletKey | undefined
  /** The built pay page (dist/ unless given). */
  payPageDir: string
  webhookLookup?: HostLookup | undefined
}

/** The server's parts, built and connected, with nothing scheduled: no timer runs and no port is
 * open until the background jobs (startBackgroundJobs.ts) and the listener (listenServer.ts) start. */
export type WiredServices = {
  deployment: Deployment
  metrics: Metrics
  stores: Stores
  pay: PayDependencies
  sponsorships: SponsorshipLimiter
  readiness: () => Promise<Readiness>
  /** The public app: every route, its policy and its dependencies. */
  app: ReturnType<typeof createApp>
  /** Where share links point: PUBLIC_URL, else the listener's URL, told once it is known (port 0
   * picks a free port). */
  publicUrl: { current(): string; listeningAt(url: string): void }
  /** Disconnects Redis and closes the database: after the jobs and the listener have stopped. */
  close(): Promise<void>
}

/** Opens the database (unless given one already open) and builds the stores, the chain clients, the
 * pay dependencies, the paymaster service and the app over them. Starts nothing. */
export async function wireServices(config: Config, { logger, now, db, devnetWallet, payPageDir, webhookLookup }: WireServicesParameters): Promise<WiredServices> {
  const deployment = deploymentOf(config)
  const builtDeployment = builtDeploymentIn(payPageDir)
  const metrics = createMetrics()
  const timeRpc: CallTimer = (method) => {
    const end = metrics.rpcDuration.startTimer({ method })
    return (outcome) => end({ outcome })
  }
  const client = createChainClient(config.CHAIN_ID, config.RPC_URL, timeRpc)
  const stores = openStores(config, db ?? (await openMigratedDatabase(config)))
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
  const readiness = () => checkReadiness(checks, readinessTimeoutMs, advisoryChecks)
  const skewMs = config.HMAC_SKEW_SECONDS * 1000
  // no SMTP_URL: no mail goes out, and every delivery answers not_configured
  const mailer = config.SMTP_URL ? smtpMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM }) : null
  let publicUrl = config.PUBLIC_URL ?? ''
  const sessionSigner = sessionSignerDependencies(config, { pay, db: stores.db })
  const vaultDeployments = createVaultDeploymentStore(stores.db)
  const emailDependencies = { mailer, deliveries: stores.emailDeliveries, logger }
  const identityVerifier = jwtVerifierFor(config, now)
  const oauth =
    identityVerifier && config.JWT_ISSUER && config.OAUTH_IDENTITY_CLIENT_ID
      ? {
          authorization: createAuthorizationServer({ db: stores.db, now, publicUrl: () => publicUrl, users: stores.users, studios: stores.studios, logger, cookieSecret: encryptionKeysOf(config).keys.get(encryptionKeysOf(config).activeKeyId)!, identity: { issuer: config.JWT_ISSUER, clientId: config.OAUTH_IDENTITY_CLIENT_ID, verify: identityVerifier, scope: config.IDENTITY_SCOPES }, networks: [{ chainId: config.CHAIN_ID, name: chainFor(config.CHAIN_ID, config.RPC_URL).name }], signerRefusal: signerRefusalOf(sessionSigner), invoiceToken: invoiceTokenOf(tokenDetailsReader(client), deployment.token, pinnedTokenOf(builtDeployment, deployment)) }),
          publicUrl: () => publicUrl,
          // every write an agent or a CLI sign-in makes, beside the keys' events
          audit: stores.apiKeyAudit,
        }
      : undefined
  const app = createApp({
    ...(oauth ? { oauth } : {}),
    pay,
    metadata: stores.metadataAccess,
    merchant: {
      auth: {
        apiKeys: stores.apiKeys,
        nonces: stores.nonces,
        studios: stores.studios,
        jwt: identityVerifier,
        users: stores.users,
        // SPEC 2.8: sampled, and never in the request's way
        keyUsed: (c, studioId, keyId) => stores.apiKeyAudit.sampleUse(studioId, keyId, c.req.method, new URL(c.req.url).pathname, (error) => logger.warn({ err: error }, 'an API key use was not written to the audit log')),
        skewMs,
        now,
        ...(oauth ? { oauth: oauthPrincipalOf(oauth.authorization, stores.studios) } : {}),
      },
      accounts: { identity: identityVerifier, users: stores.users, studios: stores.studios },
      vaultProvisioning: { identity: identityVerifier, users: stores.users, deployments: vaultDeployments, signing: sessionSigner, preparesPerDay: Math.min(config.MERCHANT_DAILY_OPERATION_QUOTA, vaultPreparesPerDay) },
      quotas: sessionSigner.quota,
      studioSettings: { businessProfiles: stores.businessProfiles, withdrawalAddresses: stores.withdrawalAddresses },
      apiKeyManagement: { apiKeys: stores.apiKeys, auditLog: stores.apiKeyAudit, now },
      // SPEC 4.4 activation and 4.5: the signer's lifecycle, on the same chain parts and database
      serverSigner: sessionSigner,
      agentManagement: { agents: stores.agents, apiKeys: stores.apiKeys, auditLog: stores.apiKeyAudit, now },
      leads: { leads: stores.leads, mailer, notifyTo: config.LEADS_NOTIFY_EMAIL ?? null, logger },
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
      email: {
        mailer,
        deliveries: stores.emailDeliveries,
        logger,
        invoices: pay.invoices,
        chainId: config.CHAIN_ID,
        metadata: stores.metadata,
        tokens: stores.tokens,
        invoiceKey: stores.invoiceKey,
        publicUrl: () => publicUrl,
        // the customer a server-signed issuance recorded for the invoice
        issuedCustomer: async (key) => (await stores.issuedInvoices.findByInvoice(key.chainId, key.registry, key.invoiceId))?.customerId ?? null,
        // the studio's customer as it is now: a changed email is mailed at its new address
        customer: async (studioId, customerId) => {
          const customer = await stores.customers.getCustomer(studioId, customerId)
          return customer && { customerId: customer.id, name: customer.legalName, email: customer.email, country: customer.address.country }
        },
      },
      cancel: { signer: sessionSigner, attempts: stores.cancelAttempts, invoices: pay.invoices, chainId: config.CHAIN_ID, invoiceKey: stores.invoiceKey },
      withdrawals: { signer: sessionSigner, addresses: stores.withdrawalAddresses, withdrawals: stores.withdrawals, refundSubmissions: stores.refundSubmissions, tokens: tokenDetailsReader(client), explorerUrl: explorerLinks(config.EXPLORER_URL) },
      refunds: { signer: sessionSigner, invoices: pay.invoices, chainId: config.CHAIN_ID, invoiceKey: stores.invoiceKey, refundSubmissions: stores.refundSubmissions, withdrawals: stores.withdrawals },
      customers: stores.customers,
      issue: {
        signer: sessionSigner,
        customers: stores.customers,
        profiles: stores.businessProfiles,
        issued: stores.issuedInvoices,
        metadata: stores.metadata,
        tokens: stores.tokens,
        invoiceKey: stores.invoiceKey,
        invoices: pay.invoices,
        publicUrl: () => publicUrl,
        email: emailDependencies,
        idempotency: stores.idempotency,
        idempotencyKeyRequired: idempotencyKeyRequiredOf(config),
      },
      invoiceReads: {
        index: stores.invoiceIndex,
        invoices: pay.invoices,
        client,
        chainId: config.CHAIN_ID,
        registry: deployment.registry,
        metadata: stores.metadata,
        invoiceKey: stores.invoiceKey,
        // bound to the sealing key in use: cursors outlive neither a rotation nor another deployment
        cursors: invoiceListCursors(encryptionKeysOf(config).keys.get(encryptionKeysOf(config).activeKeyId)!),
        tokens: tokenDetailsReader(client),
      },
      ...merchantReadsOf(config, { client, deployment, db: stores.db, stores, deploymentPending: deploymentPendingOf(sessionSigner, vaultDeployments) }),
    },
    logger,
    metrics,
    readiness,
    rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
    ...(config.PERMIT_RATE_LIMIT_PER_MINUTE ? { permitRateLimitPerMinute: config.PERMIT_RATE_LIMIT_PER_MINUTE } : {}),
    ...(config.PREPARE_RATE_LIMIT_PER_MINUTE ? { prepareRateLimitPerMinute: config.PREPARE_RATE_LIMIT_PER_MINUTE } : {}),
    ...(config.PAYMASTER_RATE_LIMIT_PER_MINUTE ? { paymasterRateLimitPerMinute: config.PAYMASTER_RATE_LIMIT_PER_MINUTE } : {}),
    ...(redis ? { sharedRateCounter: redisRateCounters(redis, { logger, metrics }) } : {}),
    paymaster,
    trustProxy: config.TRUST_PROXY,
    trustedProxies: trustedProxiesOf(config),
    operationsElsewhere: config.OPS_PORT !== undefined,
    embedDir: join(payPageDir, 'embed'),
    dashboard: {
      dir: join(payPageDir, 'dashboard'),
      ...(config.DASHBOARD_CLIENT_ID && config.JWT_ISSUER && config.JWT_AUDIENCE
        ? { signIn: { issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE, clientId: config.DASHBOARD_CLIENT_ID, scope: config.IDENTITY_SCOPES } }
        : {}),
      connectSources: dashboardConnectSources(builtDeployment, config.PAY_PAGE_CONNECT_SRC),
    },
    payPage: {
      publicOrigin: () => new URL(publicUrl).origin,
      distDir: payPageDir,
      frameAncestors: config.ALLOWED_FRAME_ANCESTORS,
      // the page reads the chain through its pinned RPCs; the devnet wallet signs against the devnet's node
      connectSources: [
        ...new Set([
          ...pinnedRpcOrigins(builtDeployment),
          ...(devnetWallet ? [new URL(devnetWallet.rpcUrl).origin] : []),
          ...config.PAY_PAGE_CONNECT_SRC.split(/\s+/).filter(Boolean),
        ]),
      ],
    },
    ...(devnetWallet ? { devnetWallet } : {}),
  })
  return {
    deployment,
    metrics,
    stores,
    pay,
    sponsorships,
    readiness,
    app,
    publicUrl: {
      current: () => publicUrl,
      listeningAt(url) {
        publicUrl ||= url
      },
    },
    async close() {
      redis?.disconnect()
      mailer?.close()
      await stores.close()
    },
  }
}

/** Each limit counted in Redis, so every instance shares one count; in memory while Redis is down. */
function redisRateCounters(redis: Redis, { logger, metrics }: { logger: Logger; metrics: Metrics }) {
  return (name: string, window: { limit: number; windowMs: number }) =>
    sharedRateCounter({
      redis,
      ...window,
      prefix: `svc_checkout:rate:${name}`,
      fallback: memoryRateCounter(window),
      logger,
      onStoreError: () => metrics.rateLimitStoreErrors.inc(),
    })
}
