import { beforeAll, describe, expect, test } from 'vitest'
import { useInProcessApp } from '../support/inProcessApp'
import { answerOf, signedRequest } from '../support/signedRequest'

// Everything here is answered before a route reads the chain: the app runs in this process with no
// chain at all, and a request that reached one would fail the test.
const ctx = useInProcessApp()
const origin = 'http://checkout.test'

async function post(path: string, body: string, contentType = 'application/json') {
  return answerOf(await ctx.fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body }))
}

describe('GET /v1/pay/:id', () => {
  test('behavior: a malformed id is 400 VALIDATION_ERROR with no stack trace', async () => {
    for (const bad of ['abc', '-1', '1.5', '0x10', '1e3', `1${'0'.repeat(80)}`]) {
      const { status, body } = await answerOf(await ctx.fetch(`${origin}/v1/pay/${bad}`))
      expect(status, bad).toBe(400)
      expect(body.error).toBe('VALIDATION_ERROR')
      expect(JSON.stringify(body)).not.toMatch(/at .*\.ts/)
    }
  })
})

describe('POST /v1/pay/:id/permit', () => {
  test('behavior: bad bodies get a validation error, never a 500', async () => {
    const payerAddress = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const cases: [unknown, number][] = [
      [{}, 400],
      [{ payerAddress: '0x1234' }, 400],
      ...['soon', '-1', '1.5', '0x10', -1, 1.5].map((permitDeadline): [unknown, number] => [{ payerAddress, permitDeadline }, 400]),
      [[1, 2], 400],
    ]
    for (const [body, expected] of cases) {
      const { status, body: answer } = await post('/v1/pay/7/permit', JSON.stringify(body))
      expect(status).toBe(expected)
      expect(answer.error).toBe('VALIDATION_ERROR')
      expect(Array.isArray(answer.details)).toBe(true)
    }
    expect((await post('/v1/pay/7/permit', '{not json')).status).toBe(400)
    expect((await post('/v1/pay/7/permit', 'x', 'text/plain')).status).toBe(415)
    expect((await post('/v1/pay/7/permit', JSON.stringify({ payerAddress: 'x'.repeat(100_000) }))).status).toBe(413)
  })
})

describe('POST /v1/pay/:id', () => {
  test('behavior: a submission without the signed operation, or with one that is not an object, names body.userOp in the flow\'s words', async () => {
    for (const body of [{}, { userOp: 'signed' }, { userOp: null }]) {
      const { status, body: answer } = await post('/v1/pay/7', JSON.stringify(body))
      expect(status, JSON.stringify(body)).toBe(400)
      expect(answer).toEqual({ error: 'VALIDATION_ERROR', details: [{ path: 'body.userOp', message: 'the signed user operation, as an object: the one /prepare returned, with its signature' }] })
    }
  })
})

