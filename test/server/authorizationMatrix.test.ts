import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startIdentityProvider, type RunningIdentityProvider } from '../../server/identity/identityProvider'
import { apiRoutes } from '../../server/routes/apiRoutes'
import { seedMerchantAccess } from '../../devnet/seedMerchantAccess'
import { demoMerchantUser, devnetApiAudience, devnetIdentityClient, seedMerchantLogin } from '../../devnet/seedMerchantLogin'
import { signInWithPassword } from '../../devnet/passwordSignIn'
import { cliOAuthToken } from '../support/cliOAuthToken'
import { freePort } from '../support/loopback'
import { answerOf, signedRequest, type Answer } from '../support/signedRequest'
import { useServer } from '../support/server'
import { workerSigningKey } from '../support/identityKey'

/**
 * SPEC 5.6, written here once and on its own: the test does not read the routes' declarations to
 * know what they should accept, so a route that declares the wrong auth or scope fails it. Every
 * route of the API must match exactly one row, so a new route without one fails too.
 */
type Credential = 'hmac' | 'jwt' | 'oauth'
type Row = {
  /** The SPEC's words for the row, for the failure messages. */
  spec: string
  routes: readonly string[]
  accepts: readonly Credential[]
  /** The granular scope an API key or an OAuth grant needs (SPEC 5.5); none: no granular guard. */
  scope?: SpecScope
  /** "JWT with owner checks": the studio named in the path must be the signed-in user's. */
  ownerOfPathStudio?: true
}
type SpecScope = 'invoice:read' | 'invoice:write' | 'customer:read' | 'customer:write' | 'dashboard:read'

