import { randomUUID } from 'node:crypto'
import { createServer as createHttpServer, type Server } from 'node:http'
import { exportJWK, exportSPKI, generateKeyPair, importJWK, SignJWT, UnsecuredJWT, type CryptoKey, type JWTPayload } from 'jose'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { AuthUnavailableError } from '../../server/auth/authErrors'
import { createJwtVerifier } from '../../server/auth/jwtVerifier'
import { ConfigError } from '../../server/config'
import { seedMerchantAccess } from '../../devnet/seedMerchantAccess'
import { answerOf } from '../support/signedRequest'
import { useServer } from '../support/server'
import { signRequest } from '../../cli/merchant/signRequest'

const issuer = 'https://idp.example.test/'
const audience = 'svc-checkout'
const kid = 'idp-key-1'

let jwks: Server
let signingKey: CryptoKey
let strangerKey: CryptoKey

/** The identity provider's published keys, on 127.0.0.1 for this file only. */
async function startJwks(): Promise<string> {
  const pair = await generateKeyPair('ES256')
  signingKey = pair.privateKey
  strangerKey = (await generateKeyPair('ES256')).privateKey
  const body = JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid, alg: 'ES256', use: 'sig' }] })
  jwks = createHttpServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body))
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve))
  jwks.unref()
  const address = jwks.address()
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/.well-known/jwks.json`
}

const ctx = useServer({
  beforeServer: async () => ({ JWT_JWKS_URL: await startJwks(), JWT_ISSUER: issuer, JWT_AUDIENCE: audience }),
})
afterAll(() => new Promise<void>((resolve) => (jwks ? jwks.close(() => resolve()) : resolve())))

let studioId: string
let otherStudioId: string
beforeAll(async () => {
  ;({ studioId } = await seedMerchantAccess(ctx.server.stores, ctx.devnet))
  const other = await ctx.server.stores.studios.createStudio({ name: 'Someone else', vaultAddress: ctx.devnet.seed.payer.vault, chainId: ctx.devnet.deployment.chainId })
  otherStudioId = other.id
})

type JwtParameters = { claims?: JWTPayload; key?: CryptoKey; kid?: string; issuer?: string; audience?: string; expiresAt?: number | null }

function jwt({ claims = { studio_id: studioId }, key = signingKey, kid: keyId = kid, issuer: iss = issuer, audience: aud = audience, expiresAt }: JwtParameters = {}) {
  const token = new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: keyId }).setIssuer(iss).setAudience(aud).setSubject('user-1').setIssuedAt()
  if (expiresAt !== null) token.setExpirationTime(expiresAt ?? Math.floor(Date.now() / 1000) + 300)
  return token.sign(key)
}

const invoiceId = () => ctx.devnet.seed.invoices[0]!.id

async function call(path: string, token: string, init: RequestInit = {}) {
  return answerOf(await fetch(`${ctx.server.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } }))
}

