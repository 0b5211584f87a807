import { describe, expect, test } from 'vitest'
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
