import { Hono, type MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { authenticate, type AuthDependencies } from './auth/authenticate'
import { HttpError } from './http/httpError'
import { errorHandler } from './http/errorHandler'
import { allowedMethods, MethodNotAllowedError } from './http/methodNotAllowed'
import { clientAddress, type TrustedProxies } from './http/clientAddress'
import { publicCors } from './http/publicCors'
import { answerHeaders } from './http/answerHeaders'
import { accessLog, type Logger } from './http/logger'
import { memoryRateCounter, rateLimit, type RateCounter } from './http/rateLimit'
import { requestId } from './http/requestId'
import { countOutcomes, inFlight, requestMetrics } from './ops/requestMetrics'
import type { Metrics } from './ops/metrics'
import type { Readiness } from './ops/readiness'
import type { PayDependencies } from './payments/payDependencies'
import type { PaymasterService } from './payments/paymasterService'
import type { AuthEnv } from './auth/principal'
import { requireScope } from './auth/requireScope'
import { mountApiRoutes } from './routes/apiRoute'
import type { InvoiceShareDependencies } from './routes/invoiceShareRoutes'
import type { WebhookEndpointsDependencies } from './routes/webhookRoutes'
import { brandingPath, publicBranding, type BrandingDependencies } from './routes/brandingRoutes'
import { apiRoutes } from './routes/apiRoutes'
import type { DevnetWalletKey } from '../shared/devnetWalletKey'
import { devnetWalletRoute } from './routes/devnetWalletRoute'
import { embedAssets } from './routes/embedAssets'
import { operationsRoutes } from './routes/operations'
import { payPage, type PayPageParameters } from './routes/payPage'
import { invoiceDocument } from './routes/payRoutes'
import type { MetadataAccess } from './store/openStores'
import { openApiDocument } from './openapi/openApiDocument'

export type AppDependencies = {
  pay: PayDependencies
  metadata: MetadataAccess
  /** The merchant routes: who may call them, and what they work on. `webhooks` absent: only where
   * no request reaches them (a document of the routes). */
  merchant: { auth: AuthDependencies; share: InvoiceShareDependencies; branding: BrandingDependencies; webhooks?: WebhookEndpointsDependencies }
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
  /** The merchant loader's build (embed/build.ts): /embed.js and /embed/*. */
  embedDir?: string
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
  // Inline, the widget runs on the merchant's page and calls these from its origin. None takes
  // credentials (the pay routes' token is in the query), so any origin may read the answers; before
  // the limits, so that a preflight is answered at once and a 413 or 429 is readable too.
  const anyOrigin = publicCors()
  app.use('/v1/pay/*', anyOrigin)
  // a wallet calls the paymaster service from its own origin (an extension, a wallet's pop-up)
  app.use('/v1/paymaster', anyOrigin)
  app.use('/assets/*', anyOrigin)
  app.use('/openapi.json', anyOrigin)
  if (dependencies.devnetWallet) app.use('/devnet/wallet', anyOrigin)
  const limitBody = bodyLimit({
    maxSize: 64 * 1024,
    // Refused by its Content-Length, the body is left unread, and the Node adapter's drain of it stalls
    // (the Fetch Request built to read the length holds the stream paused): it resets the connection,
    // under the client's next request on it. Closing it is the clean end (RFC 9110 15.5.14).
    onError: () => {
      throw new HttpError(413, 'PAYLOAD_TOO_LARGE', 'the body is larger than 64 KiB', {}, { Connection: 'close' })
    },
  })
  // a logo of 64 KiB is 87,384 characters of base64 (server/routes/brandingRoutes.ts)
  const limitBrandingBody = bodyLimit({
    maxSize: 96 * 1024,
    onError: () => {
      throw new HttpError(413, 'PAYLOAD_TOO_LARGE', 'the body is larger than 96 KiB: a logo is at most 64 KiB', {}, { Connection: 'close' })
    },
  })
  // reads without a body skip it: checking one builds a full Fetch Request on the Node adapter
  app.use('/v1/*', (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : (c.req.path === brandingPath ? limitBrandingBody : limitBody)(c, next)))
  const clientKey = clientAddress(dependencies.trustedProxies ?? { hops: dependencies.trustProxy ? 1 : 0 })
  // One count per limit's name, wherever it is mounted: `pay` guards /v1/pay/* and /v1/paymaster
  // both, and a client has that one limit across them, in memory as in Redis.
  const counters = new Map<string, { limit: number; counter: RateCounter }>()
  const perClient = (name: string, limit = dependencies.rateLimitPerMinute) => {
    const window = { limit, windowMs: 60_000 }
    let counted = counters.get(name)
    if (!counted) {
      counted = { limit, counter: dependencies.sharedRateCounter?.(name, window) ?? memoryRateCounter(window) }
      counters.set(name, counted)
    }
    if (counted.limit !== limit) throw new Error(`the rate limit ${name} is mounted with two limits, ${counted.limit} and ${limit}`)
    return rateLimit({ ...window, clientKey, counter: counted.counter })
  }
  app.use('/v1/pay/*', perClient('pay'))
  const fraction = (part: number) => Math.max(1, Math.floor(dependencies.rateLimitPerMinute / part))
  app.post('/v1/pay/:id/permit', perClient('permit', dependencies.permitRateLimitPerMinute ?? fraction(5)))
  app.post('/v1/pay/:id/prepare', perClient('prepare', dependencies.prepareRateLimitPerMinute ?? fraction(10)))
  app.use('/v1/paymaster', perClient('pay'))
  app.post('/v1/paymaster', perClient('paymaster', dependencies.paymasterRateLimitPerMinute ?? fraction(5)))
  const { metrics } = dependencies
  app.post('/v1/pay/:id/permit', countOutcomes(metrics.permits))
  app.post('/v1/pay/:id/prepare', countOutcomes(metrics.prepares))
  app.post('/v1/pay/:id', inFlight(metrics.pendingOperations), countOutcomes(metrics.submissions, { 200: 'confirmed', 202: 'pending' }))
  // Limited before authentication: a flood of forged signatures must not reach the database unchecked.
  app.use('/v1/invoices/*', perClient('invoices'))
  // the pattern matches /v1/webhook-endpoints itself too
  app.use('/v1/webhook-endpoints/*', perClient('webhooks'))
  app.use('/v1/studios/*', perClient('studios'))
  app.use('/v1/branding/*', perClient('logos'))
  const authenticated = authenticate(dependencies.merchant.auth)
  const routeDependencies = {
    pay: dependencies.pay,
    metadata: dependencies.metadata,
    share: dependencies.merchant.share,
    branding: dependencies.merchant.branding,
    ...(dependencies.merchant.webhooks ? { webhooks: dependencies.merchant.webhooks } : {}),
    clientKey,
    paymaster: dependencies.paymaster,
    countSponsorship: (outcome: string) => metrics.prepares.inc({ outcome }),
  }
  mountApiRoutes(app, apiRoutes, routeDependencies, (route): MiddlewareHandler<AuthEnv>[] =>
    route.auth === 'none' ? [] : [authenticated, ...(route.scope ? [requireScope(route.scope)] : [])],
  )
  // for merchants to generate clients from: the same schemas the routes validate with
  const api = openApiDocument(apiRoutes, { version: '1' })
  app.get('/openapi.json', (c) => c.json(api))
  if (dependencies.payPage) {
    // each view reads the chain and the database, decrypts and renders: counted like the API
    app.use('/pay/*', perClient('page'))
    app.route(
      '/',
      payPage({
        ...dependencies.payPage,
        document: invoiceDocument(routeDependencies),
        branding: async (merchant) => publicBranding(await dependencies.merchant.branding.store.findBrandingByVault(dependencies.merchant.branding.chainId, merchant)),
      }),
    )
  }
  if (dependencies.embedDir) app.route('/', embedAssets(dependencies.embedDir))
  if (dependencies.devnetWallet) app.route('/', devnetWalletRoute(dependencies.devnetWallet))
  return app
}
