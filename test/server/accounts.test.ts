import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { randomUUID } from 'node:crypto'
import { UnsecuredJWT, decodeJwt } from 'jose'
import { zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createIdentityVerifier } from '../../server/auth/jwtVerifier'
import { startIdentityProvider, type RunningIdentityProvider } from '../../server/identity/identityProvider'
import { seedMerchantAccess } from '../../devnet/seedMerchantAccess'
import { demoMerchantUser, devnetApiAudience, devnetIdentityClient, seedMerchantLogin } from '../../devnet/seedMerchantLogin'
import { signInWithPassword } from '../../devnet/passwordSignIn'
import { answerOf, signedRequest } from '../support/signedRequest'
import { useServer } from '../support/server'
import { workerSigningKey } from '../support/identityKey'

const redirectUri = 'http://127.0.0.1:9/signed-in'
const client = devnetIdentityClient([redirectUri])
const newcomer = { subject: 'newcomer', email: 'newcomer@devnet.svc-checkout.test', password: 'newcomer-password' }
/** The owner of another studio of the same deployment. */
const otherOwner = { subject: 'other-owner', email: 'owner@elsewhere.test', password: 'other-owner-password' }
const otherAudience = 'urn:svc-checkout:another-api'

let provider: RunningIdentityProvider
let stranger: RunningIdentityProvider

const ctx = useServer({
  beforeServer: async () => {
    provider = await startIdentityProvider({ port: 0, audience: devnetApiAudience, otherAudiences: [otherAudience], users: [demoMerchantUser, newcomer, otherOwner], clients: [client], signingKey: await workerSigningKey() })
    // another provider, with the same users and audience and a key of its own: its tokens must open nothing here
    stranger = await startIdentityProvider({ port: 0, audience: devnetApiAudience, users: [demoMerchantUser], clients: [client] })
    const discovery = (await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()) as { issuer: string; jwks_uri: string }
    return { JWT_ISSUER: discovery.issuer, JWT_JWKS_URL: discovery.jwks_uri, JWT_AUDIENCE: devnetApiAudience }
  },
})
afterAll(async () => {
  await provider?.close()
  await stranger?.close()
})

let studioId: string
let devnetKey: { keyId: string; secret: string }
let otherStudioId: string
let token: string

const signIn = (user: { email: string; password: string }, issuer = provider.issuer, resource = devnetApiAudience) =>
  signInWithPassword({ issuer, clientId: client.clientId, redirectUri, email: user.email, password: user.password, resource })

async function call(path: string, bearer: string | null, init: RequestInit = {}) {
  const headers: Record<string, string> = { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.headers as Record<string, string>) }
  return answerOf(await fetch(`${ctx.server.url}${path}`, { ...init, headers }))
}
const base = () => `/v1/studios/${studioId}/api-keys`
const readCustomers = (key: { keyId: string; secret: string }) => signedRequest(ctx.server.url, key, { method: 'GET', path: '/v1/customers' })
const put = (path: string, bearer: string, body: unknown) => call(path, bearer, { method: 'PUT', body: JSON.stringify(body) })
const post = (path: string, bearer: string, body?: unknown) => call(path, bearer, { method: 'POST', ...(body === undefined ? {} : { body: JSON.stringify(body) }) })

beforeAll(async () => {
  ;({ studioId, apiKey: devnetKey } = await seedMerchantAccess(ctx.server.stores, ctx.devnet))
  await seedMerchantLogin(ctx.server.stores, provider.issuer, studioId)
  otherStudioId = (await ctx.server.stores.studios.createStudio({ name: 'Someone else', vaultAddress: ctx.devnet.seed.payer.vault, chainId: ctx.devnet.deployment.chainId })).id
  await seedMerchantLogin(ctx.server.stores, provider.issuer, otherStudioId, otherOwner)
  token = (await signIn(demoMerchantUser)).accessToken
})