const specMatrix: readonly Row[] = [
  { spec: 'GET /invoices, /invoices/:id, /invoices/lookup, /invoices/:id/share', accepts: ['hmac', 'jwt', 'oauth'], scope: 'invoice:read', routes: ['GET /v1/invoices', 'GET /v1/invoices/:id', 'GET /v1/invoices/lookup', 'GET /v1/invoices/:id/share'] },
  { spec: 'GET /invoices/:id/pdf', accepts: ['hmac', 'jwt'], routes: ['GET /v1/invoices/:id/pdf'] },
  { spec: 'POST /invoices/issue, POST /invoices/:id/cancel/submit', accepts: ['hmac', 'oauth'], scope: 'invoice:write', routes: ['POST /v1/invoices/issue', 'POST /v1/invoices/:id/cancel/submit'] },
  { spec: 'POST /invoices/:id/send-email', accepts: ['hmac', 'jwt', 'oauth'], scope: 'invoice:write', routes: ['POST /v1/invoices/:id/send-email'] },
  { spec: 'POST /invoices/prepare, POST /invoices, POST /invoices/:id/cancel/prepare, POST /invoices/:id/cancel', accepts: ['hmac', 'jwt'], routes: ['POST /v1/invoices/prepare', 'POST /v1/invoices', 'POST /v1/invoices/:id/cancel/prepare', 'POST /v1/invoices/:id/cancel'] },
  { spec: 'invoice share/token reads and mutations', accepts: ['hmac', 'jwt'], routes: ['POST /v1/invoices/:id/share/regenerate', 'GET /v1/invoices/:id/tokens', 'POST /v1/invoices/:id/tokens', 'DELETE /v1/invoices/:id/tokens/:tokenId'] },
  { spec: 'GET /customers, /customers/:id', accepts: ['hmac', 'jwt', 'oauth'], scope: 'customer:read', routes: ['GET /v1/customers', 'GET /v1/customers/:id'] },
  { spec: 'POST, PATCH, DELETE on /customers', accepts: ['hmac', 'jwt', 'oauth'], scope: 'customer:write', routes: ['POST /v1/customers', 'PATCH /v1/customers/:id', 'DELETE /v1/customers/:id'] },
  { spec: 'GET /studios/me, /studios/me/balance, /studios/me/invoices/stats', accepts: ['hmac', 'jwt', 'oauth'], scope: 'dashboard:read', routes: ['GET /v1/studios/me', 'GET /v1/studios/me/balance', 'GET /v1/studios/me/invoices/stats'] },
  { spec: 'GET /payments, /payments/export, /withdrawals routes, GET /accounts/:address/metrics', accepts: ['hmac', 'jwt'], routes: ['GET /v1/payments', 'GET /v1/payments/export', 'POST /v1/withdrawals/prepare', 'POST /v1/withdrawals', 'GET /v1/withdrawals', 'GET /v1/accounts/:address/metrics'] },
  {
    spec: 'other studio routes, API keys, signer, agents, vault upgrade, /auth: JWT with owner checks; API keys unsupported',
    accepts: ['jwt'],
    ownerOfPathStudio: true,
    routes: [
      // 4.1 and 4.2
      'GET /v1/studios/:id',
      'GET /v1/studios/:id/balance',
      'GET /v1/studios/:id/invoices/stats',
      'GET /v1/studios/:id/transactions',
      'GET /v1/studios/:id/quotas',
      'GET /v1/studios/:id/profile',
      'PUT /v1/studios/:id/profile',
      'GET /v1/studios/:id/withdrawal-address',
      'PUT /v1/studios/:id/withdrawal-address',
      // 4.3's upgrade
      'POST /v1/studios/:studioId/upgrade-7579',
      'POST /v1/studios/:studioId/upgrade-7579/submit',
      // 4.4
      'POST /v1/studios/:studioId/api-keys',
      'GET /v1/studios/:studioId/api-keys',
      'GET /v1/studios/:studioId/api-keys/audit-log',
      'DELETE /v1/studios/:studioId/api-keys/:keyId',
      'POST /v1/studios/:studioId/api-keys/:keyId/rotate',
      'POST /v1/studios/:studioId/api-keys/activate-signer',
      // 4.5
      'GET /v1/studios/:studioId/signer/status',
      'POST /v1/studios/:studioId/signer/revoke',
      'POST /v1/studios/:studioId/signer/confirm-revocation',
      'POST /v1/studios/:studioId/signer/force-revoke',
      // 4.6
      'POST /v1/studios/:studioId/agents',
      'GET /v1/studios/:studioId/agents',
      'GET /v1/studios/:studioId/agents/:agentId',
      'PATCH /v1/studios/:studioId/agents/:agentId',
      'DELETE /v1/studios/:studioId/agents/:agentId',
      'POST /v1/studios/:studioId/agents/:agentId/keys',
      'GET /v1/studios/:studioId/agents/:agentId/keys',
      'POST /v1/studios/:studioId/agents/:agentId/keys/:keyId',
      'DELETE /v1/studios/:studioId/agents/:agentId/keys/:keyId',
      // the OAuth grants the owner approved (SPEC 5.3, 5.4): studio routes like the keys
      'GET /v1/studios/:studioId/oauth-connections',
      'DELETE /v1/studios/:studioId/oauth-connections/:connectionId',
    ],
  },
  {
    spec: '/auth and vault provisioning (4.1, 4.3): JWT; a signed-in user without a studio may call them, so no studio is named',
    accepts: ['jwt'],
    routes: ['POST /v1/auth/login', 'GET /v1/auth/me', 'POST /v1/studios/prepare', 'POST /v1/studios/submit', 'POST /v1/studios'],
  },
  {
    spec: '/pay routes, GET /protocol/stats, POST /leads: no user/API-key auth',
    accepts: [],
    routes: ['GET /v1/pay/:id', 'GET /v1/pay/:id/metadata', 'GET /v1/pay/:id/pdf', 'POST /v1/pay/:id/permit', 'POST /v1/pay/:id/prepare', 'POST /v1/pay/:id', 'GET /v1/protocol/stats', 'POST /v1/leads'],
  },
]

