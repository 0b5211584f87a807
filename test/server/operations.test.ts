import { parseUnits } from 'viem'
import { afterAll, describe, expect, test } from 'vitest'
import { jsonLogger } from '../../server/http/logger'
import { checkReadiness, NotReadyError } from '../../server/ops/readiness'
import { startDevnetRpcBundlerServer, type startRpcBundlerServer } from '../support/rpcBundlerServer'
import { api, payThroughServer, useServer } from '../support/server'
import { startTcpProxy } from '../support/tcpProxy'

const lines: string[] = []
let rpc: Awaited<ReturnType<typeof startTcpProxy>>
let bundler: Awaited<ReturnType<typeof startRpcBundlerServer>>
// The server reaches the node through a proxy the tests can cut, and an external bundler they can stop.
const ctx = useServer({
  logger: jsonLogger((line) => lines.push(line)),
  async beforeServer(devnet) {
    rpc = await startTcpProxy(devnet.anvil.port)
    bundler = await startDevnetRpcBundlerServer(devnet)
    return { RPC_URL: rpc.url, BUNDLER_URL: bundler.url, PAYMASTER_URL: bundler.url }
  },
})
afterAll(async () => {
  await Promise.all([rpc?.stop(), bundler?.stop()])
})
const base = () => ctx.server.url
const allOk = { database: 'ok', migrations: 'ok', rpc: 'ok', bundler: 'ok' }

describe('GET /healthz', () => {
  test('default: 200 while the process answers', async () => {
    expect(await api(base(), '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } })
  })
})

describe('GET /metrics', () => {
  test('behavior: requests are timed by route pattern, payments counted by outcome, and no token or id is a label', async () => {
    const link = ctx.shareLinks[0]!
    const token = new URL(link.shareLink).searchParams.get('token')!
    expect((await api(base(), `/v1/pay/${link.invoiceId}/metadata?token=${token}`)).status).toBe(200)
    expect((await api(base(), `/v1/pay/${link.invoiceId}`)).status).toBe(200)
    expect((await api(base(), `/v1/pay/${link.invoiceId}/permit`, { payerAddress: 'not an address' })).status).toBe(400)
    const invoice = await ctx.devnet.newInvoice(parseUnits('12', 6))
    const { submit } = await payThroughServer(base(), invoice.id, await ctx.devnet.newPayer(parseUnits('50', 6)))
    expect(submit.status).toBe(200)

    const response = await fetch(`${base()}/metrics`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    const text = await response.text()
    expect(text).toMatch(/svc_checkout_http_request_duration_seconds_count\{method="GET",route="\/v1\/pay\/:id\/metadata",status="200"\} 1\n/)
    expect(text).toMatch(/svc_checkout_http_request_duration_seconds_count\{method="GET",route="\/v1\/pay\/:id",status="200"\} 1\n/)
    expect(text).toMatch(/svc_checkout_http_request_duration_seconds_count\{method="POST",route="\/v1\/pay\/:id\/permit",status="400"\} 1\n/)
    expect(text).toContain('svc_checkout_permits_total{outcome="VALIDATION_ERROR"} 1\n')
    expect(text).toContain('svc_checkout_permits_total{outcome="ok"} 1\n')
    expect(text).toContain('svc_checkout_prepares_total{outcome="ok"} 1\n')
    expect(text).toContain('svc_checkout_submissions_total{outcome="confirmed"} 1\n')
    expect(text).toContain('svc_checkout_pending_operations 0\n')
    expect(text).toMatch(/svc_checkout_rpc_duration_seconds_count\{method="eth_call",outcome="ok"\} [1-9]/)
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m)
    expect(text).not.toContain('svc_tk_')
    expect(text).not.toContain(token)
    expect(text).not.toMatch(/\/v1\/pay\/\d/)
  })
})

describe('GET /readyz', () => {
  test('default: 200 naming every dependency ok', async () => {
    expect(await api(base(), '/readyz')).toMatchObject({ status: 200, body: { status: 'ready', checks: allOk } })
  })

  test('behavior: 503 naming the rpc while the node is unreachable, and 200 again once it is back', async () => {
    await rpc.stop()
    try {
      const started = performance.now()
      const down = await api(base(), '/readyz')
      expect(performance.now() - started).toBeLessThan(3_000)
      expect(down).toMatchObject({ status: 503, body: { status: 'unready', checks: { ...allOk, rpc: 'unreachable' } } })
      expect(down.headers.get('cache-control')).toBe('no-store')

      // a request the outage fails is logged with the id the client sent
      const failed = await fetch(`${base()}/v1/pay/987654`, { headers: { 'x-request-id': 'ops-rpc-down-1' } })
      expect(failed.status).toBe(503)
      expect(failed.headers.get('x-request-id')).toBe('ops-rpc-down-1')
      const logged = lines.map((line) => JSON.parse(line)).filter((line) => line.requestId === 'ops-rpc-down-1')
      expect(logged).toEqual([
        expect.objectContaining({ level: 'error', msg: 'upstream failure', code: 'CHAIN_UNAVAILABLE', route: '/v1/pay/:id' }),
        expect.objectContaining({ level: 'info', msg: 'request', method: 'GET', path: '/v1/pay/987654', route: '/v1/pay/:id', status: 503 }),
      ])
    } finally {
      await rpc.start()
    }
    expect(await api(base(), '/readyz')).toMatchObject({ status: 200, body: { checks: allOk } })
  })

  test('behavior: 503 naming the bundler while it is down', async () => {
    await bundler.stop()
    try {
      expect(await api(base(), '/readyz')).toMatchObject({ status: 503, body: { status: 'unready', checks: { ...allOk, bundler: 'unreachable' } } })
    } finally {
      await bundler.start()
    }
    expect((await api(base(), '/readyz')).status).toBe(200)
  })

  test('behavior: a check that hangs is named timeout once its time is up, and never holds the others', async () => {
    const started = performance.now()
    const readiness = await checkReadiness(
      {
        answers: async () => {},
        hangs: () => new Promise(() => {}),
        behind: async () => {
          throw new NotReadyError('pending')
        },
        refuses: async () => {
          throw new Error('connect ECONNREFUSED 127.0.0.1:1')
        },
      },
      200,
    )
    expect(readiness).toEqual({ ready: false, checks: { answers: 'ok', hangs: 'timeout', behind: 'pending', refuses: 'unreachable' } })
    expect(performance.now() - started).toBeLessThan(1_000)
  })

  test('behavior: probes stay out of the info log', async () => {
    const before = lines.length
    await api(base(), '/healthz')
    await api(base(), '/readyz')
    expect(lines.slice(before)).toEqual([])
  })
})
