import { randomBytes } from 'node:crypto'
import { privateKeyToAddress } from 'viem/accounts'
import { beforeAll, describe, expect, test } from 'vitest'
import { createApp } from '../../server/app'
import { silentLogger } from '../../server/http/logger'
import { createMetrics } from '../../server/ops/metrics'
import type { Database } from '../../server/store/database'
import { openStores, type Stores } from '../../server/store/openStores'
import { maxEndpointsPerStudio } from '../../server/routes/webhookRoutes'
import type { HostLookup } from '../../server/webhooks/verifyWebhookUrl'
import { backends, useDatabases } from '../support/postgres'
import { signedRequest, type Answer } from '../support/signedRequest'

const randomAddress = () => privateKeyToAddress(`0x${randomBytes(32).toString('hex')}`)

/** A resolver with a fixed table, standing in for DNS: which names lead where is what these tests vary. */
const names: Record<string, string[]> = {
  'hooks.shop.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'internal.shop.example': ['10.1.2.3'],
  'split.shop.example': ['93.184.215.14', '127.0.0.1'],
  'metadata.shop.example': ['169.254.169.254'],
}
const lookup: HostLookup = async (hostname) => (names[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))

type Key = { keyId: string; secret: string }
let db: Database
let stores: Stores
const keys = {} as { owner: Key; readOnly: Key; other: Key; otherStudioId: string; ownerStudioId: string }

function appWith(allowPrivateUrls: boolean, rateLimitPerMinute = 100_000, on = stores) {
  const stores = on
  return createApp({
    pay: {} as never,
    metadata: stores.metadataAccess,
    merchant: {
      auth: { apiKeys: stores.apiKeys, nonces: stores.nonces, studios: stores.studios, jwt: null, skewMs: 300_000, now: Date.now },
      share: {} as never,
      branding: { store: stores.branding, invoices: {} as never, chainId: 31337 },
      webhooks: { endpoints: stores.webhookEndpoints, allowPrivateUrls, lookup },
    },
    logger: silentLogger,
    metrics: createMetrics(),
    readiness: async () => ({}) as never,
    rateLimitPerMinute,
    trustProxy: false,
  })
}
let app: ReturnType<typeof createApp>
let devApp: ReturnType<typeof createApp>
const databases = useDatabases()