describe('POST /v1/auth/login', () => {
  test('the authorization code flow with PKCE gives a JWT access token for the API, signed RS256 by the provider', async () => {
    const claims = decodeJwt(token)
    expect(claims).toMatchObject({ iss: provider.issuer, aud: devnetApiAudience, sub: demoMerchantUser.subject, email: demoMerchantUser.email, client_id: client.clientId })
    await expect(signIn({ email: demoMerchantUser.email, password: 'wrong' })).rejects.toThrow(/answered 401/)
  })

  test('POST /v1/auth/login answers the demo merchant with its studio; GET /v1/auth/me the same user', async () => {
    const login = await post('/v1/auth/login', token)
    expect(login.status).toBe(200)
    expect(login.body).toMatchObject({ success: true, user: { email: demoMerchantUser.email, studioId, isNewUser: false } })
    const me = await call('/v1/auth/me', token)
    expect(me.body).toEqual({ success: true, user: { ...login.body.user, isNewUser: undefined, lastLoginAt: expect.any(String) } })
  })

})

describe('GET /v1/auth/me', () => {
  test('a first sign-in creates the user without a studio; the owner routes then refuse it', async () => {
    const first = (await signIn(newcomer)).accessToken
    expect((await call('/v1/auth/me', first)).status).toBe(401)
    expect((await post('/v1/auth/login', first)).body.user).toMatchObject({ email: newcomer.email, studioId: null, isNewUser: true })
    expect((await post('/v1/auth/login', first)).body.user.isNewUser).toBe(false)
    const profile = await call(`/v1/studios/${studioId}/profile`, first)
    expect({ status: profile.status, code: profile.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' })
  })

  test('tokens of another issuer, another audience, an unsigned one and an expired one are 401; no token is 401', async () => {
    const refused = {
      'another issuer': (await signIn(demoMerchantUser, stranger.issuer)).accessToken,
      'another audience': (await signIn(demoMerchantUser, provider.issuer, otherAudience)).accessToken,
      'alg none': new UnsecuredJWT({ sub: demoMerchantUser.subject }).setIssuer(provider.issuer).setAudience(devnetApiAudience).setExpirationTime('1h').encode(),
    }
    for (const [name, bad] of Object.entries(refused)) {
      for (const path of ['/v1/auth/me', `/v1/studios/${studioId}/api-keys`]) {
        const answer = await call(path, bad)
        expect({ name, path, status: answer.status, code: answer.body.code }).toEqual({ name, path, status: 401, code: 'UNAUTHORIZED' })
      }
    }
    expect((await call('/v1/auth/me', null)).status).toBe(401)
    // the provider's own token, read two hours on: expired
    const { JWT_JWKS_URL: jwksUrl, JWT_ISSUER: issuer, JWT_AUDIENCE: audience } = ctx.config
    const later = createIdentityVerifier({ jwksUrl: jwksUrl!, issuer: issuer!, audience: audience!, studioClaim: 'studio_id' }, () => Date.now() + 7_200_000)
    await expect(later(token)).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' })
    // the provider signs RS256: a deployment that allows only ES256 (JWT_ALGORITHMS) refuses its tokens
    const es256Only = createIdentityVerifier({ jwksUrl: jwksUrl!, issuer: issuer!, audience: audience!, studioClaim: 'studio_id', algorithms: ['ES256'] })
    await expect(es256Only(token)).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' })
    await expect(createIdentityVerifier({ jwksUrl: jwksUrl!, issuer: issuer!, audience: audience!, studioClaim: 'studio_id' })(token)).resolves.toMatchObject({ subject: demoMerchantUser.subject, studioId: null })
  })
})

describe('PUT /v1/studios/:id/profile', () => {
  const person = { type: 'person', legalName: 'Ada Lovelace', email: 'ada@example.com', address: { street: '1 Analytical Row', city: 'London', postal: 'N1 1AA', country: 'gb' }, taxId: 'UTR 12345' }

  test('GET answers the seeded complete profile; PUT replaces all of it and answers profileComplete', async () => {
    const before = await call(`/v1/studios/${studioId}/profile`, token)
    expect(before.body).toMatchObject({ success: true, profileComplete: true, profile: { type: 'entity' } })
    const replaced = await put(`/v1/studios/${studioId}/profile`, token, person)
    expect(replaced.status).toBe(200)
    expect(replaced.body.studio).toMatchObject({ id: studioId, displayName: 'Ada Lovelace', profileComplete: true, profile: { type: 'person', registrationNumber: null, vatNumber: null, taxId: 'UTR 12345', address: { country: 'GB' } } })
    expect((await call('/v1/studios/me/profile', token)).body.profile).toEqual(replaced.body.studio.profile)
    // back as it was, through the same route
    const { updatedAt: _, ...seeded } = before.body.profile
    expect((await put(`/v1/studios/${studioId}/profile`, token, { ...seeded, tradeName: undefined, taxId: undefined })).body.studio.profileComplete).toBe(true)
  })

  test('PUT refuses what 2.2 refuses, at the field', async () => {
    const cases: [string, unknown, string][] = [
      ['an entity without its registration number', { ...person, type: 'entity', taxId: undefined }, 'body.registrationNumber'],
      ['a person with a trade name', { ...person, tradeName: 'Ada & Co' }, 'body.tradeName'],
      ['an invalid email', { ...person, email: 'ada' }, 'body.email'],
      ['an unknown country', { ...person, address: { ...person.address, country: 'EU' } }, 'body.address.country'],
      ['a missing address', { ...person, address: undefined }, 'body.address'],
    ]
    for (const [name, body, path] of cases) {
      const answer = await put(`/v1/studios/${studioId}/profile`, token, body)
      expect({ name, status: answer.status, code: answer.body.error, paths: answer.body.details.map((issue: { path: string }) => issue.path) }).toEqual({ name, status: 400, code: 'VALIDATION_ERROR', paths: expect.arrayContaining([path]) })
    }
  })

})

describe('PUT /v1/studios/:id/withdrawal-address', () => {
  test('the withdrawal address: none at first, then a valid one; zero, the studio\'s own vault and a malformed one refused', async () => {
    const path = `/v1/studios/${studioId}/withdrawal-address`
    expect((await call(path, token)).body).toEqual({ success: true, address: null, updatedAt: null })
    for (const address of [zeroAddress, ctx.devnet.seed.merchant.vault, ctx.devnet.seed.merchant.vault.toLowerCase(), '0x1234', 'not an address']) {
      const answer = await put(path, token, { address })
      expect({ address, status: answer.status, code: answer.body.error }).toEqual({ address, status: 400, code: 'VALIDATION_ERROR' })
    }
    const set = await put(path, token, { address: ctx.devnet.seed.merchant.owner })
    expect(set.body).toEqual({ success: true, address: ctx.devnet.seed.merchant.owner, updatedAt: expect.any(String) })
    expect((await call(path, token)).body).toEqual(set.body)
  })

})

describe('GET /v1/studios/:id/profile', () => {
  test("the owner reads its studio's profile by id or as me; no credential is 401", async () => {
    const byId = await call(`/v1/studios/${studioId}/profile`, token)
    expect(byId.body).toMatchObject({ success: true, profileComplete: true })
    expect((await call('/v1/studios/me/profile', token)).body).toEqual(byId.body)
    expect((await call(`/v1/studios/${studioId}/profile`, null)).status).toBe(401)
    expect((await call('/v1/studios/not-a-studio/profile', token)).status).toBe(400)
  })
})

describe('GET /v1/studios/:id/withdrawal-address', () => {
  test("another studio's routes are 403 for this owner; an API key, even the studio's, is 403", async () => {
    for (const path of [`/v1/studios/${otherStudioId}/profile`, `/v1/studios/${otherStudioId}/withdrawal-address`, `/v1/studios/${otherStudioId}/api-keys`]) {
      const answer = await call(path, token)
      expect({ path, status: answer.status, code: answer.body.code }).toEqual({ path, status: 403, code: 'FORBIDDEN' })
    }
    for (const path of [`/v1/studios/${studioId}/profile`, `/v1/studios/${studioId}/api-keys`, '/v1/auth/me']) {
      const answer = await signedRequest(ctx.server.url, devnetKey, { method: 'GET', path })
      expect({ path, status: answer.status, code: answer.body.code }).toEqual({ path, status: 403, code: 'FORBIDDEN' })
    }
  })
})

describe('POST /v1/studios/:studioId/api-keys', () => {
  test('create shows the secret once and it signs requests; the list never shows it', async () => {
    const created = await post(base(), token, { name: 'backend', scopes: ['customer:read'], expires_in_days: 30 })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ key_id: expect.stringMatching(/^svc_pk_/), secret: expect.stringMatching(/^svc_sk_/), name: 'backend', scopes: ['customer:read'], status: 'active', write_status: 'active', activation_required: false })
    expect(Date.parse(created.body.expires_at) - Date.now()).toBeGreaterThan(29.9 * 86_400_000)
    expect(created.body.secret_hint).toBe(`…${created.body.secret.slice(-4)}`)
    expect((await readCustomers({ keyId: created.body.key_id, secret: created.body.secret })).status).toBe(200)
    const listed = await call(base(), token)
    expect(listed.body.keys.find((key: { key_id: string }) => key.key_id === created.body.key_id)).toMatchObject({ name: 'backend', secret_hint: created.body.secret_hint })
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret)
    expect(JSON.stringify(listed.body)).not.toContain('svc_sk_')
  })

  test('refuses an empty or unknown scope list and expires_in_days outside 1..365', async () => {
    for (const body of [{ name: 'x', scopes: [] }, { name: 'x', scopes: ['admin'] }, { name: '', scopes: ['read'] }, { name: 'x', scopes: ['read'], expires_in_days: 0 }, { name: 'x', scopes: ['read'], expires_in_days: 366 }, { name: 'x', scopes: ['read'], expires_in_days: 1.5 }]) {
      const answer = await post(base(), token, body)
      expect({ body, status: answer.status, code: answer.body.error }).toEqual({ body, status: 400, code: 'VALIDATION_ERROR' })
    }
  })

})