/**
 * Routes the SPEC does not name, with the row this project gives them. Each says why; none is
 * looser than the SPEC row nearest to it.
 */
const projectRows: readonly Row[] = [
  { spec: "the pay page's branding and logos, and our ERC-7677 paymaster: public like /pay", accepts: [], routes: ['GET /v1/pay/:id/branding', 'GET /v1/branding/logos/:file', 'POST /v1/paymaster'] },
  { spec: 'refunds: signed by the owner\'s wallet like withdrawals, so HMAC or JWT', accepts: ['hmac', 'jwt'], routes: ['POST /v1/invoices/:id/refund/prepare', 'POST /v1/invoices/:id/refund'] },
  { spec: "a studio's webhook endpoints: its backend's, read with invoice:read, changed with invoice:write", accepts: ['hmac', 'jwt'], scope: 'invoice:write', routes: ['POST /v1/webhook-endpoints', 'DELETE /v1/webhook-endpoints/:id', 'POST /v1/webhook-endpoints/:id/rotate-secret'] },
  { spec: "a studio's webhook endpoints, read", accepts: ['hmac', 'jwt'], scope: 'invoice:read', routes: ['GET /v1/webhook-endpoints'] },
  { spec: "a studio's branding on its invoices' pay page, read", accepts: ['hmac', 'jwt'], scope: 'invoice:read', routes: ['GET /v1/studios/me/branding'] },
  { spec: "a studio's branding, changed", accepts: ['hmac', 'jwt'], scope: 'invoice:write', routes: ['PUT /v1/studios/me/branding', 'DELETE /v1/studios/me/branding'] },
]

/**
 * Where the server does not do what SPEC 5.6 says yet, each with the case: the matrix expects the
 * server's present answer there, and fails once it matches the SPEC, so a fix cannot land without
 * its entry leaving this list.
 */
const knownDeviations: ReadonlySet<string> = new Set<string>([])

/** SPEC 5.5's relations, on their own here: what each granted scope satisfies besides itself. */
const satisfies: Record<string, readonly SpecScope[]> = {
  'invoice:read': ['invoice:read'],
  'invoice:write': ['invoice:write', 'invoice:read'],
  'customer:read': ['customer:read'],
  'customer:write': ['customer:write', 'customer:read'],
  'dashboard:read': ['dashboard:read'],
  read: ['invoice:read', 'customer:read', 'dashboard:read'],
  write: ['invoice:write', 'customer:write', 'invoice:read', 'customer:read', 'dashboard:read'],
  sponsor: [],
}
const keyScopes = Object.keys(satisfies)
/** The OAuth grants the consent page may approve (SPEC 5.3): all of them, and the reads only. */
const oauthGrants = { 'oauth (all five)': ['invoice:read', 'invoice:write', 'customer:read', 'customer:write', 'dashboard:read'], 'oauth (reads)': ['invoice:read', 'customer:read', 'dashboard:read'] } as const

const redirectUri = 'http://127.0.0.1:9/signed-in'
const client = devnetIdentityClient([redirectUri])
const otherOwner = { subject: 'matrix-other-owner', email: 'owner@matrix-elsewhere.test', password: 'matrix-other-password' }
let provider: RunningIdentityProvider

const ctx = useServer({
  beforeServer: async () => {
    // the server's own authorization server signs people in at the provider: its redirect is on this port
    const port = await freePort()
    provider = await startIdentityProvider({ port: 0, audience: devnetApiAudience, users: [demoMerchantUser, otherOwner], clients: [devnetIdentityClient([redirectUri, `http://127.0.0.1:${port}/oauth/signed-in`])], signingKey: await workerSigningKey() })
    const discovery = (await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()) as { issuer: string; jwks_uri: string }
    return { JWT_ISSUER: discovery.issuer, JWT_JWKS_URL: discovery.jwks_uri, JWT_AUDIENCE: devnetApiAudience, OAUTH_IDENTITY_CLIENT_ID: client.clientId, PORT: String(port) }
  },
})
afterAll(async () => {
  await provider?.close()
})

