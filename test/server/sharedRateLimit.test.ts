import { describe, expect, test } from 'vitest'
import { useInstances } from '../support/instances'
import { useRedis } from '../support/redis'
import { api } from '../support/server'

const shared = useRedis()
const ctx = useInstances({ overrides: { RATE_LIMIT_PER_MINUTE: '20' }, beforeServers: async () => ({ REDIS_URL: shared.redis.url }) })
const invoicePath = () => `/v1/pay/${ctx.devnet.seed.invoices[0]!.id}`

async function readyz(base: string) {
  const response = await fetch(`${base}/readyz`)
  return { status: response.status, body: await response.json() }
}

async function storeErrors(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text()
  return Number(/^svc_checkout_rate_limit_store_errors_total (\d+)/m.exec(text)?.[1] ?? 0)
}

describe('rate limits shared through Redis', () => {
  test('behavior: two instances, one client: the limit holds in sum, 429 with Retry-After from either', async () => {
    const answers = []
    // the load balancer alternates: each instance sees half of the client's requests
    for (let i = 0; i < 30; i++) answers.push(await api(ctx.servers[i % 2]!.url, invoicePath()))
    expect(answers.filter((a) => a.status === 200)).toHaveLength(20)
    const limited = answers.slice(20)
    expect(limited.map((a) => a.status)).toEqual(Array(10).fill(429))
    for (const answer of limited.slice(0, 2)) {
      expect(answer.body).toMatchObject({ error: 'RATE_LIMITED', code: 'RATE_LIMITED' })
      const retryAfter = Number(answer.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(60)
    }
    expect((await readyz(ctx.servers[0].url)).body.checks.redis).toBe('ok')
  })

  test('behavior: with Redis down the API answers, each instance limiting in its own memory, and stays ready', async () => {
    const [a, b] = ctx.servers
    await shared.redis.stop()
    try {
      const first = await api(a.url, invoicePath())
      expect(first.status).toBe(200)
      const answers = [first]
      for (let i = 1; i < 22; i++) answers.push(await api(a.url, invoicePath()))
      // this instance alone counts now: its 20, then 429; no 5xx anywhere
      expect(answers.map((answer) => answer.status)).toEqual([...Array(20).fill(200), 429, 429])
      expect((await api(b.url, invoicePath())).status).toBe(200)
      const ready = await readyz(a.url)
      expect(ready.status).toBe(200)
      expect(ready.body).toMatchObject({ status: 'ready', checks: { database: 'ok', redis: 'unreachable' } })
      expect(await storeErrors(a.url)).toBeGreaterThanOrEqual(22)
    } finally {
      await shared.redis.start()
    }
    // the client reconnects by itself, and the count is shared again
    await expect.poll(async () => (await readyz(b.url)).body.checks.redis, { timeout: 10_000, interval: 200 }).toBe('ok')
    const before = await storeErrors(b.url)
    expect((await api(b.url, invoicePath())).status).toBe(200)
    expect(await storeErrors(b.url)).toBe(before)
  })
})