describe('POST /v1/studios/:studioId/api-keys/:keyId/rotate', () => {
  test('rotation: the old secret is refused at once, the new one works, the key id stays; revocation: refused at once', async () => {
    const created = (await post(base(), token, { name: 'to rotate', scopes: ['read'] })).body
    const old = { keyId: created.key_id, secret: created.secret }
    expect((await readCustomers(old)).status).toBe(200)
    const rotated = await post(`${base()}/${created.key_id}/rotate`, token)
    expect(rotated.body).toEqual({ key_id: created.key_id, secret: expect.stringMatching(/^svc_sk_/), secret_hint: `…${rotated.body.secret.slice(-4)}` })
    expect((await readCustomers(old)).status).toBe(401)
    const renewed = { keyId: created.key_id, secret: rotated.body.secret }
    expect((await readCustomers(renewed)).status).toBe(200)
    expect((await call(`${base()}/${created.key_id}`, token, { method: 'DELETE' })).body).toEqual({ key_id: created.key_id, status: 'revoked' })
    expect((await readCustomers(renewed)).status).toBe(401)
    expect((await call(`${base()}?status=revoked`, token)).body.keys.map((key: { key_id: string }) => key.key_id)).toContain(created.key_id)
    expect((await call(`${base()}?status=active`, token)).body.keys.map((key: { key_id: string }) => key.key_id)).not.toContain(created.key_id)
    // a revoked key is neither rotated nor revoked again
    expect((await post(`${base()}/${created.key_id}/rotate`, token)).status).toBe(404)
    expect((await call(`${base()}/${created.key_id}`, token, { method: 'DELETE' })).status).toBe(404)
    const log = await call(`${base()}/audit-log?limit=100`, token)
    // uses are sampled: whichever of the two requests above were drawn sit between, never more
    const events = log.body.events.filter((event: { key_id: string }) => event.key_id === created.key_id).map((event: { event: string }) => event.event)
    expect(events.filter((event: string) => event !== 'used')).toEqual(['revoked', 'rotated', 'created'])
    expect(events.filter((event: string) => event === 'used').length).toBeLessThanOrEqual(2)
    expect(log.body.sampling).toMatch(/about one authenticated request in ten/)
  })

})