let studioId: string
const keys = new Map<string, { keyId: string; secret: string }>()
const bearers = new Map<string, string>()

const signIn = async (user: { email: string; password: string }) =>
  (await signInWithPassword({ issuer: provider.issuer, clientId: client.clientId, redirectUri, email: user.email, password: user.password, resource: devnetApiAudience })).accessToken

beforeAll(async () => {
  ;({ studioId } = await seedMerchantAccess(ctx.server.stores, ctx.devnet))
  await seedMerchantLogin(ctx.server.stores, provider.issuer, studioId)
  const otherStudioId = (await ctx.server.stores.studios.createStudio({ name: 'Matrix elsewhere', vaultAddress: ctx.devnet.seed.payer.vault, chainId: ctx.devnet.deployment.chainId })).id
  await seedMerchantLogin(ctx.server.stores, provider.issuer, otherStudioId, otherOwner)
  for (const scope of keyScopes) {
    const { keyId, secret } = await ctx.server.stores.apiKeys.createApiKey({ studioId, name: `matrix ${scope}`, scopes: [scope] })
    keys.set(scope, { keyId, secret })
  }
  bearers.set('jwt (owner)', await signIn(demoMerchantUser))
  bearers.set('jwt (another studio)', await signIn(otherOwner))
  for (const [name, approve] of Object.entries(oauthGrants)) bearers.set(name, await cliOAuthToken({ serverUrl: ctx.server.url, user: demoMerchantUser, approve }))
})

/** An id of the right shape that names nothing: every route is reached without touching anything real
 * (invoice 999999999 is nobody's, so no write reaches the shared chain). */
function concretePath(path: string): string {
  return path
    .replace(/^\/v1\/studios\/:(id|studioId)/, () => `/v1/studios/${studioId}`)
    .replace(':address', '0x000000000000000000000000000000000000dEaD')
    .replace(':keyId', 'svc_pk_matrixdoesnotexist')
    .replace(':file', 'nothing.png')
    .replace(/:(tokenId|agentId|connectionId)/g, () => randomUUID())
    .replace(/^\/v1\/(customers|webhook-endpoints)\/:id/, (_, collection: string) => `/v1/${collection}/${randomUUID()}`)
    .replace(':id', '999999999')
}

async function send(route: string, credential: string): Promise<Answer> {
  const [method, path] = route.split(' ') as [string, string]
  const target = concretePath(path)
  const body = method === 'GET' || method === 'DELETE' ? undefined : '{}'
  const key = keys.get(credential.replace(/^hmac /, ''))
  if (credential.startsWith('hmac ') && key) return signedRequest(ctx.server.url, key, { method, path: target, ...(body === undefined ? {} : { body }) })
  const bearer = bearers.get(credential)
  const headers: Record<string, string> = { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) }
  return answerOf(await fetch(`${ctx.server.url}${target}`, { method, headers, ...(body === undefined ? {} : { body }) }))
}

type Expected = 'accepted' | 'UNAUTHORIZED' | 'FORBIDDEN'

/** What SPEC 5.6 says `credential` gets on `row`. */
function expected(row: Row, credential: string): Expected {
  if (row.accepts.length === 0) return 'accepted'
  if (credential === 'none') return 'UNAUTHORIZED'
  if (credential.startsWith('hmac ')) {
    if (!row.accepts.includes('hmac')) return 'FORBIDDEN'
    return !row.scope || satisfies[credential.slice('hmac '.length)]!.includes(row.scope) ? 'accepted' : 'FORBIDDEN'
  }
  if (credential.startsWith('oauth')) {
    if (!row.accepts.includes('oauth')) return 'FORBIDDEN'
    const granted = oauthGrants[credential as keyof typeof oauthGrants] as readonly string[]
    return !row.scope || granted.some((scope) => satisfies[scope]!.includes(row.scope!)) ? 'accepted' : 'FORBIDDEN'
  }
  if (!row.accepts.includes('jwt')) return 'FORBIDDEN'
  return credential === 'jwt (another studio)' && row.ownerOfPathStudio ? 'FORBIDDEN' : 'accepted'
}