describe('POST /v1/invoices/:id/tokens', () => {
  test('behavior: bad input from an authenticated merchant is a 4xx in the SPEC shape, never a 500', async () => {
    const tokens = '/v1/invoices/7/tokens'
    const cases = [
      { name: 'a long label', request: { method: 'POST', path: tokens, body: JSON.stringify({ label: 'x'.repeat(101) }) }, status: 400, code: 'VALIDATION_ERROR' },
      { name: 'an empty label', request: { method: 'POST', path: tokens, body: '{"label":""}' }, status: 400, code: 'VALIDATION_ERROR' },
      { name: 'an expiry that is no date-time', request: { method: 'POST', path: tokens, body: '{"expiresAt":"tomorrow"}' }, status: 400, code: 'VALIDATION_ERROR' },
      { name: 'an unknown field', request: { method: 'POST', path: tokens, body: '{"expires_at":"2030-01-01T00:00:00Z"}' }, status: 400, code: 'VALIDATION_ERROR' },
      { name: 'a body that is no JSON', request: { method: 'POST', path: tokens, body: '{"label":' }, status: 400, code: 'VALIDATION_ERROR' },
      { name: 'a JSON array', request: { method: 'POST', path: tokens, body: '[]' }, status: 400, code: 'VALIDATION_ERROR' },
      { name: 'a body that is not JSON-typed', request: { method: 'POST', path: tokens, body: 'label=x', contentType: 'text/plain' }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
      { name: 'an invoice id that is no number', request: { method: 'GET', path: '/v1/invoices/abc/tokens' }, status: 400, code: 'VALIDATION_ERROR' },
      { name: 'a token id that is no UUID', request: { method: 'DELETE', path: `${tokens}/not-a-uuid` }, status: 400, code: 'VALIDATION_ERROR' },
      { name: 'a body past 64 KiB', request: { method: 'POST', path: tokens, body: JSON.stringify({ label: 'x'.repeat(70_000) }) }, status: 413, code: 'PAYLOAD_TOO_LARGE' },
    ]
    for (const { name, request, status, code } of cases) {
      const answer = await signedRequest(origin, ctx.apiKey, request, ctx.fetch)
      expect({ name, status: answer.status, code: answer.body.code ?? answer.body.error }).toEqual({ name, status, code })
      expect(answer.body.error).toEqual(expect.any(String))
    }
  })

  test('behavior: without valid credentials the answer is 401 before the input is even read', async () => {
    const unsigned = await post('/v1/invoices/abc/tokens', '{"label":')
    expect(unsigned.status).toBe(401)
    const forged = await signedRequest(origin, { ...ctx.apiKey, secret: `svc_sk_${'A'.repeat(43)}` }, { method: 'POST', path: '/v1/invoices/abc/tokens', body: '[]' }, ctx.fetch)
    expect(forged.status).toBe(401)
  })
})

describe('text with a NUL character (U+0000), on any route', () => {
  let writer: { keyId: string; secret: string }
  beforeAll(async () => {
    writer = await ctx.stores.apiKeys.createApiKey({ studioId: ctx.studioId, name: 'all of it', scopes: ['write'] })
  })

  test('behavior: a NUL in a body field, a query or a path is 400 VALIDATION_ERROR naming where it is, never a 500 from the database', async () => {
    const customer = {
      type: 'entity',
      legalName: 'Acme\u0000 Robotics GmbH',
      email: 'accounts@acme-robotics.example',
      address: { street: 'Lindenstraße 4', city: 'Berlin', postal: '10969', country: 'DE' },
      registrationNumber: 'HRB 123456',
    }
    const created = await signedRequest(origin, writer, { method: 'POST', path: '/v1/customers', body: JSON.stringify(customer) }, ctx.fetch)
    expect(created.status).toBe(400)
    expect(created.body).toEqual({ error: 'VALIDATION_ERROR', details: [{ path: 'body.legalName', message: 'the text contains a NUL character (U+0000), which no field accepts' }] })
    const nested = await signedRequest(origin, writer, { method: 'POST', path: '/v1/customers', body: JSON.stringify({ ...customer, legalName: 'Acme', address: { ...customer.address, street: 'Linden\u0000straße 4' } }) }, ctx.fetch)
    expect(nested.body.details).toEqual([expect.objectContaining({ path: 'body.address.street' })])
    const searched = await signedRequest(origin, writer, { method: 'GET', path: '/v1/customers', query: 'search=%00' }, ctx.fetch)
    expect(searched.status).toBe(400)
    expect(searched.body.details).toEqual([expect.objectContaining({ path: 'search' })])
    const looked = await signedRequest(origin, writer, { method: 'GET', path: '/v1/invoices/lookup', query: 'number=%00&year=2026' }, ctx.fetch)
    expect(looked.status).toBe(400)
  })

  test('behavior: a body nested thirty thousand arrays deep is a 400, not a crash', async () => {
    const deep = `${'['.repeat(30_000)}${']'.repeat(30_000)}`
    const answer = await signedRequest(origin, writer, { method: 'POST', path: '/v1/customers', body: deep }, ctx.fetch)
    expect(answer.status).toBe(400)
    expect(answer.body.error).toBe('VALIDATION_ERROR')
  })
})
