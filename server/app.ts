import { Hono, type MiddlewareHandler } from 'hono'
import type { SessionSignerDependencies } from './merchant/signer/sendSessionCall'
import { authenticate, type AuthDependencies } from './auth/authenticate'
import { errorHandler } from './http/errorHandler'
import { allowedMethods, MethodNotAllowedError } from './http/methodNotAllowed'
import { clientAddress, type TrustedProxies } from './http/clientAddress'
import { publicCors } from './http/publicCors'
import { answerHeaders } from './http/answerHeaders'
import { accessLog, type Logger } from './http/logger'
import { apiBodyLimit, limitBody } from './http/limitBody'
import { perClientLimits } from './http/perClientLimit'
import type { RateCounter } from './http/rateLimit'
import { requestId } from './http/requestId'
import { requestMetrics } from './ops/requestMetrics'
import type { Metrics } from './ops/metrics'
import type { Readiness } from './ops/readiness'
import type { PayDependencies } from './payments/payDependencies'
import type { PaymasterService } from './payments/paymasterService'
import type { AuthEnv } from './auth/principal'
import { requireScope } from './auth/requireScope'
import { mountApiRoutes } from './routes/apiRoute'
import type { InvoiceShareDependencies } from './routes/invoiceShareRoutes'
import type { WebhookEndpointsDependencies } from './routes/webhookRoutes'
import type { SendEmailDependencies } from './merchant/email/sendEmailRoutes'
import type { CancelDependencies } from './merchant/cancel/submitCancel'
import type { WithdrawalDependencies } from './merchant/withdrawals/withdrawals'
import type { RefundDependencies } from './merchant/refunds/refunds'
import type { CustomerStore } from './merchant/customers/customerStore'
import type { IssueRouteDependencies } from './merchant/invoices/issueRoute'
import type { InvoiceReadDependencies } from './merchant/invoices/invoiceReadRoutes'
import type { PaymentReadDependencies } from './merchant/payments/paymentRoutes'
import type { StudioReadDependencies } from './merchant/studios/studioRoutes'
import type { RegistryReadDependencies } from './merchant/studios/registryRoutes'
import type { AccountDependencies } from './merchant/accounts/signInRoutes'
import type { StudioSettingsDependencies } from './merchant/accounts/studioSettingsRoutes'
import type { ApiKeyManagementDependencies } from './merchant/accounts/apiKeyRoutes'
import type { VaultProvisioningDependencies } from './merchant/vaults/vaultProvisioningRoutes'
import type { OperationQuota } from './merchant/signer/operationQuota'
import type { AgentManagementDependencies } from './merchant/agents/agentRoutes'
import { ownerOfPathStudio } from './merchant/accounts/requireOwner'
import { signedInCredentialOnly } from './merchant/accounts/signedInIdentity'
import type { LeadDependencies } from './merchant/leads/receiveLead'
import type { BrandingDependencies } from './routes/brandingRoutes'
import { servedBrandingReader } from './routes/servedBranding'
import { apiRoutes } from './routes/apiRoutes'
import type { DevnetWalletKey } from '../shared/devnetWalletKey'
import { devnetWalletRoute } from './routes/devnetWalletRoute'
import { embedAssets } from './routes/embedAssets'
import { operationsRoutes } from './routes/operations'
import { payPage, type PayPageParameters } from './routes/payPage'
import { dashboardPage, type DashboardPageParameters } from './routes/dashboardPage'
import { invoiceDocument } from './routes/payRoutes'
import type { MetadataAccess } from './store/openStores'
import { openApiDocument } from './openapi/openApiDocument'
import { openApiRoute } from './routes/openApiRoute'
import type { PolicyMiddleware } from './routes/routePolicy'
import type { AuthorizationServer } from './merchant/oauth/authorizationServer'
import { oauthLimitOf, oauthLimits } from './merchant/oauth/oauthLimits'
import { oauthScopeOf } from './merchant/oauth/oauthRestRoutes'
import { auditOAuthWrites, type AgentWriteAudit } from './merchant/oauth/agentWriteAudit'
import { mcpEndpoint, mcpLimit, type McpEndpointDependencies } from './merchant/mcp/mcpEndpoint'

