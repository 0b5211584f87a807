import { request as httpRequest, Agent, type IncomingHttpHeaders } from 'node:http'
import { describe, expect, onTestFinished, test } from 'vitest'
import { jsonLogger } from '../../server/http/logger'
import { api, useServer } from '../support/server'

const lines: string[] = []
const ctx = useServer({ overrides: { RATE_LIMIT_PER_MINUTE: '20' }, logger: jsonLogger((line) => lines.push(line)) })
const base = () => ctx.server.url

describe('the public edge', () => {
  test('behavior: logs carry the path but never the access token', async () => {
    const link = ctx.shareLinks[0]!
    const token = new URL(link.shareLink).searchParams.get('token')!
    expect((await api(base(), `/v1/pay/${link.invoiceId}/metadata?token=${token}`)).body.accessLevel).toBe('full')
    expect((await fetch(`${base()}/v1/pay/${link.invoiceId}/pdf?token=${token}`)).status).toBe(200)
    const logged = lines.join('\n')
    expect(logged).toContain(`/v1/pay/${link.invoiceId}/metadata`)
    expect(logged).toContain(`/v1/pay/${link.invoiceId}/pdf`)
    expect(logged).not.toContain(token)
    expect(logged).not.toContain('svc_tk_')
    expect(lines.map((line) => JSON.parse(line))).toContainEqual({
      level: 'info',
      time: expect.any(String),
      pid: process.pid,
      hostname: expect.any(String),
      msg: 'request',
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      method: 'GET',
      path: `/v1/pay/${link.invoiceId}/metadata`,
      route: '/v1/pay/:id/metadata',
      status: 200,
      ms: expect.any(Number),
    })
  })

  test('behavior: a sane x-request-id comes back and is logged; anything else is replaced by a fresh id', async () => {
    const id = ctx.devnet.seed.invoices[0]!.id
    const sent = await fetch(`${base()}/v1/nothing-here`, { headers: { 'x-request-id': 'lb-7f3a.c0ffee:1' } })
    expect(sent.headers.get('x-request-id')).toBe('lb-7f3a.c0ffee:1')
    expect(lines.map((line) => JSON.parse(line))).toContainEqual(expect.objectContaining({ requestId: 'lb-7f3a.c0ffee:1', status: 404 }))
    for (const offered of ['two words', 'x'.repeat(129), '"},{"level":"fatal']) {
      const replaced = (await fetch(`${base()}/v1/pay/${id}`, { headers: { 'x-request-id': offered } })).headers.get('x-request-id')
      expect(replaced).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    }
    const fresh = await Promise.all([1, 2].map(async () => (await fetch(`${base()}/v1/nothing-here`)).headers.get('x-request-id')))
    expect(fresh[0]).not.toBe(fresh[1])
  })

  test('behavior: after a 413 the client\'s next request on its keep-alive agent succeeds', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    onTestFinished(() => agent.destroy())
    const { port } = new URL(base())
    const send = (method: string, path: string, body?: Buffer) =>
      new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
        const headers = body ? { 'content-type': 'application/json', 'content-length': body.length } : {}
        const request = httpRequest({ host: '127.0.0.1', port, method, path, agent, headers }, (response) => {
          let text = ''
          response.on('data', (chunk) => (text += chunk))
          response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }))
        })
        request.on('error', reject)
        request.end(body)
      })
    const id = ctx.devnet.seed.invoices[0]!.id
    for (const size of [200 * 1024, 4 * 1024 * 1024]) {
      const refused = await send('POST', `/v1/pay/${id}/permit`, Buffer.alloc(size, ' '))
      expect(refused.status).toBe(413)
      expect(JSON.parse(refused.body)).toMatchObject({ error: 'PAYLOAD_TOO_LARGE', code: 'PAYLOAD_TOO_LARGE' })
      // the connection is closed, not left with an unread body: the agent opens a new one
      expect(refused.headers.connection).toBe('close')
      const next = await send('GET', `/v1/pay/${id}`)
      expect(next.status).toBe(200)
      expect(JSON.parse(next.body).data.id).toBe(id.toString())
    }
  })

  test('behavior: past the per-IP limit the pay routes answer 429 with Retry-After', async () => {
    const id = ctx.devnet.seed.invoices[0]!.id
    const answers = []
    for (let i = 0; i < 25; i++) answers.push(await api(base(), `/v1/pay/${id}`))
    const limited = answers.filter((a) => a.status === 429)
    expect(limited.length).toBeGreaterThan(0)
    expect(limited[0]!.body).toMatchObject({ error: 'RATE_LIMITED', code: 'RATE_LIMITED' })
    const retryAfter = Number(limited[0]!.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
  })

  test('behavior: unknown routes are a JSON 404', async () => {
    const { status, body } = await api(base(), '/v1/nothing-here')
    expect(status).toBe(404)
    expect(body).toMatchObject({ error: 'NOT_FOUND', code: 'NOT_FOUND' })
  })
})
