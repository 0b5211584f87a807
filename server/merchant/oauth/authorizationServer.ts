import { createHash, hkdfSync, randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { HttpBindings } from '@hono/node-server'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import { Hono } from 'hono'
import type { Configuration, default as Provider } from 'oidc-provider'
import type { IdentityVerifier } from '../../auth/jwtVerifier'
import type { IssueReservation } from '../../auth/principal'
import { oauthAccessTokenPrefix } from '../../auth/oauthTokenPrefix'
import { sameSecret } from '../../auth/sameSecret'
import type { Logger } from '../../http/logger'
import { redacted } from '../../http/errorHandler'
import { lockForTransaction, type Database } from '../../store/database'
import type { Studio, StudioStore } from '../../store/studioStore'
import type { UserStore } from '../accounts/userStore'
import { oauthRefusalPage, oauthSignInStopPage, renderOAuthConsent, type SignInStop } from './consentPage'
import { consentCatalogs, consentLanguage } from './consentStrings'
import type { Language } from '../../../src/ui/languages'
import { limitAmountText, limitBaseUnits, mostLimitAmount, type InvoiceToken } from './invoiceLimitAmount'
import { oauthAdapterFactory, oauthPayloadIdHash } from './oauthPayloadStore'
import { readFormBody } from '../../http/readFormBody'
import { writeHtmlPage } from '../../http/writeHtmlPage'

/** The scopes a CLI or an agent may be granted: the granular ones only (SPEC 5.5); legacy read,
 * write and sponsor stay with API keys. */
export const oauthScopes = ['invoice:read', 'invoice:write', 'customer:read', 'customer:write', 'dashboard:read'] as const

/** SPEC 5.3: 15 minutes for an access token, 30 days at most for a refresh token and its grant. */
export const accessTokenSeconds = 15 * 60
const refreshTokenSeconds = 30 * 24 * 3600

const refreshTokenPrefix = 'svc_ort_'

export type AuthorizationServerDependencies = {
  db: Database
  now: () => number
  /** The server's public base URL (PUBLIC_URL, else the listener's), known once it listens. */
  publicUrl: () => string
  users: Pick<UserStore, 'findUser'>
  studios: Pick<StudioStore, 'getStudio'>
  logger: Pick<Logger, 'error'>
  /** The server's active encryption key: the sign-in cookies' key is derived from it, so every
   * instance reads the cookies any other set. */
  cookieSecret: string
  /** The identity provider users sign in with (JWT_ISSUER), this server's client there, and the
   * scopes a sign-in asks it for (IDENTITY_SCOPES, the dashboard's own). */
  identity: { issuer: string; clientId: string; verify: IdentityVerifier; scope: string }
  /** The networks this deployment's invoices live on (its CHAIN_ID today): the person picks one at
   * consent and the grant is bound to it. */
  networks?: readonly Network[]
  /** Why the studio's server signer cannot issue or cancel now (no live session its owner started, or
   * its write access revoked), or null when it can: invoice writes are granted only with one (SPEC 5.4). */
  signerRefusal?: (studio: Studio) => Promise<string | null>
  /** The deployment's token (its symbol and decimals, as the deployment or the chain says them): the person sets the
   * largest invoice in its amounts, and reads it back in them wherever the limit is named; a CLI
   * reads it from /oauth/token-info to type amounts in it. */
  invoiceToken: () => Promise<InvoiceToken>
}

/** A chain a grant may be bound to, by its id and the name a person knows it by. */
export type Network = { chainId: number; name: string }

/** What a hosted or CLI access token stands for, re-read on each use. */
export type OAuthGrantPrincipal = {
  userId: string
  /** The user's email as the identity provider last gave it. */
  email: string | null
  studioId: string
  clientId: string
  clientName: string
  grantId: string
  scopes: string[]
  audience: string
  limits: InvoiceLimits | null
  /** The network chosen at consent; null for a grant made before networks were asked. */
  chainId: number | null
  /** When this access token expires, in seconds since the epoch. */
  expiresAt: number
}

/** What the grant keeps beside oidc-provider's own: what the person chose at consent. */
type GrantChoices = { grantId: string; studioId: string; chainId?: number; limits?: InvoiceLimits }

/** What the person set at consent for invoice writes (SPEC 5.4): the largest amount, typed in the
 * token's amounts and kept in base units (as invoices' amounts are), and how many invoices in any 24 hours. */
export type InvoiceLimits = { maxInvoice: string; perDay: number }

export type AuthorizationServer = {
  /** /oauth/* and the RFC 8414 metadata document, mounted on the app. */
  routes: Hono<{ Bindings: HttpBindings }>
  /** The resource indicator (RFC 8707) a token for `/mcp` or `/v1` carries. */
  resourceOf(kind: 'mcp' | 'api'): string
  issuer(): string
  /** The token's grant, user, studio and scopes, or null when it is unknown, expired, revoked, for
   * another audience, or its user no longer belongs to the studio it was granted for. */
  verifyAccessToken(token: string, audience: 'mcp' | 'api'): Promise<OAuthGrantPrincipal | null>
  /** Holds the issue's place in the grant's day under its consent-time limits, or says why they refuse it. */
  reserveIssue(grant: OAuthGrantPrincipal, amount: bigint, idempotencyKey: string): Promise<IssueReservation>
  listConnections(studioId: string): Promise<OAuthConnection[]>
  revokeConnection(studioId: string, grantId: string): Promise<boolean>
}

/** A connected agent or CLI sign-in, as the studio's owner sees it. */
export type OAuthConnection = { id: string; clientName: string; door: 'mcp' | 'cli'; scopes: string[]; limits: InvoiceLimits | null; createdAt: Date }

type PendingSignIn = { uid: string; verifier: string; returnState: string }

/**
 * The CLI's and the hosted MCP endpoint's OAuth 2.1 authorization server (SPEC 5.3, 5.4): an
 * instance of oidc-provider of its own, mounted at /oauth on this server. Its own rather than the
 * devnet's provider's, because that one stands for whichever identity provider a deployment names
 * (JWT_ISSUER, in production someone else's), while grants bound to a studio, opaque svc_oat_
 * tokens and the scopes' consent are this API's business. Users sign in at that identity provider
 * (this server is its client, with PKCE), then approve the scopes here.
 */
export function createAuthorizationServer(dependencies: AuthorizationServerDependencies): AuthorizationServer {
  const { db, now, publicUrl, users, studios, identity, logger, networks = [] } = dependencies
  const base = () => publicUrl().replace(/\/$/, '')
  const resourceOf = (kind: 'mcp' | 'api') => (kind === 'mcp' ? `${base()}/mcp` : `${base()}/v1`)
  // sign-ins under way at the identity provider, by their state, and their outcome by interaction:
  // in the database with everything else, so the redirect back may reach another instance
  const Adapter = oauthAdapterFactory(db, now)
  const pending = new Adapter('FederatedSignIn')
  const signedIn = new Adapter('FederatedSubject')
  // the studio each grant was approved for, fixed at consent: a refresh later mints tokens for that
  // studio only, whichever the user has joined since (it carries the grant's id, so revoking the
  // grant deletes it too)
  const grantStudios = new Adapter('GrantStudio')
  let built: Promise<{ provider: Provider; callback: (req: IncomingMessage, res: ServerResponse) => void }> | null = null

  // oidc-provider is loaded on the first request that needs it, not when the server starts: on Node 20
  // it warns at import that it wants Node 22, and a server with no sign-in configured must not print that
  function build() {
    built ??= make()
    return built
  }

  async function make() {
    const { default: Provider, errors } = await import('oidc-provider')
    const issuer = `${base()}/oauth`
    const configuration: Configuration = {
      adapter: Adapter,
      clients: [],
      clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
      cookies: {
        keys: [Buffer.from(hkdfSync('sha256', Buffer.from(dependencies.cookieSecret), Buffer.alloc(0), 'svc-checkout/oauth-cookies/v1', 32)).toString('base64url')],
        // another provider on the same host (the devnet's identity provider) uses the default names
        names: { session: 'svc_oauth_session', interaction: 'svc_oauth_interaction', resume: 'svc_oauth_resume' },
      },
      pkce: { required: () => true },
      scopes: ['openid', 'offline_access', ...oauthScopes],
      claims: { openid: ['sub'] },
      ttl: { AccessToken: accessTokenSeconds, RefreshToken: refreshTokenSeconds, AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: refreshTokenSeconds },
      rotateRefreshToken: true,
      issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      // the grant's tokens outlive the hour-long sign-in session at this server (SPEC 5.3: refresh for 30
      // days): the library's default ties every token without offline_access to it, which the CLI and
      // agents never ask for, so their refresh failed an hour after login
      expiresWithSession: async () => false,
      features: {
        devInteractions: { enabled: false },
        registration: { enabled: true },
        revocation: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => resourceOf('mcp'),
          useGrantedResource: () => true,
          async getResourceServerInfo(_ctx, indicator) {
            if (indicator !== resourceOf('mcp') && indicator !== resourceOf('api')) throw new errors.InvalidTarget()
            return { scope: oauthScopes.join(' '), audience: indicator, accessTokenTTL: accessTokenSeconds, accessTokenFormat: 'opaque' }
          },
        },
      },
      async findAccount(_ctx, id) {
        const user = await users.findUser(identity.issuer, id)
        return user ? { accountId: id, claims: async () => ({ sub: id }) } : undefined
      },
      // the studio approved at consent; each use checks the user still belongs to it
      async extraTokenClaims(_ctx, token) {
        const grantId = 'grantId' in token && typeof token.grantId === 'string' ? token.grantId : null
        const studioId = grantId ? (await grantStudios.find(grantId))?.studioId : undefined
        return typeof studioId === 'string' ? { studio_id: studioId } : {}
      },
      interactions: { url: (_ctx, interaction) => `/oauth/interaction/${interaction.uid}` },
      renderError(ctx, out) {
        ctx.type = 'html'
        // in the person's language, as the consent page would have been; the provider's own words, its
        // error code first, kept beside as the technical detail (shown as text: they can carry what the
        // request sent). Params are read only once the provider has them, which an early error may precede
        const uiLocales = (ctx.oidc as { params?: { ui_locales?: unknown } } | undefined)?.params?.ui_locales
        ctx.body = oauthSignInStopPage('refused', languageOfRequest(ctx.req, uiLocales), `${String(out.error)}: ${String(out.error_description ?? '')}`)
      },
    }
    const provider = new Provider(issuer, configuration)
    // the provider's opaque tokens are random ids; ours say what they are, so a leaked one is recognised
    const accessToken = provider.AccessToken.prototype as unknown as { format?: string; generateTokenId(this: { format?: string }): string }
    accessToken.generateTokenId = function opaqueWithPrefix() {
      // what the library's own opaque format records; its payload is read by that format
      this.format = 'opaque'
      return `${oauthAccessTokenPrefix}${randomBytes(32).toString('base64url')}`
    }
    const refreshToken = provider.RefreshToken.prototype as unknown as { generateTokenId(): string }
    refreshToken.generateTokenId = () => `${refreshTokenPrefix}${randomBytes(32).toString('base64url')}`
    // the provider answers server_error without a word of why: the log keeps it
    provider.on('server_error', (_ctx: unknown, error: unknown) => logger.error({ err: error }, 'the OAuth authorization server failed a request'))
    return { provider, callback: provider.callback() }
  }

  /** Hands the request to the provider as if mounted at /oauth (what express does for a mounted app). */
  async function toProvider(incoming: IncomingMessage, outgoing: ServerResponse, path: string): Promise<Response> {
    const { callback } = await build()
    const request = incoming as IncomingMessage & { originalUrl?: string | undefined }
    // the provider reads its mount path off originalUrl's end, as under express
    request.originalUrl = `/oauth${path}`
    request.url = path
    return new Promise((resolve) => {
      outgoing.once('close', () => resolve(RESPONSE_ALREADY_SENT))
      outgoing.once('finish', () => resolve(RESPONSE_ALREADY_SENT))
      callback(request, outgoing)
    })
  }

  const html = (outgoing: ServerResponse, status: number, body: string) => {
    writeHtmlPage(outgoing, status, body)
    return RESPONSE_ALREADY_SENT
  }
  /** The person's language on these pages: what they picked on the consent page (`?lang=`), their
   * app's ui_locales where the sign-in's parameters are known, their browser's. */
  const languageOfRequest = (incoming: IncomingMessage, uiLocales?: unknown) =>
    consentLanguage({ chosen: new URL(incoming.url ?? '/', 'http://localhost').searchParams.get('lang'), uiLocales, acceptLanguageHeader: incoming.headers['accept-language'] })
  const stopped = (outgoing: ServerResponse, status: number, stop: SignInStop, language: Language, detail?: string) => html(outgoing, status, oauthSignInStopPage(stop, language, detail))
  const redirect = (outgoing: ServerResponse, location: string) => {
    outgoing.writeHead(303, { location, 'cache-control': 'no-store' })
    outgoing.end()
    return RESPONSE_ALREADY_SENT
  }

  async function identityEndpoints() {
    const answer = await fetch(`${identity.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`)
    if (!answer.ok) throw new Error(`the identity provider's discovery answered ${answer.status}`)
    return (await answer.json()) as { authorization_endpoint: string; token_endpoint: string }
  }

  const signedInUri = () => `${base()}/oauth/signed-in`

  async function interaction(incoming: IncomingMessage, outgoing: ServerResponse, uid: string, action: string | undefined): Promise<Response> {
    const { provider } = await build()
    const details = await provider.interactionDetails(incoming, outgoing)
    // the person's language from here on: what they picked on the consent page, their app's, their browser's
    const language = languageOfRequest(incoming, details.params.ui_locales)
    if (details.uid !== uid) return stopped(outgoing, 400, 'expired', language)
    const { prompt, params } = details
    if (prompt.name === 'login') {
      const subject = (await signedIn.find(uid))?.accountId
      if (typeof subject === 'string') {
        await signedIn.destroy(uid)
        return (await provider.interactionFinished(incoming, outgoing, { login: { accountId: subject } }, { mergeWithLastSubmission: false }), RESPONSE_ALREADY_SENT)
      }
      const { authorization_endpoint } = await identityEndpoints()
      const verifier = randomBytes(32).toString('base64url')
      // one way out per sign-in, kept under its interaction and replaced by each visit: these pages
      // count under the steps' limit, and a row per visit let one sign-in's cookie fill the table
      const state = `${uid}.${randomBytes(16).toString('base64url')}`
      await pending.upsert(uid, { uid, verifier, returnState: state } satisfies PendingSignIn, 600)
      const authorize = new URL(authorization_endpoint)
      authorize.search = new URLSearchParams({
        client_id: identity.clientId,
        redirect_uri: signedInUri(),
        response_type: 'code',
        scope: identity.scope,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        state,
      }).toString()
      return redirect(outgoing, authorize.toString())
    }
    if (prompt.name !== 'consent') return stopped(outgoing, 400, 'nothingToDo', language)
    const accountId = details.session?.accountId
    const user = accountId ? await users.findUser(identity.issuer, accountId) : null
    const studio = user?.studioId ? await studios.getStudio(user.studioId) : null
    const refusal = (status: number, { title, message }: { title: string; message: string }) => html(outgoing, status, oauthRefusalPage(title, message, language))
    const { refusals } = consentCatalogs[language]
    if (!accountId || !studio) return refusal(403, refusals.noStudio)
    const missing = prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> }
    const [resource, requested] = Object.entries(missing.missingResourceScopes ?? {})[0] ?? [String(params.resource ?? resourceOf('mcp')), []]
    const client = await provider.Client.find(String(params.client_id))
    if (action === 'deny' && incoming.method === 'POST') {
      return (await provider.interactionFinished(incoming, outgoing, { error: 'access_denied', error_description: 'the user refused' }, { mergeWithLastSubmission: false }), RESPONSE_ALREADY_SENT)
    }
    if (action === 'confirm' && incoming.method === 'POST') {
      const form = await readFormBody(incoming)
      const approved = form.getAll('scope').filter((scope) => requested.includes(scope))
      // a confirm sent again before the provider resumed (a second click, a script) amends the grant the
      // first one saved: a new one each time wrote two rows that live for 30 days, at the steps' limit
      const earlier = details.grantId ?? (details.result as { consent?: { grantId?: unknown } } | undefined)?.consent?.grantId
      const grant = typeof earlier === 'string' ? await provider.Grant.find(earlier) : new provider.Grant({ accountId, clientId: String(params.client_id) })
      if (!grant) return stopped(outgoing, 400, 'expired', language)
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '))
      if (approved.length > 0) grant.addResourceScope(resource, approved.join(' '))
      // what the person left unticked is refused, not asked again: the token carries the rest
      const refused = requested.filter((scope) => !approved.includes(scope))
      if (refused.length > 0) grant.rejectResourceScope(resource, refused.join(' '))
      // the studio and network chosen: one of the person's own studios, one of this deployment's chains
      if (form.get('studio_id') !== studio.id) return refusal(400, refusals.chooseStudio)
      const chainId = networks.length > 0 ? Number(form.get('chain_id')) : undefined
      if (chainId !== undefined && !networks.some((network) => network.chainId === chainId)) {
        return refusal(400, { title: refusals.chooseNetwork.title, message: refusals.chooseNetwork.message(networks.map((network) => network.name).join(', ')) })
      }
      let limits: InvoiceLimits | undefined
      if (approved.includes('invoice:write')) {
        const token = await dependencies.invoiceToken()
        const maxInvoice = limitBaseUnits(form.get('max_invoice') ?? '', token)
        if (maxInvoice === null) {
          return refusal(400, { title: refusals.largestInvoice.title, message: refusals.largestInvoice.message(token.symbol, String(token.decimals), new Intl.NumberFormat(language, { numberingSystem: 'latn' }).format(mostLimitAmount)) })
        }
        const perDay = Number(form.get('invoices_per_day')?.trim())
        if (!Number.isInteger(perDay) || perDay < 1 || perDay > 10_000) return refusal(400, refusals.limitsNeeded)
        limits = { maxInvoice: maxInvoice.toString(), perDay }
        // writes go through the studio's server signer: granted only while its owner has it active
        const signerProblem = (await dependencies.signerRefusal?.(studio)) ?? null
        if (signerProblem !== null) {
          return refusal(403, { title: refusals.signerInactive.title, message: refusals.signerInactive.message(signerProblem) })
        }
      }
      const grantId = await grant.save()
      await grantStudios.upsert(grantId, { grantId, studioId: studio.id, ...(chainId !== undefined ? { chainId } : {}), ...(limits ? { limits } : {}) } satisfies GrantChoices, refreshTokenSeconds)
      return (await provider.interactionFinished(incoming, outgoing, { consent: { grantId } }, { mergeWithLastSubmission: true }), RESPONSE_ALREADY_SENT)
    }
    // the token is read only where its amounts are asked for: a sign-in for reads needs no chain
    const token = requested.includes('invoice:write') ? await dependencies.invoiceToken() : undefined
    return html(outgoing, 200, renderOAuthConsent({ uid, clientName: String(client?.clientName ?? params.client_id), returnsTo: new URL(String(params.redirect_uri)).origin, studios: [{ id: studio.id, name: studio.name ?? studio.id }], networks, resource, scopes: requested, language, ...(token ? { token } : {}) }))
  }

  /** The identity provider's redirect back: its code becomes the user's subject, checked as any
   * signed-in request's token is (issuer, audience, signature). */
  async function identityCallback(incoming: IncomingMessage, url: URL, outgoing: ServerResponse): Promise<Response> {
    // the person's browser's language: the sign-in's own parameters stay with the interaction
    const language = languageOfRequest(incoming)
    const state = url.searchParams.get('state') ?? ''
    const uidOfState = state.slice(0, Math.max(0, state.indexOf('.')))
    const found = uidOfState ? ((await pending.find(uidOfState)) as PendingSignIn | undefined) : undefined
    // only the latest way out of the interaction: a guessed or superseded state cancels nothing
    const started = found && sameSecret(found.returnState, state) ? found : undefined
    if (started) await pending.destroy(uidOfState)
    const code = url.searchParams.get('code')
    if (!started || !code) return stopped(outgoing, 400, 'expired', language)
    const { token_endpoint } = await identityEndpoints()
    const answer = await fetch(token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: signedInUri(), client_id: identity.clientId, code_verifier: started.verifier }),
    })
    const tokens = (await answer.json()) as { access_token?: string }
    if (!answer.ok || !tokens.access_token) return stopped(outgoing, 401, 'failed', language)
    const verified = await identity.verify(tokens.access_token)
    const user = verified.subject ? await users.findUser(verified.issuer, verified.subject) : null
    if (!user || !verified.subject) return stopped(outgoing, 403, 'unknownAccount', language)
    await signedIn.upsert(started.uid, { accountId: verified.subject }, 600)
    return redirect(outgoing, `${base()}/oauth/interaction/${started.uid}`)
  }

  const routes = new Hono<{ Bindings: HttpBindings }>()
  // RFC 8414's metadata for an issuer with a path: /.well-known/oauth-authorization-server/oauth
  routes.get('/.well-known/oauth-authorization-server/oauth', (c) => toProvider(c.env.incoming, c.env.outgoing, '/.well-known/openid-configuration'))
  // who a CLI's token stands for (`whoami`), asked of the server that issued it: the user, the studio
  // and network chosen at consent, the scopes and when the token ends; no-store, as it names the user
  routes.get('/oauth/token-info', async (c) => {
    const token = /^Bearer +(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1]
    const grant = token ? ((await verifyAccessToken(token, 'api')) ?? (await verifyAccessToken(token, 'mcp'))) : null
    const studio = grant ? await studios.getStudio(grant.studioId) : null
    if (!grant || !studio) return c.json({ error: 'UNAUTHORIZED', code: 'UNAUTHORIZED', message: 'this token is unknown, expired or revoked: sign in again' }, 401, { 'cache-control': 'no-store' })
    const network = networks.find((candidate) => candidate.chainId === grant.chainId)
    // unknown only where the deployment does not name it and the chain has not answered yet: who the
    // token stands for is still answered, the token null until the chain says it
    const invoiceToken = await dependencies.invoiceToken().catch((error: unknown) => {
      // its name and its words without the RPC's URL, which can carry the provider's key, as every chain failure is logged
      const failure = error instanceof Error ? { error: error.name, message: redacted(error) } : { error: 'unknown' }
      logger.error(failure, "the invoice token's symbol and decimals could not be read")
      return null
    })
    return c.json(
      {
        user: { id: grant.userId, email: grant.email },
        studio: { id: studio.id, name: studio.name ?? null },
        network: grant.chainId === null ? null : { chain_id: grant.chainId, name: network?.name ?? String(grant.chainId) },
        client: { id: grant.clientId, name: grant.clientName },
        scopes: grant.scopes,
        // base units as everywhere in the API, and the amount as the person typed it at consent
        limits: grant.limits && { max_invoice: grant.limits.maxInvoice, ...(invoiceToken ? { max_invoice_display: limitAmountText(grant.limits.maxInvoice, invoiceToken) } : {}), invoices_per_day: grant.limits.perDay },
        // the token amounts are typed in: a sign-in that may issue but not read the balance
        // (dashboard:read) still turns "250.00" into base units
        invoice_token: invoiceToken && { address: invoiceToken.address, symbol: invoiceToken.symbol, decimals: invoiceToken.decimals },
        expires_at: new Date(grant.expiresAt * 1000).toISOString(),
      },
      200,
      { 'cache-control': 'no-store' },
    )
  })
  routes.all('/oauth/*', async (c) => {
    const url = new URL(c.req.url)
    const path = url.pathname.slice('/oauth'.length) || '/'
    const at = /^\/interaction\/([A-Za-z0-9_-]+)(?:\/(confirm|deny))?\/?$/.exec(path)
    try {
      if (at) return await interaction(c.env.incoming, c.env.outgoing, at[1]!, at[2])
      if (path === '/signed-in') return await identityCallback(c.env.incoming, url, c.env.outgoing)
    } catch (error) {
      if (c.env.outgoing.headersSent) return RESPONSE_ALREADY_SENT
      // most often the sign-in's cookie is gone (the provider's SessionNotFound): expired, to the
      // person; anything else cannot go on either. The error's name alone is the detail: its message
      // may say more of this server than a person needs
      const name = error instanceof Error ? error.name : 'error'
      return stopped(c.env.outgoing, 400, name === 'SessionNotFound' ? 'expired' : 'refused', languageOfRequest(c.env.incoming), name)
    }
    return toProvider(c.env.incoming, c.env.outgoing, `${path}${url.search}`)
  })

  async function verifyAccessToken(token: string, audience: 'mcp' | 'api'): Promise<OAuthGrantPrincipal | null> {
    if (!token.startsWith(oauthAccessTokenPrefix)) return null
    const { provider } = await build()
    const found = await provider.AccessToken.find(token)
    // expiry by the server's clock: the adapter finds no row past its expires_at (stored and compared
    // with `now`), and the library checks its own exp against the system clock besides
    if (!found || !found.exp) return null
    if (found.aud !== resourceOf(audience) || !found.grantId || !found.accountId) return null
    const grant = await provider.Grant.find(found.grantId)
    if (!grant || grant.accountId !== found.accountId) return null
    const studioId = (found.extra as { studio_id?: unknown } | undefined)?.studio_id
    const user = await users.findUser(identity.issuer, found.accountId)
    if (typeof studioId !== 'string' || !user || user.studioId !== studioId) return null
    const client = found.clientId ? await provider.Client.find(found.clientId) : undefined
    if (!client || !found.clientId) return null
    const choices = (await grantStudios.find(found.grantId)) as Partial<GrantChoices> | undefined
    return {
      userId: user.id,
      email: user.email,
      studioId,
      clientId: found.clientId,
      clientName: String(client.clientName ?? found.clientId),
      grantId: found.grantId,
      scopes: (found.scope ?? '').split(' ').filter(Boolean),
      audience: resourceOf(audience),
      limits: choices?.limits ?? null,
      chainId: choices?.chainId ?? null,
      expiresAt: found.exp,
    }
  }

  /**
   * Whether the grant may issue this invoice under its consent-time limits, deciding and taking its
   * place in one transaction under a lock on the grant: counted at the end instead, two issues sent at
   * once with different keys both passed a day's last place. A replay of a key the grant already used
   * always may (the answer is the first invoice's) and takes no second place.
   */
  async function reserveIssue(grant: OAuthGrantPrincipal, amount: bigint, idempotencyKey: string): Promise<IssueReservation> {
    const limits = grant.limits
    if (!limits) return { refusal: 'no limits were set for invoice writes at consent: reconnect and set them' }
    const entry = oauthPayloadIdHash(`${grant.grantId}:${idempotencyKey}`)
    const at = new Date(now())
    const decided = await db.transaction(async (tx) => {
      await lockForTransaction(tx, 'oauthGrantIssues', grant.grantId)
      // a key used on any day: its invoice is answered again (idempotency records are kept for good), so
      // its retry is never refused nor counted, however long after; only the day's count below expires
      const [used] = await tx.query(`SELECT 1 FROM oauth_payloads WHERE model = 'GrantIssue' AND id_hash = $1`, [entry])
      if (used) return { refusal: null, taken: false } as const
      if (amount > BigInt(limits.maxInvoice)) return { refusal: 'amount', taken: false } as const
      const [row] = await tx.query<{ issued: number }>(
        `SELECT count(*)::int AS issued FROM oauth_payloads WHERE model = 'GrantIssue' AND grant_id = $1 AND expires_at > $2`,
        [grant.grantId, at],
      )
      if ((row?.issued ?? 0) >= limits.perDay) return { refusal: 'day', taken: false } as const
      await tx.query(
        `INSERT INTO oauth_payloads (model, id_hash, payload, grant_id, uid, expires_at) VALUES ('GrantIssue', $1, $2, $3, NULL, $4)`,
        [entry, JSON.stringify({ grantId: grant.grantId }), grant.grantId, new Date(at.getTime() + 24 * 3600 * 1000)],
      )
      return { refusal: null, taken: true } as const
    })
    if (decided.refusal === 'amount') {
      const token = await dependencies.invoiceToken()
      return { refusal: `the amount, ${limitAmountText(amount, token)}, is above the largest invoice approved at consent, ${limitAmountText(limits.maxInvoice, token)}: issue a smaller invoice, or reconnect with a higher limit` }
    }
    if (decided.refusal === 'day') return { refusal: `the ${limits.perDay} invoices a day approved at consent are used: wait, or reconnect with a higher limit` }
    return {
      refusal: null,
      release: async () => {
        if (decided.taken) await db.query(`DELETE FROM oauth_payloads WHERE model = 'GrantIssue' AND id_hash = $1`, [entry])
      },
    }
  }

  /** The studio's live grants: which client, for which door, with what scopes and limits, since when. */
  async function listConnections(studioId: string): Promise<OAuthConnection[]> {
    const { provider } = await build()
    const rows = await db.query<{ grant_id: string }>(
      `SELECT grant_id FROM oauth_payloads WHERE model = 'GrantStudio' AND payload->>'studioId' = $1 AND (expires_at IS NULL OR expires_at > $2)`,
      [studioId, new Date(now())],
    )
    const connections: OAuthConnection[] = []
    for (const { grant_id: grantId } of rows) {
      const grant = await provider.Grant.find(grantId)
      if (!grant?.clientId) continue
      const client = await provider.Client.find(grant.clientId)
      const limits = ((await grantStudios.find(grantId)) as { limits?: InvoiceLimits } | undefined)?.limits ?? null
      for (const [resource, scope] of Object.entries(grant.resources ?? {})) {
        connections.push({ id: grantId, clientName: String(client?.clientName ?? grant.clientId), door: resource === resourceOf('mcp') ? 'mcp' : 'cli', scopes: String(scope).split(' ').filter(Boolean), limits, createdAt: new Date((grant.iat ?? 0) * 1000) })
      }
    }
    // oldest first, as the owner connected them (grant ids are random: their order is none); two made in
    // the same second keep the order the database read them in
    return connections.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
  }

  /** Ends a grant of the studio at once: its access and refresh tokens stop working on their next use. */
  async function revokeConnection(studioId: string, grantId: string): Promise<boolean> {
    const bound = (await grantStudios.find(grantId)) as { studioId?: string } | undefined
    if (bound?.studioId !== studioId) return false
    await grantStudios.revokeByGrantId(grantId)
    return true
  }

  return { routes, resourceOf, issuer: () => `${base()}/oauth`, verifyAccessToken, reserveIssue, listConnections, revokeConnection }
}