/** Accepted: authentication let it through, whatever the route then answers for a made-up id or an
 * empty body (400, 404, 409...), short of a 500. Refused: exactly the SPEC's status and code. */
function outcomeOf(answer: Answer): Expected | `other ${number} ${string}` {
  const code = answer.body?.code ?? answer.body?.error
  if (answer.status === 401 && code === 'UNAUTHORIZED') return 'UNAUTHORIZED'
  if (answer.status === 403 && code === 'FORBIDDEN') return 'FORBIDDEN'
  if (answer.status === 401 || answer.status === 500 || code === 'MIXED_AUTH') return `other ${answer.status} ${code}`
  return 'accepted'
}

const credentials = ['none', ...keyScopes.map((scope) => `hmac ${scope}`), 'jwt (owner)', 'jwt (another studio)', ...Object.keys(oauthGrants)]
const rows = [...specMatrix, ...projectRows]
const declared = apiRoutes.map((route) => `${route.method.toUpperCase()} ${route.path}`)

describe('SPEC 5.6, route by route', () => {
  test('every route of the API has exactly one row, and every row names a route the API has', () => {
    const rowsOf = (route: string) => rows.filter((row) => row.routes.includes(route)).map((row) => row.spec)
    expect(declared.filter((route) => rowsOf(route).length !== 1).map((route) => `${route}: ${rowsOf(route).length} rows`)).toEqual([])
    expect(rows.flatMap((row) => row.routes).filter((route) => !declared.includes(route))).toEqual([])
  })

  test('each credential is accepted or refused as its row says: HMAC with each scope, the owner\'s JWT, another studio\'s, OAuth, none', { timeout: 240_000 }, async () => {
    const mismatches: string[] = []
    const deviationsSeen = new Set<string>()
    for (const row of rows) {
      for (const route of row.routes) {
        for (const credential of credentials) {
          const want = expected(row, credential)
          const got = outcomeOf(await send(route, credential))
          const deviation = `${route} ${credential}`
          if (knownDeviations.has(deviation)) {
            deviationsSeen.add(deviation)
            // still as it was: the entry stays until the route does what the SPEC says
            if (got === want) mismatches.push(`${deviation}: now as SPEC 5.6 says (${want}): remove it from knownDeviations`)
          } else if (got !== want) mismatches.push(`${deviation}: ${got}, SPEC 5.6 (${row.spec}): ${want}`)
        }
      }
    }
    expect(mismatches).toEqual([])
    expect([...knownDeviations].filter((deviation) => !deviationsSeen.has(deviation))).toEqual([])
  })

  test("x-svc-key beside the owner's JWT is 400 MIXED_AUTH on the owner's routes (SPEC 5.1: key, signer and agent management reject the key header)", async () => {
    const ownerRoutes = rows.filter((row) => row.ownerOfPathStudio).flatMap((row) => row.routes)
    for (const route of ownerRoutes) {
      const [method, path] = route.split(' ') as [string, string]
      const body = method === 'GET' || method === 'DELETE' ? undefined : '{}'
      const answer = answerOf(
        await fetch(`${ctx.server.url}${concretePath(path)}`, {
          method,
          headers: { authorization: `Bearer ${bearers.get('jwt (owner)')}`, 'x-svc-key': keys.get('write')!.keyId, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body } : {}),
        }),
      )
      const { status, body: answered } = await answer
      expect({ route, status, code: answered.code }).toEqual({ route, status: 400, code: 'MIXED_AUTH' })
    }
  })
})