describe('DELETE /v1/studios/:studioId/api-keys/:keyId', () => {
  test('another studio\'s key cannot be rotated or revoked by this owner', async () => {
    const foreign = await ctx.server.stores.apiKeys.createApiKey({ studioId: otherStudioId, name: 'theirs', scopes: ['read'] })
    expect((await post(`${base()}/${foreign.keyId}/rotate`, token)).status).toBe(404)
    expect((await call(`${base()}/${foreign.keyId}`, token, { method: 'DELETE' })).status).toBe(404)
    expect((await readCustomers(foreign)).status).toBe(200)
  })

})

describe('GET /v1/studios/:studioId/api-keys', () => {
  test('x-svc-key beside the owner\'s JWT is refused with 400 MIXED_AUTH on every key route and on sign-in, and nothing is done', async () => {
    const before = (await call(base(), token)).body.keys
    const mixed = { 'x-svc-key': devnetKey.keyId }
    const attempts: [string, RequestInit][] = [
      [base(), { method: 'POST', body: JSON.stringify({ name: 'mixed', scopes: ['read'] }), headers: mixed }],
      [base(), { headers: mixed }],
      [`${base()}/audit-log`, { headers: mixed }],
      [`${base()}/${devnetKey.keyId}/rotate`, { method: 'POST', headers: mixed }],
      [`${base()}/${devnetKey.keyId}`, { method: 'DELETE', headers: mixed }],
      ['/v1/auth/login', { method: 'POST', headers: mixed }],
      ['/v1/auth/me', { headers: mixed }],
    ]
    for (const [path, init] of attempts) {
      const answer = await call(path, token, init)
      expect({ path, method: init.method, status: answer.status, code: answer.body.code }).toEqual({ path, method: init.method, status: 400, code: 'MIXED_AUTH' })
    }
    expect((await call(base(), token)).body.keys).toEqual(before)
    // the devnet key still signs: it was neither rotated nor revoked
    expect((await readCustomers(devnetKey)).status).toBe(200)
  })

})

