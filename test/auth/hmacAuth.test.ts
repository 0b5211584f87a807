import { randomBytes, randomUUID } from 'node:crypto'
import { request } from 'node:http'
import { describe, expect, test } from 'vitest'
import { signRequest } from '../../cli/merchant/signRequest'
import { useInstances } from '../support/instances'
import { opensslBodyHash, opensslSignature } from '../support/openssl'
import { answerOf, signedRequest } from '../support/signedRequest'

let frozenAt: number | undefined
const ctx = useInstances({ now: () => frozenAt ?? Date.now() })
const servers = () => ctx.servers
const base = () => ctx.servers[0].url
const key = () => ctx.merchant.apiKey
const sharePath = () => `/v1/invoices/${ctx.devnet.seed.invoices[0]!.id}/share`

function newKey(scopes: string[], expiresAt?: Date) {
  return ctx.servers[0].stores.apiKeys.createApiKey({ studioId: ctx.merchant.studioId, name: `test ${scopes.join(' ')}`, scopes, expiresAt })
}

describe('HMAC authentication (SPEC 5.2)', () => {
  test('default: requests signed by openssl, not by our code, are accepted on either instance', async () => {
    const hexKey = Buffer.from(key().secret.slice('svc_sk_'.length), 'base64url').toString('hex')
    const id = ctx.devnet.seed.invoices[0]!.id
    for (const server of servers()) {
      const get = { ts: String(Date.now()), nonce: randomUUID() }
      const signature = opensslSignature(hexKey, `GET\n${sharePath()}\n\n${opensslBodyHash('')}\n${get.ts}\n${get.nonce}`)
      const share = await answerOf(
        await fetch(`${server.url}${sharePath()}`, {
          headers: { 'x-svc-key': key().keyId, 'x-svc-ts': get.ts, 'x-svc-nonce': get.nonce, authorization: `SVC-HMAC ${signature}` },
        }),
      )
      expect(share.status).toBe(200)
      expect(share.body.shareLink).toBe(ctx.shareLinks[0]!.shareLink)

      const post = { ts: String(Date.now()), nonce: randomUUID(), body: '{ "label": "signed by openssl" }', query: 'z=1&a=%7E' }
      const message = `POST\n/v1/invoices/${id}/tokens\n${post.query}\n${opensslBodyHash(post.body)}\n${post.ts}\n${post.nonce}`
      const created = await answerOf(
        await fetch(`${server.url}/v1/invoices/${id}/tokens?${post.query}`, {
          method: 'POST',
          body: post.body,
          headers: {
            'content-type': 'application/json',
            'x-svc-key': key().keyId,
            'x-svc-ts': post.ts,
            'x-svc-nonce': post.nonce,
            authorization: `SVC-HMAC ${opensslSignature(hexKey, message)}`,
          },
        }),
      )
      expect(created.status).toBe(201)
      expect(created.body.token).toMatch(/^svc_tk_/)
    }
  })

  test('behavior: every signed part tampered with in turn is refused with 401, and no forgery uses up the nonce', async () => {
    const id = ctx.devnet.seed.invoices[0]!.id
    const otherId = ctx.devnet.seed.invoices[1]!.id
    const otherKey = await newKey(['invoice:read', 'invoice:write'])
    const timestamp = Date.now()
    const nonce = randomUUID()
    const sent = { method: 'POST', path: `/v1/invoices/${id}/tokens`, query: 'a=1&b=2', body: '{"label":"original"}' }
    const headers = { 'x-svc-ts': String(timestamp), 'x-svc-nonce': nonce }
    // Each case signs something other than what is sent.
    const forgeries = {
      method: { method: 'PUT' },
      path: { path: `/v1/invoices/${otherId}/tokens` },
      'query value': { query: 'a=1&b=3' },
      'query order': { query: 'b=2&a=1' },
      'query dropped': { query: '' },
      'body value': { body: '{"label":"forged"}' },
      'body whitespace': { body: '{ "label":"original"}' },
      timestamp: { timestamp: timestamp + 1 },
      nonce: { nonce: randomUUID() },
    }
    for (const [part, signed] of Object.entries(forgeries)) {
      const answer = await signedRequest(base(), key(), { ...sent, timestamp, nonce, ...signed, send: { ...sent, headers } })
      expect({ part, status: answer.status, code: answer.body.code }).toEqual({ part, status: 401, code: 'UNAUTHORIZED' })
    }
    const otherKeyId = await signedRequest(base(), key(), { ...sent, timestamp, nonce, send: { headers: { 'x-svc-key': otherKey.keyId } } })
    expect(otherKeyId.status).toBe(401)

    const genuine = await signedRequest(base(), key(), { ...sent, timestamp, nonce })
    expect(genuine.status).toBe(201)
  })

  test('behavior: the query is verified exactly as transmitted, never re-encoded', async () => {
    // A URL parser would turn ' into %27; node:http sends the target as it is given.
    const query = "note='q4'&a=1"
    const headers = await signRequest({ ...key(), method: 'GET', path: sharePath(), query })
    const url = new URL(base())
    const status = await new Promise<number | undefined>((resolve, reject) => {
      request({ host: url.hostname, port: url.port, path: `${sharePath()}?${query}`, headers }, (res) => {
        res.resume()
        resolve(res.statusCode)
      })
        .on('error', reject)
        .end()
    })
    expect(status).toBe(200)
  })

  test('behavior: a replay is refused with 401 on the same and on the other instance, even re-signed', async () => {
    const nonce = randomUUID()
    const headers = await signRequest({ ...key(), method: 'GET', path: sharePath(), nonce })
    const [a, b] = servers()
    expect((await fetch(`${a.url}${sharePath()}`, { headers })).status).toBe(200)
    for (const server of [a, b]) {
      const replay = await answerOf(await fetch(`${server.url}${sharePath()}`, { headers }))
      expect(replay.status).toBe(401)
      expect(replay.body).toMatchObject({ error: 'NONCE_REUSED', code: 'NONCE_REUSED' })
    }
    const resigned = await signedRequest(b.url, key(), { method: 'GET', path: sharePath(), nonce, timestamp: Date.now() + 1 })
    expect(resigned.status).toBe(401)
  })

  test('behavior: two instances on one database accept a nonce exactly once', async () => {
    const rounds = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const headers = await signRequest({ ...key(), method: 'GET', path: sharePath() })
        const statuses = await Promise.all(servers().map(async (server) => (await fetch(`${server.url}${sharePath()}`, { headers })).status))
        return statuses.sort()
      }),
    )
    for (const statuses of rounds) expect(statuses).toEqual([200, 401])
  })

  test('behavior: timestamps within ±300 s of the server clock are accepted; ±301 s are refused', async () => {
    frozenAt = Date.now()
    try {
      for (const offset of [-300_000, -299_000, 0, 299_000, 300_000]) {
        const answer = await signedRequest(base(), key(), { method: 'GET', path: sharePath(), timestamp: frozenAt + offset })
        expect({ offset, status: answer.status }).toEqual({ offset, status: 200 })
      }
      for (const offset of [-301_000, 301_000, -86_400_000]) {
        const answer = await signedRequest(base(), key(), { method: 'GET', path: sharePath(), timestamp: frozenAt + offset })
        expect({ offset, status: answer.status, code: answer.body.code }).toEqual({ offset, status: 401, code: 'CLOCK_SKEW' })
      }
      // kept twice the window: until then the timestamp check alone would not stop a replay
      const nonce = randomUUID()
      expect((await signedRequest(base(), key(), { method: 'GET', path: sharePath(), timestamp: frozenAt, nonce })).status).toBe(200)
      const [row] = await ctx.servers[0].stores.db.query<{ expires_at: Date }>('SELECT expires_at FROM hmac_nonces WHERE nonce = $1', [nonce])
      expect(row?.expires_at.getTime()).toBe(frozenAt + 600_000)
    } finally {
      frozenAt = undefined
    }
  })

  test('behavior: unknown, revoked and expired keys are refused with 401, all three answered identically', async () => {
    const expired = await newKey(['invoice:read'], new Date(Date.now() - 1_000))
    const revoked = await newKey(['invoice:read'])
    expect((await signedRequest(base(), revoked, { method: 'GET', path: sharePath() })).status).toBe(200)
    expect(await ctx.servers[1].stores.apiKeys.revokeApiKey(ctx.merchant.studioId, revoked.keyId)).toBe(true)
    const unknown = { keyId: `svc_pk_${randomBytes(16).toString('base64url')}`, secret: `svc_sk_${randomBytes(32).toString('base64url')}` }

    const answers = await Promise.all(
      [unknown, revoked, expired].flatMap((k) => servers().map((server) => signedRequest(server.url, k, { method: 'GET', path: sharePath() }))),
    )
    const shown = answers.map(({ status, body, headers }) => ({ status, body, authenticate: headers.get('www-authenticate'), type: headers.get('content-type') }))
    expect(shown[0]).toMatchObject({ status: 401, body: { error: 'UNAUTHORIZED', code: 'UNAUTHORIZED' }, authenticate: 'SVC-HMAC' })
    for (const answer of shown) expect(answer).toEqual(shown[0])
  })

  test('behavior: missing credentials are 401; malformed HMAC headers are 400 naming the header', async () => {
    const none = await answerOf(await fetch(`${base()}${sharePath()}`))
    expect(none.status).toBe(401)
    expect(none.body).toMatchObject({ error: 'UNAUTHORIZED', code: 'UNAUTHORIZED' })

    const good = await signRequest({ ...key(), method: 'GET', path: sharePath() })
    const malformed: Array<[string, Record<string, string | undefined>, string]> = [
      ['only x-svc-key', { 'x-svc-key': good['x-svc-key'] }, 'x-svc-ts'],
      ['a timestamp in seconds', { ...good, 'x-svc-ts': good['x-svc-ts'].slice(0, 10) }, 'x-svc-ts'],
      ['a short nonce', { ...good, 'x-svc-nonce': 'abc' }, 'x-svc-nonce'],
      ['no nonce', { ...good, 'x-svc-nonce': undefined }, 'x-svc-nonce'],
      ['a base64url signature', { ...good, authorization: good.authorization.replace(/\+/g, '-').replace(/\//g, '_').replace(/=$/, '') }, 'authorization'],
      ['another scheme', { ...good, authorization: good.authorization.replace('SVC-HMAC', 'HMAC') }, 'authorization'],
      ['a key id without its prefix', { ...good, 'x-svc-key': good['x-svc-key'].slice('svc_pk_'.length) }, 'x-svc-key'],
      ['a signature without x-svc-key', { ...good, 'x-svc-key': undefined }, 'x-svc-key'],
    ]
    for (const [name, headers, header] of malformed) {
      const sent = Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined))
      const answer = await answerOf(await fetch(`${base()}${sharePath()}`, { headers: sent }))
      expect({ name, status: answer.status, code: answer.body.code }).toEqual({ name, status: 400, code: 'HMAC_HEADERS_INVALID' })
      expect(answer.body.message).toContain(header)
    }
  })

  test('behavior: GET share needs invoice:read or a scope that implies it (403 otherwise); the token routes have no scope guard', async () => {
    const customerOnly = await newKey(['customer:read'])
    const denied = await signedRequest(base(), customerOnly, { method: 'GET', path: sharePath() })
    expect(denied.status).toBe(403)
    expect(denied.body).toMatchObject({ error: 'FORBIDDEN', code: 'FORBIDDEN' })
    const tokensPath = sharePath().replace(/share$/, 'tokens')
    expect((await signedRequest(base(), customerOnly, { method: 'GET', path: tokensPath })).status).toBe(200)
    expect((await signedRequest(base(), customerOnly, { method: 'POST', path: tokensPath, body: '{}' })).status).toBe(201)

    for (const scopes of [['invoice:read'], ['invoice:write'], ['read'], ['write']]) {
      const answer = await signedRequest(base(), await newKey(scopes), { method: 'GET', path: sharePath() })
      expect({ scopes, status: answer.status }).toEqual({ scopes, status: 200 })
    }
    for (const scopes of [['dashboard:read'], ['sponsor'], ['customer:write']]) {
      const answer = await signedRequest(base(), await newKey(scopes), { method: 'GET', path: sharePath() })
      expect({ scopes, status: answer.status }).toEqual({ scopes, status: 403 })
    }
  })

  test('behavior: a bearer token is refused where no identity provider is set, and alongside x-svc-key always', async () => {
    const bearer = await answerOf(await fetch(`${base()}${sharePath()}`, { headers: { authorization: 'Bearer eyJhbGciOiJFUzI1NiJ9.e30.c2ln' } }))
    expect(bearer.status).toBe(401)
    const signed = await signRequest({ ...key(), method: 'GET', path: sharePath() })
    const mixed = await answerOf(await fetch(`${base()}${sharePath()}`, { headers: { ...signed, authorization: 'Bearer eyJhbGciOiJFUzI1NiJ9.e30.c2ln' } }))
    expect(mixed.status).toBe(400)
    expect(mixed.body).toMatchObject({ error: 'MIXED_AUTH', code: 'MIXED_AUTH' })
  })
})