export type AppDependencies = {
  pay: PayDependencies
  metadata: MetadataAccess
  /** The merchant routes: who may call them, and what they work on. `webhooks` and `customers` absent: only where
   * no request reaches them (a document of the routes). */
  merchant: { auth: AuthDependencies; share: InvoiceShareDependencies; branding: BrandingDependencies; webhooks?: WebhookEndpointsDependencies; customers?: CustomerStore; email?: SendEmailDependencies; invoiceReads?: InvoiceReadDependencies; paymentReads?: PaymentReadDependencies; studioReads?: StudioReadDependencies; registryReads?: RegistryReadDependencies; issue?: IssueRouteDependencies; cancel?: CancelDependencies; withdrawals?: WithdrawalDependencies; refunds?: RefundDependencies; accounts?: AccountDependencies; studioSettings?: StudioSettingsDependencies; apiKeyManagement?: ApiKeyManagementDependencies; vaultProvisioning?: VaultProvisioningDependencies; quotas?: Pick<OperationQuota, 'usage'>; agentManagement?: AgentManagementDependencies; leads?: LeadDependencies; serverSigner?: SessionSignerDependencies }
  logger: Logger
  metrics: Metrics
  /** GET /readyz: whether the server's dependencies answer. */
  readiness: () => Promise<Readiness>
  rateLimitPerMinute: number
  /** POST /v1/pay/:id/permit and /prepare, each on top of `rateLimitPerMinute`: a permit reads the
   * chain, a prepare estimates gas and asks for a sponsorship. Unset, a fifth and a tenth of it. */
  permitRateLimitPerMinute?: number
  prepareRateLimitPerMinute?: number
  /** POST /v1/paymaster (ERC-7677), on top of `rateLimitPerMinute`: each call reads the chain and may
   * sign. Unset, a fifth of it (a payment asks twice: stub, then data). */
  paymasterRateLimitPerMinute?: number
  /** Our ERC-7677 paymaster service; absent (no paymaster signer), POST /v1/paymaster refuses everything. */
  paymaster?: PaymasterService
  /** Where a limit (named `pay`, `permit`, `prepare`, `page`, `invoices`, `webhooks`, `studios` or `logos`) is counted when every instance shares the count; absent,
   * each instance counts in its own memory. */
  sharedRateCounter?: (name: string, window: { limit: number; windowMs: number }) => RateCounter
  /** TRUST_PROXY: one proxy in front (`trustedProxies` says more, and wins). */
  trustProxy: boolean
  trustedProxies?: TrustedProxies
  /** GET /readyz and /metrics are served by a listener of their own (OPS_PORT): not here. */
  operationsElsewhere?: boolean
  /** The built pay page at /pay/:id; absent, only the API is served. */
  payPage?: PayPageParameters
  /** The merchant dashboard's build (dashboard/): /dashboard and its assets. */
  dashboard?: DashboardPageParameters
  /** The merchant loader's build (embed/build.ts): /embed.js and /embed/*. */
  embedDir?: string
  /** The CLI's and MCP's authorization server at /oauth, and the hosted MCP endpoint at /mcp (SPEC
   * 5.3, 5.4); absent where no identity provider signs users in. */
  oauth?: { authorization: AuthorizationServer; publicUrl: () => string; audit?: AgentWriteAudit }
  /** `npm start` only: GET /devnet/wallet for the page's devnet wallet. Off by default. */
  devnetWallet?: DevnetWalletKey
}