describe('GET /v1/studios/:studioId/api-keys/audit-log', () => {
  test('the audit log pages newest first with a cursor, 1..100 a page', async () => {
    for (let i = 0; i < 3; i++) await post(base(), token, { name: `paged ${i}`, scopes: ['read'] })
    const first = await call(`${base()}/audit-log?limit=2`, token)
    expect(first.body.events).toHaveLength(2)
    const second = await call(`${base()}/audit-log?limit=2&cursor=${first.body.next_cursor}`, token)
    expect(second.body.events[0].created_at <= first.body.events[1].created_at).toBe(true)
    expect(second.body.events.map((event: { id: string }) => event.id)).not.toContain(first.body.events[1].id)
    for (const query of ['limit=0', 'limit=101', `cursor=${randomUUID()}`]) expect((await call(`${base()}/audit-log?${query}`, token)).status).toBe(400)
  })
})

describe('the account routes under SPEC 5.6 (JWT with owner checks; API keys unsupported)', () => {
  test("the server-signed writes take an API key, never the owner's token: issue and cancel/submit answer 403 and nothing is signed, while a key with invoice:write reaches them", async () => {
    const before = await ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoiceCount' })
    const dueAt = ((await ctx.devnet.clients.public.getBlock()).timestamp + 86_400n).toString()
    const issued = await call('/v1/invoices/issue', token, { method: 'POST', body: JSON.stringify({ customerId: crypto.randomUUID(), amount: '1000000', dueAt }), headers: { 'idempotency-key': crypto.randomUUID() } })
    expect(issued.status).toBe(403)
    expect(issued.body.code).toBe('FORBIDDEN')
    expect(issued.body.message).toMatch(/POST \/v1\/invoices\/prepare/)
    const canceled = await call(`/v1/invoices/${ctx.devnet.seed.invoices[0]!.id}/cancel/submit`, token, { method: 'POST', body: '{}' })
    expect(canceled.status).toBe(403)
    expect(await ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoiceCount' })).toBe(before)
    // the same request with an API key gets past authentication (an unknown customer is the key's answer)
    const writer = await ctx.server.stores.apiKeys.createApiKey({ studioId, name: 'backend', scopes: ['invoice:write'] })
    const byKey = await signedRequest(ctx.server.url, writer, { method: 'POST', path: '/v1/invoices/issue', body: JSON.stringify({ customerId: crypto.randomUUID(), amount: '1000000', dueAt }), send: { headers: { 'idempotency-key': crypto.randomUUID() } } })
    expect(byKey.status).toBe(404)
  })

  test('route by route: no credential 401, an API key with every scope 403, the owner of another studio 403, the owner 2xx', async () => {
    const otherToken = (await signIn(otherOwner)).accessToken
    const allScopes = await ctx.server.stores.apiKeys.createApiKey({ studioId, name: 'every scope', scopes: ['invoice:read', 'invoice:write', 'customer:read', 'customer:write', 'dashboard:read', 'read', 'write', 'sponsor'] })
    const victim = await ctx.server.stores.apiKeys.createApiKey({ studioId, name: 'matrix target', scopes: ['read'] })
    const profile = (await call(`/v1/studios/${studioId}/profile`, token)).body.profile
    const { updatedAt: _, ...profileBody } = profile
    const routes: { method: string; path: string; body?: unknown; owner: number; ownStudioOnly: boolean }[] = [
      { method: 'GET', path: `/v1/studios/${studioId}/profile`, owner: 200, ownStudioOnly: true },
      { method: 'PUT', path: `/v1/studios/${studioId}/profile`, body: profileBody, owner: 200, ownStudioOnly: true },
      { method: 'GET', path: `/v1/studios/${studioId}/withdrawal-address`, owner: 200, ownStudioOnly: true },
      { method: 'PUT', path: `/v1/studios/${studioId}/withdrawal-address`, body: { address: ctx.devnet.seed.merchant.owner }, owner: 200, ownStudioOnly: true },
      { method: 'POST', path: `/v1/studios/${studioId}/api-keys`, body: { name: 'matrix', scopes: ['read'] }, owner: 201, ownStudioOnly: true },
      { method: 'GET', path: `/v1/studios/${studioId}/api-keys`, owner: 200, ownStudioOnly: true },
      { method: 'GET', path: `/v1/studios/${studioId}/api-keys/audit-log`, owner: 200, ownStudioOnly: true },
      { method: 'POST', path: `/v1/studios/${studioId}/api-keys/${victim.keyId}/rotate`, owner: 200, ownStudioOnly: true },
      { method: 'DELETE', path: `/v1/studios/${studioId}/api-keys/${victim.keyId}`, owner: 200, ownStudioOnly: true },
      { method: 'POST', path: '/v1/auth/login', owner: 200, ownStudioOnly: false },
      { method: 'GET', path: '/v1/auth/me', owner: 200, ownStudioOnly: false },
    ]
    const seen: Record<string, number[]> = {}
    for (const route of routes) {
      const body = route.body === undefined ? undefined : JSON.stringify(route.body)
      const init = { method: route.method, ...(body ? { body } : {}) }
      const none = await call(route.path, null, init)
      const key = await signedRequest(ctx.server.url, allScopes, { method: route.method, path: route.path, ...(body ? { body } : {}) })
      const other = await call(route.path, otherToken, init)
      const owner = await call(route.path, token, init)
      seen[`${route.method} ${route.path.replace(studioId, ':studioId')}`] = [none.status, key.status, other.status, owner.status]
      expect(none.body.code).toBe('UNAUTHORIZED')
      expect(key.body.code).toBe('FORBIDDEN')
      if (route.ownStudioOnly) expect(other.body.code).toBe('FORBIDDEN')
    }
    const expected = Object.fromEntries(routes.map((route) => [`${route.method} ${route.path.replace(studioId, ':studioId')}`, [401, 403, route.ownStudioOnly ? 403 : 200, route.owner]]))
    expect(seen).toEqual(expected)
  })
})