beforeAll(async () => {
  db = await databases.open('pglite')
  stores = openStores({ CHAIN_ID: 31337, REGISTRY_ADDRESS: randomAddress(), METADATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') }, db)
  const studio = await stores.studios.createStudio({ name: 'Shop', vaultAddress: randomAddress(), chainId: 31337 })
  const other = await stores.studios.createStudio({ name: 'Other shop', vaultAddress: randomAddress(), chainId: 31337 })
  keys.ownerStudioId = studio.id
  keys.otherStudioId = other.id
  keys.owner = await stores.apiKeys.createApiKey({ studioId: studio.id, name: 'backend', scopes: ['invoice:read', 'invoice:write'] })
  keys.readOnly = await stores.apiKeys.createApiKey({ studioId: studio.id, name: 'reader', scopes: ['invoice:read'] })
  keys.other = await stores.apiKeys.createApiKey({ studioId: other.id, name: 'other', scopes: ['write'] })
  app = appWith(false)
  devApp = appWith(true)
})

const through = (target: ReturnType<typeof createApp>) => async (url: string, init: RequestInit) => target.request(url, init)

function call(key: Key, method: string, path: string, body?: unknown, target = app): Promise<Answer> {
  return signedRequest('http://checkout.test', key, { method, path, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }, through(target))
}

const create = (url: string, key = keys.owner, events?: string[]) => call(key, 'POST', '/v1/webhook-endpoints', { url, ...(events ? { events } : {}) })

describe('POST /v1/webhook-endpoints', () => {
  test('default: 201 with the id, URL, every event type, a whsec_ secret of 32 random bytes shown once, and the creation time', async () => {
    const before = Date.now()
    const created = await create('https://hooks.shop.example/svc?tenant=7')
    expect(created.status).toBe(201)
    expect(created.headers.get('cache-control')).toBe('no-store')
    expect(Object.keys(created.body).sort()).toEqual(['createdAt', 'events', 'id', 'secret', 'url'])
    expect(created.body).toMatchObject({ url: 'https://hooks.shop.example/svc?tenant=7', events: ['invoice.paid', 'invoice.canceled'] })
    expect(created.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Buffer.from(created.body.secret.slice(6), 'base64')).toHaveLength(32)
    expect(Date.parse(created.body.createdAt)).toBeGreaterThanOrEqual(before - 1_000)
    expect(Date.parse(created.body.createdAt)).toBeLessThanOrEqual(Date.now() + 1_000)
    // sealed at rest: the stored bytes are not the secret, and open only under its own row's context
    const [row] = await db.query<{ ciphertext: Uint8Array }>('SELECT s.ciphertext FROM webhook_secrets s WHERE s.endpoint_id = $1', [created.body.id])
    expect(Buffer.from(row!.ciphertext).includes(Buffer.from(created.body.secret.slice(6)))).toBe(false)
    expect(Buffer.from(row!.ciphertext).includes(Buffer.from(created.body.secret.slice(6), 'base64'))).toBe(false)
    expect((await stores.webhookEndpoints.getTarget(created.body.id))?.secrets).toEqual([created.body.secret])
    const second = await create('https://hooks.shop.example/other', keys.owner, ['invoice.canceled'])
    expect(second.body.events).toEqual(['invoice.canceled'])
    expect(second.body.secret).not.toBe(created.body.secret)
  })

  test.each([
    ['no URL', {}],
    ['a URL that is not one', { url: 'hooks.shop.example/svc' }],
    ['an ftp URL', { url: 'ftp://hooks.shop.example/svc' }],
    ['a javascript URL', { url: 'javascript:alert(1)' }],
    ['an unknown event type', { url: 'https://hooks.shop.example/', events: ['invoice.issued'] }],
    ['an empty event list', { url: 'https://hooks.shop.example/', events: [] }],
    ['an event type twice', { url: 'https://hooks.shop.example/', events: ['invoice.paid', 'invoice.paid'] }],
    ['a field the route does not know', { url: 'https://hooks.shop.example/', secret: 'whsec_mine' }],
    ['a URL over 2048 characters', { url: `https://hooks.shop.example/${'a'.repeat(2048)}` }],
  ])('behavior: %s is a 400 VALIDATION_ERROR', async (_, body) => {
    const answer = await call(keys.owner, 'POST', '/v1/webhook-endpoints', body)
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({ error: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: expect.stringMatching(/^body/), message: expect.any(String) })] })
  })

  test.each([
    ['loopback', 'http://127.0.0.1:8080/hook', '127.0.0.1'],
    ['loopback IPv6', 'http://[::1]/hook', '::1'],
    ['a private network', 'https://10.0.0.7/hook', '10.0.0.7'],
    ['the cloud metadata address', 'http://169.254.169.254/latest', '169.254.169.254'],
    ['an IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1'],
    ['an IPv4-compatible IPv6 loopback', 'http://[::7f00:1]/hook', '::7f00:1'],
    ['an IPv4-translated (SIIT) IPv6 loopback', 'http://[::ffff:0:7f00:1]/hook', '::ffff:0:7f00:1'],
    ['an IPv6 documentation address (3fff::/20)', 'https://[3fff:123::8]/hook', '3fff:123::8'],
    ['an SRv6 SID (5f00::/16)', 'https://[5f00:1:2::3]/hook', '5f00:1:2::3'],
    ['a name resolving to a private address', 'https://internal.shop.example/hook', '10.1.2.3'],
    ['a name resolving to link-local', 'https://metadata.shop.example/hook', '169.254.169.254'],
    ['a name resolving to a public and a loopback address', 'https://split.shop.example/hook', '127.0.0.1'],
  ])('behavior: %s is refused (400, naming the address), and nothing is stored', async (_, url, address) => {
    const before = await stores.webhookEndpoints.countEndpoints(keys.ownerStudioId)
    const answer = await create(url)
    expect(answer.status).toBe(400)
    expect(answer.body.error).toBe('VALIDATION_ERROR')
    expect(answer.body.details).toEqual([{ path: 'body.url', message: expect.stringContaining(`${address}, which is not a public address`) }])
    expect(await stores.webhookEndpoints.countEndpoints(keys.ownerStudioId)).toBe(before)
  })

  test('behavior: a name that does not resolve and a URL with credentials are refused', async () => {
    const unknown = await create('https://nowhere.shop.example/hook')
    expect(unknown.status).toBe(400)
    expect(unknown.body.details).toEqual([{ path: 'body.url', message: "the webhook URL's host nowhere.shop.example does not resolve" }])
    const credentials = await create('https://user:pw@hooks.shop.example/hook')
    expect(credentials.status).toBe(400)
    expect(credentials.body.details[0].message).toContain('user name or password')
  })

  test('behavior: a public receiver over plain http is refused, events are sent over https only; with WEBHOOK_ALLOW_PRIVATE_URLS it is accepted', async () => {
    const before = await stores.webhookEndpoints.countEndpoints(keys.ownerStudioId)
    const refused = await create('http://hooks.shop.example/hook')
    expect(refused.status).toBe(400)
    expect(refused.body.details).toEqual([{ path: 'body.url', message: expect.stringContaining('must be https') }])
    expect(await stores.webhookEndpoints.countEndpoints(keys.ownerStudioId)).toBe(before)
    const onDevnet = await call(keys.owner, 'POST', '/v1/webhook-endpoints', { url: 'http://hooks.shop.example/hook' }, devApp)
    expect(onDevnet.status).toBe(201)
  })

  test('behavior: with WEBHOOK_ALLOW_PRIVATE_URLS a loopback receiver is accepted', async () => {
    const answer = await call(keys.owner, 'POST', '/v1/webhook-endpoints', { url: 'http://127.0.0.1:4242/webhooks' }, devApp)
    expect(answer.status).toBe(201)
    expect(answer.body.url).toBe('http://127.0.0.1:4242/webhooks')
  })

  test('behavior: no credentials is a 401, a key without invoice:write a 403, and neither stores anything', async () => {
    const before = await stores.webhookEndpoints.countEndpoints(keys.ownerStudioId)
    const anonymous = await app.request('/v1/webhook-endpoints', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://hooks.shop.example/' }) })
    expect(anonymous.status).toBe(401)
    expect(await anonymous.json()).toMatchObject({ error: 'UNAUTHORIZED' })
    const reader = await create('https://hooks.shop.example/', keys.readOnly)
    expect(reader.status).toBe(403)
    expect(reader.body).toMatchObject({ error: 'FORBIDDEN' })
    expect(await stores.webhookEndpoints.countEndpoints(keys.ownerStudioId)).toBe(before)
  })

  test(`behavior: a studio has at most ${maxEndpointsPerStudio} endpoints`, async () => {
    const studio = await stores.studios.createStudio({ name: 'Busy shop', vaultAddress: randomAddress(), chainId: 31337 })
    const key = await stores.apiKeys.createApiKey({ studioId: studio.id, name: 'busy', scopes: ['write'] })
    for (let i = 0; i < maxEndpointsPerStudio; i++) expect((await create(`https://hooks.shop.example/${i}`, key)).status).toBe(201)
    const over = await create('https://hooks.shop.example/one-more', key)
    expect(over.status).toBe(400)
    expect(over.body.details[0].message).toBe(`a studio has at most ${maxEndpointsPerStudio} webhook endpoints: delete one first`)
  })
})

