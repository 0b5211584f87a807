import { describe, expect, test } from 'vitest'
import { useServer } from '../support/server'

const ctx = useServer({ overrides: { OPS_PORT: '0' } })

describe('OPS_PORT', () => {
  test('behavior: /metrics and /readyz are served on the operations listener, on 127.0.0.1 by default', async () => {
    const ops = ctx.server.opsUrl!
    expect(new URL(ops).hostname).toBe('127.0.0.1')
    expect(new URL(ops).port).not.toBe(String(ctx.server.port))
    const metrics = await fetch(`${ops}/metrics`)
    expect(metrics.status).toBe(200)
    expect(await metrics.text()).toMatch(/^# TYPE svc_checkout_http_request_duration_seconds histogram$/m)
    const ready = await fetch(`${ops}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', rpc: 'ok', bundler: 'ok' } })
  })

  test('behavior: the public listener answers 404 for them, and still answers /healthz', async () => {
    for (const path of ['/metrics', '/readyz']) {
      const answer = await fetch(`${ctx.server.url}${path}`)
      expect({ path, status: answer.status, body: await answer.json() }).toEqual({ path, status: 404, body: { error: 'NOT_FOUND', code: 'NOT_FOUND', message: 'no such route' } })
    }
    expect(await (await fetch(`${ctx.server.url}/healthz`)).json()).toEqual({ status: 'ok' })
    // the public listener's own requests are what the operations listener's metrics count
    await fetch(`${ctx.server.url}/v1/pay/${ctx.devnet.seed.invoices[0]!.id}`)
    expect(await (await fetch(`${ctx.server.opsUrl}/metrics`)).text()).toMatch(/route="\/v1\/pay\/:id",status="200"/)
  })
})
