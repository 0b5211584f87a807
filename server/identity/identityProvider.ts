import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, type JWK } from 'jose'
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider'
import { renderConsentForm, renderLoginForm, renderSignInError } from './interactionForms'
import { readFormBody } from '../http/readFormBody'
import { sameSecret } from '../auth/sameSecret'
import { writeHtmlPage as html } from '../http/writeHtmlPage'

/** A person who may sign in, with the password they type: devnet-only credentials. */
export type IdentityUser = { subject: string; email: string; password: string; name?: string }

/** A browser application that signs users in (a dashboard, a test): public, so PKCE is its proof. */
export type IdentityClient = { clientId: string; redirectUris: string[] }

export type StartIdentityProviderParameters = {
  /** 0 for any free port. Always on 127.0.0.1. */
  port: number
  /** The API's audience: access tokens for it are JWTs (resource indicators, RFC 8707). The default
   * resource when a client names none. */
  audience: string
  /** More resource servers the provider issues tokens for (another API, in a test: a token for it
   * must not open this one). */
  otherAudiences?: readonly string[]
  users: readonly IdentityUser[]
  clients: readonly IdentityClient[]
  /** Seconds an access token lives (default 1 hour). */
  accessTokenTtl?: number
  /** The RSA private key (a JWK) it signs with, under a new key id at each start; by default a new
   * key each start, as the devnet's. Tests pass one made once per worker: generating an RSA key
   * cost a test file 0.1-0.5 s of CPU a provider. */
  signingKey?: JWK
}

export type RunningIdentityProvider = {
  issuer: string
  /** Where the provider publishes its signing keys (discovered at /.well-known/openid-configuration). */
  jwksUrl: string
  close(): Promise<void>
}

/** The scope the API's resource server grants; the dashboard asks for it with the OpenID ones. */
export const apiScope = 'api'

/** Compared as hashes in constant time: how long the comparison takes says nothing of the password. */
function passwordMatches(user: IdentityUser, typed: string): boolean {
  return sameSecret(user.password, typed)
}

/**
 * A real OpenID Connect provider (oidc-provider, certified) on loopback, for the devnet and the tests:
 * authorization code with S256 PKCE only, JWT access tokens for the API's audience, its keys at the
 * JWKS endpoint. The login and consent pages are this file's own (the library's dev pages accept any
 * name without a password); everything else, codes, tokens, sessions and keys, is the library's.
 * Its adapter keeps grants in memory: a restart signs everyone out, as a devnet may.
 */
export async function startIdentityProvider({ port, audience, otherAudiences = [], users, clients, accessTokenTtl = 3600, signingKey: givenKey }: StartIdentityProviderParameters): Promise<RunningIdentityProvider> {
  // loaded here, not at import: on Node 20 the library warns that it wants Node 22, and only a process
  // that runs the provider should print that
  const { default: Provider, errors } = await import('oidc-provider')
  // the provider needs its own URL before it exists: listen first, then hand the requests over
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_, res) => res.writeHead(503).end()
  const server = createServer((req, res) => handle(req, res))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const privateJwk = givenKey ?? (await exportJWK((await generateKeyPair('RS256', { extractable: true })).privateKey))
  const signingKey = { ...privateJwk, kid: `devnet-${randomBytes(6).toString('hex')}`, alg: 'RS256', use: 'sig' }
  const bySubject = new Map(users.map((user) => [user.subject, user]))

  const configuration: Configuration = {
    clients: clients.map((client) => ({
      client_id: client.clientId,
      redirect_uris: client.redirectUris,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile', apiScope],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    ttl: { AccessToken: accessTokenTtl, IdToken: 3600, AuthorizationCode: 60, Interaction: 600, Session: 86_400, Grant: 86_400 },
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        async getResourceServerInfo(_ctx, resourceIndicator) {
          if (resourceIndicator !== audience && !otherAudiences.includes(resourceIndicator)) throw new errors.InvalidTarget()
          return { scope: apiScope, audience: resourceIndicator, accessTokenTTL: accessTokenTtl, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } }
        },
      },
    },
    // the API keeps its users by issuer and subject; the email is for the account it creates or syncs
    async extraTokenClaims(_ctx, token) {
      const user = 'accountId' in token && typeof token.accountId === 'string' ? bySubject.get(token.accountId) : undefined
      return user ? { email: user.email } : {}
    },
    async findAccount(_ctx: KoaContextWithOIDC, id: string) {
      const user = bySubject.get(id)
      if (!user) return undefined
      return { accountId: id, claims: async () => ({ sub: id, email: user.email, email_verified: true, ...(user.name ? { name: user.name } : {}) }) }
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    renderError(ctx, out) {
      ctx.type = 'html'
      ctx.body = renderSignInError(String(out.error), String(out.error_description ?? ''))
    },
  }
  const provider = new Provider(issuer, configuration)
  const providerCallback = provider.callback()

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string, action: string | undefined) {
    const details = await provider.interactionDetails(req, res)
    if (details.uid !== uid) return html(res, 400, '<!doctype html><title>Sign-in expired</title><p>This sign-in is no longer current: start again.</p>')
    const { prompt, params } = details
    if (prompt.name === 'login') {
      if (req.method === 'POST' && action === 'login') {
        const form = await readFormBody(req)
        const email = (form.get('email') ?? '').trim().toLowerCase()
        const user = users.find((candidate) => candidate.email.toLowerCase() === email)
        // one answer for an unknown email and a wrong password: the form must not tell which emails exist
        if (!user || !passwordMatches(user, form.get('password') ?? '')) return html(res, 401, renderLoginForm(uid, email, 'That email and password do not match.'))
        return provider.interactionFinished(req, res, { login: { accountId: user.subject } }, { mergeWithLastSubmission: false })
      }
      return html(res, 200, renderLoginForm(uid, typeof params.login_hint === 'string' ? params.login_hint : ''))
    }
    if (prompt.name === 'consent') {
      if (req.method === 'POST' && action === 'confirm') {
        const accountId = details.session?.accountId
        if (!accountId) return html(res, 400, '<!doctype html><title>Sign-in expired</title><p>Sign in again.</p>')
        const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId: String(params.client_id) })
        if (!grant) return html(res, 400, '<!doctype html><title>Sign-in expired</title><p>Sign in again.</p>')
        const missing = prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> }
        if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '))
        if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims)
        for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '))
        const grantId = await grant.save()
        return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true })
      }
      return html(res, 200, renderConsentForm(uid, String(params.client_id), String(params.scope ?? '')))
    }
    return html(res, 400, '<!doctype html><title>Sign-in</title><p>Nothing to do here: start again.</p>')
  }

  handle = (req, res) => {
    const match = /^\/interaction\/([A-Za-z0-9_-]+)(?:\/(login|confirm))?\/?$/.exec(new URL(req.url ?? '/', issuer).pathname)
    if (!match) return void providerCallback(req, res)
    interaction(req, res, match[1]!, match[2]).catch((error: unknown) => {
      // an expired or unknown interaction (the library's SessionNotFound) is the person's to restart
      if (!res.headersSent) html(res, 400, `<!doctype html><title>Sign-in expired</title><p>This sign-in cannot go on (${error instanceof Error ? error.name : 'error'}): start again.</p>`)
      else res.end()
    })
  }

  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}