describe.each(backends)('the endpoint cap under concurrent creates, on %s', (backend) => {
  test(`behavior: 20 creates at once from one studio make exactly ${maxEndpointsPerStudio} endpoints; the others are refused as over the cap`, async () => {
    const on = openStores({ CHAIN_ID: 31337, REGISTRY_ADDRESS: randomAddress(), METADATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') }, await databases.open(backend))
    const studio = await on.studios.createStudio({ name: 'Racing shop', vaultAddress: randomAddress(), chainId: 31337 })
    const key = await on.apiKeys.createApiKey({ studioId: studio.id, name: 'race', scopes: ['write'] })
    const target = appWith(false, 100_000, on)
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(key, 'POST', '/v1/webhook-endpoints', { url: `https://hooks.shop.example/race/${i}` }, target)),
    )
    const statuses = answers.map((answer) => answer.status).sort()
    expect(statuses).toEqual([...Array(maxEndpointsPerStudio).fill(201), ...Array(20 - maxEndpointsPerStudio).fill(400)])
    for (const refused of answers.filter((answer) => answer.status === 400)) {
      expect(refused.body.details).toEqual([{ path: 'body.url', message: `a studio has at most ${maxEndpointsPerStudio} webhook endpoints: delete one first` }])
    }
    expect(await on.webhookEndpoints.countEndpoints(studio.id)).toBe(maxEndpointsPerStudio)
  })
})