const securityHeaderValues = { 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' }

export function createApp(dependencies: AppDependencies) {
  const app = new Hono<AuthEnv>()
  app.onError(errorHandler(dependencies.logger))
  app.notFound((c) => {
    // read when asked, so it sees every route mounted below
    const allowed = allowedMethods(app, c.req.path)
    if (allowed.length > 0) throw new MethodNotAllowedError(allowed)
    return c.json({ error: 'NOT_FOUND', code: 'NOT_FOUND', message: 'no such route' }, 404)
  })
  app.use(requestId())
  app.use(accessLog(dependencies.logger))
  app.use(requestMetrics(dependencies.metrics.requestDuration))
  app.use(function securityHeaders(c, next) {
    return answerHeaders(c, securityHeaderValues, next)
  })
  // the platform's probes and scrapes: outside /v1, so no rate limit ever makes an instance look down
  app.route('/', operationsRoutes({ readiness: dependencies.readiness, registry: dependencies.metrics.registry, ...(dependencies.operationsElsewhere ? { only: 'liveness' as const } : {}) }))
  // Inline, the widget runs on the merchant's page and calls the pay routes from its origin. None
  // takes credentials (the pay routes' token is in the query), so any origin may read the answers of
  // a route that declares `cors: 'anyOrigin'`; before the limits, so that a preflight is answered at
  // once and a 413 or 429 is readable too.
  const anyOrigin = publicCors()
  const clientKey = clientAddress(dependencies.trustedProxies ?? { hops: dependencies.trustProxy ? 1 : 0 })
  const limited = perClientLimits({
    settings: {
      perMinute: dependencies.rateLimitPerMinute,
      permitPerMinute: dependencies.permitRateLimitPerMinute,
      preparePerMinute: dependencies.prepareRateLimitPerMinute,
      paymasterPerMinute: dependencies.paymasterRateLimitPerMinute,
    },
    clientKey,
    sharedRateCounter: dependencies.sharedRateCounter,
  })
  const { metrics } = dependencies
  // each route's CORS, body limit, rate limits and outcome metric are declared with it (routes/routePolicy.ts)
  const policy: PolicyMiddleware = { anyOrigin, limited, bodyLimited: (limit) => limitBody(limit ?? apiBodyLimit), metrics }
  const authenticated = authenticate(dependencies.merchant.auth)
  // SPEC 5.6's OAuth column: a CLI's token opens only the routes it lists, under the scope it names
  const authenticatedOrOAuth = authenticate(dependencies.merchant.auth, { acceptsOAuth: true })
  const routeDependencies = {
    pay: dependencies.pay,
    metadata: dependencies.metadata,
    share: dependencies.merchant.share,
    branding: dependencies.merchant.branding,
    ...(dependencies.merchant.webhooks ? { webhooks: dependencies.merchant.webhooks } : {}),
    ...(dependencies.merchant.email ? { email: dependencies.merchant.email } : {}),
    ...(dependencies.merchant.cancel ? { cancel: dependencies.merchant.cancel } : {}),
    ...(dependencies.merchant.withdrawals ? { withdrawals: dependencies.merchant.withdrawals } : {}),
    ...(dependencies.merchant.refunds ? { refunds: dependencies.merchant.refunds } : {}),
    ...(dependencies.merchant.customers ? { customers: dependencies.merchant.customers } : {}),
    ...(dependencies.merchant.accounts ? { accounts: dependencies.merchant.accounts } : {}),
    ...(dependencies.merchant.studioSettings ? { studioSettings: dependencies.merchant.studioSettings } : {}),
    ...(dependencies.merchant.apiKeyManagement ? { apiKeyManagement: dependencies.merchant.apiKeyManagement } : {}),
    ...(dependencies.merchant.serverSigner ? { serverSigner: dependencies.merchant.serverSigner } : {}),
    ...(dependencies.merchant.vaultProvisioning ? { vaultProvisioning: dependencies.merchant.vaultProvisioning } : {}),
    ...(dependencies.merchant.quotas ? { quotas: dependencies.merchant.quotas } : {}),
    ...(dependencies.merchant.agentManagement ? { agentManagement: dependencies.merchant.agentManagement } : {}),
    ...(dependencies.merchant.leads ? { leads: dependencies.merchant.leads } : {}),
    ...(dependencies.merchant.invoiceReads ? { invoiceReads: dependencies.merchant.invoiceReads } : {}),
    ...(dependencies.merchant.paymentReads ? { paymentReads: dependencies.merchant.paymentReads } : {}),
    ...(dependencies.merchant.studioReads ? { studioReads: dependencies.merchant.studioReads } : {}),
    ...(dependencies.merchant.registryReads ? { registryReads: dependencies.merchant.registryReads } : {}),
    ...(dependencies.merchant.issue ? { issue: dependencies.merchant.issue } : {}),
    ...(dependencies.oauth ? { oauthConnections: dependencies.oauth.authorization } : {}),
    clientKey,
    paymaster: dependencies.paymaster,
    countSponsorship: (outcome: string) => metrics.prepares.inc({ outcome }),
  }
  mountApiRoutes(app, apiRoutes, routeDependencies, {
    policy,
    guard: (route): MiddlewareHandler<AuthEnv>[] => {
      // SPEC 5.6's "JWT with owner checks; API keys unsupported", before any body is read: a route that
      // signs its user in itself refuses what is no sign-in; the others, what is not the path studio's owner
      if (route.auth === 'none') return route.signedInOnly ? [signedInCredentialOnly] : []
      const owner = route.signedInOnly ? [ownerOfPathStudio] : []
      const oauthScope = oauthScopeOf(route)
      // a CLI sign-in's writes are each written to the studio's audit log with the client's name
      const audited = oauthScope && route.method !== 'get' && dependencies.oauth?.audit ? [auditOAuthWrites(dependencies.oauth.audit, route, dependencies.logger)] : []
      return [oauthScope ? authenticatedOrOAuth : authenticated, ...owner, ...(route.scope ? [requireScope(route.scope)] : []), ...(oauthScope && oauthScope !== route.scope ? [requireScope(oauthScope, { only: 'oauth' })] : []), ...audited]
    },
  })
  if (dependencies.oauth) {
    // a limit per client of its own for each door; /mcp's JSON-RPC bodies under the API's body limit
    // (the provider under /oauth reads its forms itself, within its own limits)
    const oauthLimited = new Map(oauthLimits.map((limit) => [limit, policy.limited(limit)]))
    app.use('/oauth/*', (c, next) => oauthLimited.get(oauthLimitOf(c.req.path))!(c, next))
    app.use('/mcp', policy.limited(mcpLimit), policy.bodyLimited(undefined))
    app.route('/', dependencies.oauth.authorization.routes as unknown as Hono<AuthEnv>)
    const mcp = mcpEndpoint({ ...dependencies.oauth, studios: dependencies.merchant.auth.studios, routes: apiRoutes as unknown as McpEndpointDependencies['routes'], dependencies: routeDependencies })
    app.route('/', mcp as unknown as Hono<AuthEnv>)
  }
  // for merchants to generate clients from: the same schemas the routes validate with
  app.route('/', openApiRoute(openApiDocument(apiRoutes, { version: '1' }), policy))
  if (dependencies.payPage) {
    app.route(
      '/',
      payPage({
        ...dependencies.payPage,
        document: invoiceDocument(routeDependencies),
        branding: servedBrandingReader(dependencies.merchant.branding.store, dependencies.merchant.branding.chainId),
        policy,
      }),
    )
  }
  if (dependencies.dashboard) app.route('/', dashboardPage({ ...dependencies.dashboard, policy }))
  if (dependencies.embedDir) app.route('/', embedAssets(dependencies.embedDir))
  if (dependencies.devnetWallet) app.route('/', devnetWalletRoute(dependencies.devnetWallet, policy))
  return app
}