describe('identity-provider JWT (SPEC 5.1 item 3)', () => {
  test('default: a signed-in user of the studio reads the share link, lists and creates tokens', async () => {
    const token = await jwt()
    const share = await call(`/v1/invoices/${invoiceId()}/share`, token)
    expect(share.status).toBe(200)
    expect(share.body).toEqual({ success: true, invoiceId: String(invoiceId()), hasEncryption: true, shareLink: ctx.shareLinks[0]!.shareLink, tokenHint: expect.stringMatching(/^…/) })
    expect((await call(`/v1/invoices/${invoiceId()}/tokens`, token)).body.tokens.length).toBeGreaterThan(0)
    const created = await call(`/v1/invoices/${invoiceId()}/tokens`, token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"label":"from the dashboard"}' })
    expect(created.status).toBe(201)
  })

  test('behavior: expired, wrongly issued, wrongly addressed, wrongly signed or malformed tokens are 401', async () => {
    const now = Math.floor(Date.now() / 1000)
    const refused = {
      expired: await jwt({ expiresAt: now - 60 }),
      'without exp': await jwt({ expiresAt: null }),
      'another issuer': await jwt({ issuer: 'https://evil.example.test/' }),
      'another audience': await jwt({ audience: 'another-service' }),
      "another key under the provider's kid": await jwt({ key: strangerKey }),
      'an unknown kid': await jwt({ key: strangerKey, kid: 'not-published' }),
      'no studio claim': await jwt({ claims: {} }),
      'a studio claim that is no UUID': await jwt({ claims: { studio_id: 'studio-1' } }),
      'not a JWT': 'not-a-jwt',
      'alg none': `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ studio_id: studioId, iss: issuer, aud: audience, exp: now + 60 })).toString('base64url')}.`,
    }
    for (const [name, token] of Object.entries(refused)) {
      const answer = await call(`/v1/invoices/${invoiceId()}/share`, token)
      expect({ name, status: answer.status, code: answer.body.code }).toEqual({ name, status: 401, code: 'UNAUTHORIZED' })
    }
  })

  test("behavior: another studio's user gets 404, exactly as for a missing invoice", async () => {
    const token = await jwt({ claims: { studio_id: otherStudioId } })
    for (const path of ['share', 'tokens']) {
      const foreign = await call(`/v1/invoices/${invoiceId()}/${path}`, token)
      const missing = await call(`/v1/invoices/987654321/${path}`, token)
      expect(foreign.status).toBe(404)
      expect(foreign.body).toEqual(missing.body)
    }
  })

  test("behavior: a signed-in user manages the studio's webhook endpoints; another studio's user neither sees nor deletes them", async () => {
    const json = { 'content-type': 'application/json' }
    const own = await jwt()
    const foreign = await jwt({ claims: { studio_id: otherStudioId } })
    // a public address: registration resolves it, nothing is sent to it without an event
    const created = await call('/v1/webhook-endpoints', own, { method: 'POST', headers: json, body: JSON.stringify({ url: 'https://93.184.215.14/hooks', events: ['invoice.paid'] }) })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ url: 'https://93.184.215.14/hooks', events: ['invoice.paid'], secret: expect.stringMatching(/^whsec_/) })
    expect((await call('/v1/webhook-endpoints', own)).body.endpoints.map((endpoint: { id: string }) => endpoint.id)).toEqual([created.body.id])
    expect((await call('/v1/webhook-endpoints', foreign)).body).toEqual({ endpoints: [] })
    expect((await call(`/v1/webhook-endpoints/${created.body.id}`, foreign, { method: 'DELETE' })).status).toBe(404)
    expect((await call(`/v1/webhook-endpoints/${created.body.id}/rotate-secret`, foreign, { method: 'POST' })).status).toBe(404)
    expect((await call(`/v1/webhook-endpoints/${created.body.id}`, own, { method: 'DELETE' })).body).toEqual({ id: created.body.id, deleted: true })
    // a loopback URL is refused here: this server does not allow private ones
    const loopback = await call('/v1/webhook-endpoints', own, { method: 'POST', headers: json, body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks' }) })
    expect(loopback.status).toBe(400)
  })

  test("behavior: a signed-in user reads and writes the studio's customers without any scope; another studio's user finds none of them", async () => {
    const json = { 'content-type': 'application/json' }
    const own = await jwt()
    const foreign = await jwt({ claims: { studio_id: otherStudioId } })
    const listed = await call('/v1/customers?search=acme%20robotics', own)
    expect(listed.status).toBe(200)
    expect(listed.body.data.map((customer: { legalName: string }) => customer.legalName)).toEqual(['Acme Robotics GmbH'])
    const body = { type: 'person', legalName: `JWT Customer ${randomUUID()}`, email: 'jwt@customer.example', address: { street: '1 Main St', city: 'Austin', postal: '78701', country: 'US' } }
    const created = await call('/v1/customers', own, { method: 'POST', headers: json, body: JSON.stringify(body) })
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({ studioId, legalName: body.legalName })
    expect((await call(`/v1/customers/${created.body.data.id}`, foreign)).status).toBe(404)
    expect((await call(`/v1/customers/${created.body.data.id}`, foreign, { method: 'DELETE' })).status).toBe(404)
    expect((await call('/v1/customers?search=acme%20robotics', foreign)).body.meta.total).toBe(0)
    expect((await call(`/v1/customers/${created.body.data.id}`, own, { method: 'DELETE' })).status).toBe(204)
  })

  test("behavior: a signed-in user reads the studio's payments, export, studio, balance, statistics and vault activity with no scope; another studio's user cannot read its activity", async () => {
    const own = await jwt()
    const vault = ctx.devnet.seed.merchant.vault
    const payments = await call('/v1/payments', own)
    expect(payments.status).toBe(200)
    expect(payments.body.data.payments.every((payment: { merchant: string }) => payment.merchant === vault)).toBe(true)
    expect((await call('/v1/payments/export?format=json&startDate=0&endDate=86400', own)).status).toBe(200)
    expect((await call('/v1/studios/me', own)).body.data).toMatchObject({ id: studioId, vaultAddress: vault, profileComplete: true })
    expect((await call('/v1/studios/me/balance', own)).body.balance).toBe((await ctx.devnet.balanceOf(vault)).toString())
    expect((await call('/v1/studios/me/invoices/stats', own)).body.stats.complete).toBe(true)
    expect((await call(`/v1/studios/${studioId}/transactions`, own)).body.vaultAddress).toBe(vault)
    expect((await call(`/v1/accounts/${vault}/metrics`, own)).status).toBe(200)
    const foreign = await call(`/v1/studios/${studioId}/transactions`, await jwt({ claims: { studio_id: otherStudioId } }))
    expect(foreign.status).toBe(403)
    expect(foreign.body.code).toBe('FORBIDDEN')
  })

  test('behavior: a user whose studio this deployment does not know is forbidden', async () => {
    const answer = await call(`/v1/invoices/${invoiceId()}/share`, await jwt({ claims: { studio_id: randomUUID() } }))
    expect(answer.status).toBe(403)
    expect(answer.body.code).toBe('FORBIDDEN')
  })

  test('behavior: a JWT together with x-svc-key is refused with 400 MIXED_AUTH', async () => {
    const path = `/v1/invoices/${invoiceId()}/share`
    const signed = await signRequest({ keyId: 'svc_pk_anything', secret: `svc_sk_${Buffer.alloc(32).toString('base64url')}`, method: 'GET', path })
    const { authorization: _, ...hmacHeaders } = signed
    const answer = await call(path, await jwt(), { headers: hmacHeaders })
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ error: 'MIXED_AUTH', code: 'MIXED_AUTH' })
  })

  test('behavior: alg HS256 keyed with the provider\'s own public key, and alg none, are refused', async () => {
    const now = Math.floor(Date.now() / 1000)
    const publicKey = (await (await fetch(ctx.config.JWT_JWKS_URL!)).json()).keys[0]
    const claims = { studio_id: studioId }
    const withPublicKeyAsSecret = [JSON.stringify(publicKey), await exportSPKI(await importJWK(publicKey, 'ES256') as CryptoKey)]
    const hs256 = (secret: string) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid }).setIssuer(issuer).setAudience(audience).setExpirationTime(now + 300).sign(new TextEncoder().encode(secret))
    const forged: [string, string][] = [
      ['HS256 keyed with the public JWK', await hs256(withPublicKeyAsSecret[0]!)],
      ['HS256 keyed with the public PEM', await hs256(withPublicKeyAsSecret[1]!)],
      ['alg none', new UnsecuredJWT(claims).setIssuer(issuer).setAudience(audience).setExpirationTime(now + 300).encode()],
    ]
    for (const [name, token] of forged) {
      const answer = await call(`/v1/invoices/${invoiceId()}/share`, token)
      expect({ name, status: answer.status, code: answer.body.code }).toEqual({ name, status: 401, code: 'UNAUTHORIZED' })
    }
  })

  test('behavior: a token a few seconds off the server\'s clock is accepted within the tolerance (30 s), and refused past it', async () => {
    const now = Math.floor(Date.now() / 1000)
    const early = await new SignJWT({ studio_id: studioId }).setProtectedHeader({ alg: 'ES256', kid }).setIssuer(issuer).setAudience(audience).setIssuedAt(now + 10).setNotBefore(now + 10).setExpirationTime(now + 300).sign(signingKey)
    for (const [name, token] of [['expired 10 s ago', await jwt({ expiresAt: now - 10 })], ['issued 10 s ahead', early]] as const) {
      const answer = await call(`/v1/invoices/${invoiceId()}/share`, token)
      expect({ name, status: answer.status }).toEqual({ name, status: 200 })
    }
    expect((await call(`/v1/invoices/${invoiceId()}/share`, await jwt({ expiresAt: now - 45 }))).status).toBe(401)
    const strict = createJwtVerifier({ jwksUrl: ctx.config.JWT_JWKS_URL!, issuer, audience, studioClaim: 'studio_id', clockToleranceSeconds: 0 })
    await expect(strict(await jwt({ expiresAt: now - 10 }))).rejects.toMatchObject({ status: 401 })
  })

  test('parameters: only asymmetric algorithms can be allowed', async () => {
    const settings = { jwksUrl: ctx.config.JWT_JWKS_URL!, issuer, audience, studioClaim: 'studio_id' }
    for (const algorithms of [['HS256'], ['ES256', 'none']]) expect(() => createJwtVerifier({ ...settings, algorithms })).toThrow(ConfigError)
    const rsaOnly = createJwtVerifier({ ...settings, algorithms: ['RS256'] })
    await expect(rsaOnly(await jwt())).rejects.toMatchObject({ status: 401 })
  })

  test('parameters: the studio claim is configurable; an unreachable key set is a 503, not a 401', async () => {
    const url = ctx.config.JWT_JWKS_URL!
    const verify = createJwtVerifier({ jwksUrl: url, issuer, audience, studioClaim: 'https://example.test/org' })
    await expect(verify(await jwt({ claims: { 'https://example.test/org': studioId } }))).resolves.toBe(studioId)
    await expect(verify(await jwt())).rejects.toMatchObject({ status: 401 })

    const unreachable = createJwtVerifier({ jwksUrl: 'http://127.0.0.1:9/jwks.json', issuer, audience, studioClaim: 'studio_id' })
    await expect(unreachable(await jwt())).rejects.toBeInstanceOf(AuthUnavailableError)
  })
})