describe('GET /v1/webhook-endpoints', () => {
  test("default: the caller's studio's endpoints only, oldest first, with their status and no secret", async () => {
    const studio = await stores.studios.createStudio({ name: 'Listing shop', vaultAddress: randomAddress(), chainId: 31337 })
    const key = await stores.apiKeys.createApiKey({ studioId: studio.id, name: 'list', scopes: ['write'] })
    const first = await create('https://hooks.shop.example/a', key)
    const second = await create('https://hooks.shop.example/b', key, ['invoice.paid'])
    await create('https://hooks.shop.example/not-theirs', keys.other)
    const listed = await call(key, 'GET', '/v1/webhook-endpoints')
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual({
      endpoints: [
        { id: first.body.id, url: 'https://hooks.shop.example/a', events: ['invoice.paid', 'invoice.canceled'], status: 'active', failingSince: null, createdAt: first.body.createdAt },
        { id: second.body.id, url: 'https://hooks.shop.example/b', events: ['invoice.paid'], status: 'active', failingSince: null, createdAt: second.body.createdAt },
      ],
    })
    expect(JSON.stringify(listed.body)).not.toContain('whsec_')
  })

  test('behavior: the routes are limited per client before authentication, each request counted once: past the limit, 429 with Retry-After', async () => {
    const limited = appWith(false, 3)
    for (let i = 0; i < 2; i++) expect((await call(keys.owner, 'GET', '/v1/webhook-endpoints', undefined, limited)).status).toBe(200)
    expect((await call(keys.owner, 'POST', '/v1/webhook-endpoints/00000000-0000-4000-8000-000000000000/rotate-secret', undefined, limited)).status).toBe(404)
    const over = await limited.request('/v1/webhook-endpoints')
    expect(over.status).toBe(429)
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(await over.json()).toMatchObject({ error: 'RATE_LIMITED' })
  })

  test('behavior: a read-only key may list; no credentials may not', async () => {
    expect((await call(keys.readOnly, 'GET', '/v1/webhook-endpoints')).status).toBe(200)
    expect((await app.request('/v1/webhook-endpoints')).status).toBe(401)
  })
})

describe('DELETE /v1/webhook-endpoints/:id', () => {
  test("default: the endpoint and its secrets are gone; another studio's endpoint is a 404 like a missing one", async () => {
    const created = await create('https://hooks.shop.example/delete-me')
    const foreign = await call(keys.other, 'DELETE', `/v1/webhook-endpoints/${created.body.id}`)
    expect(foreign.status).toBe(404)
    expect(foreign.body).toMatchObject({ error: 'NOT_FOUND', message: 'no webhook endpoint with this id in your studio' })
    const deleted = await call(keys.owner, 'DELETE', `/v1/webhook-endpoints/${created.body.id}`)
    expect(deleted).toMatchObject({ status: 200, body: { id: created.body.id, deleted: true } })
    expect((await call(keys.owner, 'GET', '/v1/webhook-endpoints')).body.endpoints.map((endpoint: { id: string }) => endpoint.id)).not.toContain(created.body.id)
    expect(await db.query('SELECT id FROM webhook_secrets WHERE endpoint_id = $1', [created.body.id])).toEqual([])
    expect((await call(keys.owner, 'DELETE', `/v1/webhook-endpoints/${created.body.id}`)).status).toBe(404)
    expect((await call(keys.owner, 'DELETE', '/v1/webhook-endpoints/not-a-uuid')).status).toBe(404)
  })

  test('behavior: a read-only key may not delete', async () => {
    const created = await create('https://hooks.shop.example/keep-me')
    expect((await call(keys.readOnly, 'DELETE', `/v1/webhook-endpoints/${created.body.id}`)).status).toBe(403)
    expect(await stores.webhookEndpoints.getTarget(created.body.id)).not.toBeNull()
  })
})

describe('POST /v1/webhook-endpoints/:id/rotate-secret', () => {
  test('default: a new secret shown once; the previous one keeps signing beside it for 24 hours', async () => {
    const created = await create('https://hooks.shop.example/rotate')
    const before = Date.now()
    const rotated = await call(keys.owner, 'POST', `/v1/webhook-endpoints/${created.body.id}/rotate-secret`)
    expect(rotated.status).toBe(200)
    expect(rotated.headers.get('cache-control')).toBe('no-store')
    expect(rotated.body).toEqual({ id: created.body.id, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/), previousSecretExpiresAt: expect.any(String) })
    expect(rotated.body.secret).not.toBe(created.body.secret)
    const expiresIn = Date.parse(rotated.body.previousSecretExpiresAt) - before
    expect(expiresIn).toBeGreaterThan(24 * 3_600_000 - 5_000)
    expect(expiresIn).toBeLessThan(24 * 3_600_000 + 5_000)
    expect((await stores.webhookEndpoints.getTarget(created.body.id))?.secrets).toEqual([rotated.body.secret, created.body.secret])
    // a day later only the new one signs
    await db.query(`UPDATE webhook_secrets SET expires_at = now() - interval '1 second' WHERE endpoint_id = $1 AND expires_at IS NOT NULL`, [created.body.id])
    expect((await stores.webhookEndpoints.getTarget(created.body.id))?.secrets).toEqual([rotated.body.secret])
  })

  test('behavior: rotating again within the day keeps two secrets that sign, the new one and the one it replaced; older ones are erased by that rotation', async () => {
    const created = await create('https://hooks.shop.example/rotate-often')
    const secrets = [created.body.secret as string]
    for (let i = 0; i < 5; i++) {
      const rotated = await call(keys.owner, 'POST', `/v1/webhook-endpoints/${created.body.id}/rotate-secret`)
      expect(rotated.status).toBe(200)
      secrets.unshift(rotated.body.secret)
    }
    expect((await stores.webhookEndpoints.getTarget(created.body.id))?.secrets).toEqual(secrets.slice(0, 2))
    // erased, not merely left unused: nothing else of the endpoint's is kept
    expect(await db.query('SELECT id FROM webhook_secrets WHERE endpoint_id = $1', [created.body.id])).toHaveLength(2)
  })

  test("behavior: another studio cannot rotate an endpoint's secret (404), nor a read-only key (403)", async () => {
    const created = await create('https://hooks.shop.example/rotate-guarded')
    expect((await call(keys.other, 'POST', `/v1/webhook-endpoints/${created.body.id}/rotate-secret`)).status).toBe(404)
    expect((await call(keys.readOnly, 'POST', `/v1/webhook-endpoints/${created.body.id}/rotate-secret`)).status).toBe(403)
    expect((await stores.webhookEndpoints.getTarget(created.body.id))?.secrets).toEqual([created.body.secret])
  })
})

describe('GET /openapi.json', () => {
  test('behavior: the document describes the webhook routes and, as OpenAPI 3.1 webhooks, the events and their signature headers', async () => {
    const document = (await (await app.request('/openapi.json')).json()) as any
    expect(Object.keys(document.paths['/v1/webhook-endpoints']).sort()).toEqual(['get', 'post'])
    expect(document.paths['/v1/webhook-endpoints'].post['x-required-scope']).toBe('invoice:write')
    expect(document.paths['/v1/webhook-endpoints/{id}/rotate-secret'].post.security).toEqual([{ hmac: [] }, { bearer: [] }])
    expect(Object.keys(document.webhooks)).toEqual(['invoice.paid', 'invoice.canceled', 'invoice.refunded'])
    const paid = document.webhooks['invoice.paid'].post
    expect(paid.parameters.map((parameter: { name: string; in: string }) => `${parameter.in}:${parameter.name}`)).toEqual(['header:webhook-id', 'header:webhook-timestamp', 'header:webhook-signature'])
    const schema = paid.requestBody.content['application/json'].schema
    expect(schema.required).toEqual(['type', 'timestamp', 'data'])
    expect(schema.properties.type).toMatchObject({ const: 'invoice.paid' })
    expect(schema.properties.data.required.sort()).toEqual(
      ['amount', 'blockNumber', 'blockTime', 'chainId', 'fee', 'feeBps', 'invoiceId', 'logIndex', 'merchant', 'net', 'payer', 'registry', 'token', 'txHash'],
    )
    expect(document.webhooks['invoice.canceled'].post.requestBody.content['application/json'].schema.properties.data.required.sort()).toEqual(
      ['blockNumber', 'blockTime', 'chainId', 'invoiceId', 'logIndex', 'merchant', 'registry', 'txHash'],
    )
    expect(document.webhooks['invoice.refunded'].post.requestBody.content['application/json'].schema.properties.data.required.sort()).toEqual(
      ['amount', 'blockNumber', 'blockTime', 'chainId', 'invoiceId', 'logIndex', 'merchant', 'payer', 'refundedTotal', 'registry', 'token', 'txHash'],
    )
  })
})
