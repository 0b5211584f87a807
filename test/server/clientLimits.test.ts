import { once } from 'node:events'
import type { Redis } from 'ioredis'
import { afterAll, describe, expect, test } from 'vitest'
import { clientKeyOf } from '../../server/http/clientAddress'
import { Hono } from 'hono'
import { errorHandler } from '../../server/http/errorHandler'
import { memoryRateCounter, memoryRateCounterCapacity, rateLimit } from '../../server/http/rateLimit'
import { sharedRateCounter } from '../../server/http/sharedRateCounter'
import { silentLogger } from '../../server/http/logger'
import { connectRedis } from '../../server/ops/connectRedis'
import { useInProcessApp, useInProcessDatabase } from '../support/inProcessApp'
import { useRedis } from '../support/redis'

/** An address in 2001:db8:1:<subnet>::/64, its interface part `n`. */
const inSubnet = (subnet: number, n: number) => `2001:db8:1:${subnet.toString(16)}:${(n >> 16).toString(16)}:${(n & 0xffff).toString(16)}:a:b`

/** A request through one proxy of ours: the client wrote what it liked on the left, the proxy
 * appended the address it saw. */
const through = (client: string, forged = '203.0.113.9') => ({ headers: { 'x-forwarded-for': `${forged}, ${client}` } })

const limit = 1_000
// the apps below differ in their limits and proxies, not in what they store
const database = useInProcessDatabase()

describe('GET /pay/:id', () => {
  const ctx = useInProcessApp({ database, rateLimitPerMinute: limit, trustedProxies: { hops: 1 } })

  test('behavior: 2,000 requests from one /64, each from another address in it, are limited as one client; another /64 is not', async () => {
    const statuses: number[] = []
    for (let n = 0; n < 2_000; n++) statuses.push((await ctx.app.request('/pay/7', through(inSubnet(2, n)))).status)
    // the page is not built in this app: 503 is what a client under its limit is answered
    expect(statuses.slice(0, limit)).toEqual(Array(limit).fill(503))
    expect(statuses.slice(limit)).toEqual(Array(2_000 - limit).fill(429))
    const refused = await ctx.app.request('/pay/7', through(inSubnet(2, 99_999)))
    expect(await refused.json()).toMatchObject({ error: 'RATE_LIMITED', code: 'RATE_LIMITED' })
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60)
    expect((await ctx.app.request('/pay/7', through(inSubnet(3, 1)))).status).toBe(503)
  })

  test('behavior: the PDF route counts in the same per-client limit as the pay API', async () => {
    const client = through('198.51.100.20')
    const statuses: number[] = []
    for (let n = 0; n <= limit; n++) statuses.push((await ctx.app.request('/v1/pay/x/pdf', client)).status)
    expect(statuses.slice(0, limit).every((status) => status === 400)).toBe(true)
    expect(statuses[limit]).toBe(429)
  })
})

describe('POST /v1/pay/:id/permit and /prepare', () => {
  // a fifth and a tenth of the general limit, unless configured
  const ctx = useInProcessApp({ database, rateLimitPerMinute: 100, trustedProxies: { hops: 1 } })
  const post = (path: string, client: string) =>
    ctx.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': client }, body: '{}' })

  test('behavior: prepare is limited to 10 a minute per client and permit to 20, each apart from the other', async () => {
    const prepares: number[] = []
    for (let n = 0; n < 11; n++) prepares.push((await post('/v1/pay/1/prepare', '198.51.100.7')).status)
    expect(prepares).toEqual([...Array(10).fill(400), 429])
    const permits: number[] = []
    for (let n = 0; n < 21; n++) permits.push((await post('/v1/pay/1/permit', '198.51.100.7')).status)
    expect(permits).toEqual([...Array(20).fill(400), 429])
    expect((await post('/v1/pay/1/prepare', '198.51.100.8')).status).toBe(400)
  })
})

describe('POST /v1/paymaster, without Redis', () => {
  const ctx = useInProcessApp({ database, rateLimitPerMinute: 10, trustedProxies: { hops: 1 } })
  const paymaster = (client: string) =>
    ctx.app.request('/v1/paymaster', { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': client }, body: '{}' })

  test('behavior: it counts in the one per-client limit of /v1/pay/*, both ways', async () => {
    const pay = (client: string) => ctx.app.request('/v1/pay/x', { headers: { 'x-forwarded-for': client } })
    // the pay API's whole limit spent: the paymaster service refuses this client too
    for (let n = 0; n < 10; n++) expect((await pay('198.51.100.50')).status).toBe(400)
    expect((await paymaster('198.51.100.50')).status).toBe(429)
    // and the other way: a paymaster call takes from what the pay API has left
    expect((await paymaster('198.51.100.51')).status).not.toBe(429)
    for (let n = 0; n < 9; n++) expect((await pay('198.51.100.51')).status).toBe(400)
    expect((await pay('198.51.100.51')).status).toBe(429)
  })
})

describe('the in-memory count, full', () => {
  /** The /64s of 2001:db8::/47, one after another: 131,072 clients, as one subscriber with a /47 can be. */
  const spread = function* () {
    for (let n = 0; n < 2 ** 17; n++) yield clientKeyOf(`2001:db8:${(n >> 16).toString(16)}:${(n & 0xffff).toString(16)}::1`)!
  }

  test('behavior: a client spread over a /47 cannot evict another\'s live window: new clients are refused until windows end', async () => {
    let at = 1_000_000
    const counter = memoryRateCounter({ limit: 5, windowMs: 60_000, now: () => at })
    for (let n = 0; n < 5; n++) expect((await counter.consume('198.51.100.60')).retryAfterMs).toBeNull()
    expect((await counter.consume('198.51.100.60')).retryAfterMs).toBe(60_000)
    at += 1_000
    let refused = 0
    for (const key of spread()) if ((await counter.consume(key)).retryAfterMs !== null) refused += 1
    // one slot was the limited client's own
    expect(refused).toBe(2 ** 17 - (memoryRateCounterCapacity - 1))
    // still over its limit: its window was kept, not forgotten for a fresh one
    expect((await counter.consume('198.51.100.60')).retryAfterMs).toBe(59_000)
    // a new client waits for the oldest window to end, and is counted once one has
    expect((await counter.consume('198.51.100.61')).retryAfterMs).toBe(59_000)
    at += 59_000
    expect((await counter.consume('198.51.100.61')).retryAfterMs).toBeNull()
  })

  test('behavior: the refusal is the rate limit\'s 429, RATE_LIMITED with Retry-After', async () => {
    const app = new Hono()
    app.onError(errorHandler(silentLogger))
    const counter = memoryRateCounter({ limit: 100, windowMs: 60_000, capacity: 2 })
    app.use(rateLimit({ limit: 100, windowMs: 60_000, clientKey: (c) => c.req.header('x-client') ?? '', counter }))
    app.get('/', (c) => c.text('ok'))
    const from = (client: string) => app.request('/', { headers: { 'x-client': client } })
    expect([(await from('a')).status, (await from('b')).status, (await from('a')).status]).toEqual([200, 200, 200])
    const refused = await from('c')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('60')
    expect(await refused.json()).toMatchObject({ error: 'RATE_LIMITED', code: 'RATE_LIMITED' })
  })
})

describe('the client address', () => {
  test('behavior: IPv4 is counted per address, IPv6 per /64, an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(clientKeyOf('198.51.100.7')).toBe('198.51.100.7')
    expect(clientKeyOf('198.51.100.7:5100')).toBe('198.51.100.7')
    expect(clientKeyOf('::ffff:198.51.100.7')).toBe('198.51.100.7')
    expect(clientKeyOf('::ffff:c633:6407')).toBe('198.51.100.7')
    expect(clientKeyOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64')
    expect(clientKeyOf('[2001:db8:1:2::1]:443')).toBe('2001:db8:1:2::/64')
    expect(clientKeyOf('2001:DB8:1:2::')).toBe('2001:db8:1:2::/64')
    expect(clientKeyOf('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(clientKeyOf('not an address')).toBeNull()
  })

  describe('TRUSTED_PROXY_HOPS=2', () => {
    const ctx = useInProcessApp({ database, rateLimitPerMinute: 2, trustedProxies: { hops: 2 } })
    test('behavior: the entry two from the right is the client, whatever it wrote further left', async () => {
      const from = (forged: string) => ctx.app.request('/v1/pay/x', { headers: { 'x-forwarded-for': `${forged}, 198.51.100.30, 10.0.0.2` } })
      expect([(await from('1.1.1.1')).status, (await from('2.2.2.2')).status, (await from('3.3.3.3')).status]).toEqual([400, 400, 429])
    })
  })

  describe('TRUSTED_PROXY_CIDRS', () => {
    const ctx = useInProcessApp({ database, rateLimitPerMinute: 2, trustedProxies: { cidrs: ['10.0.0.0/8', 'fd00::/8'] } })
    test('behavior: the right-most entry outside our networks is the client', async () => {
      const from = (forwarded: string) => ctx.app.request('/v1/pay/x', { headers: { 'x-forwarded-for': forwarded } })
      const statuses = [
        (await from('7.7.7.7, 198.51.100.40, 10.1.2.3')).status,
        (await from('8.8.8.8, 198.51.100.40, fd00::5, 10.9.9.9')).status,
        (await from('198.51.100.40')).status,
      ]
      expect(statuses).toEqual([400, 400, 429])
      expect((await from('198.51.100.41, 10.1.2.3')).status).toBe(400)
    })
  })
})

describe('per /64 through Redis, shared by two instances', () => {
  const shared = useRedis()
  const clients: Redis[] = []
  const counter = (name: string, window: { limit: number; windowMs: number }) => {
    const redis = connectRedis(shared.redis.url)
    clients.push(redis)
    return sharedRateCounter({ redis, ...window, prefix: `svc_checkout_test:${name}`, fallback: memoryRateCounter(window), logger: silentLogger, onStoreError: () => {} })
  }
  const a = useInProcessApp({ database, rateLimitPerMinute: 50, trustedProxies: { hops: 1 }, sharedRateCounter: counter })
  const b = useInProcessApp({ database, rateLimitPerMinute: 50, trustedProxies: { hops: 1 }, sharedRateCounter: counter })
  afterAll(() => {
    for (const redis of clients) redis.disconnect()
  })

  test('behavior: addresses of one /64 spread over both instances share one count; another /64 has its own', async () => {
    // connected first: until then each instance counts in its own memory, as it would in an outage
    await Promise.all(clients.map((redis) => (redis.status === 'ready' ? undefined : once(redis, 'ready'))))
    const statuses: number[] = []
    for (let n = 0; n < 60; n++) statuses.push((await (n % 2 ? a : b).app.request('/pay/7', through(inSubnet(0x10, n)))).status)
    expect(statuses).toEqual([...Array(50).fill(503), ...Array(10).fill(429)])
    expect((await a.app.request('/pay/7', through(inSubnet(0x11, 1)))).status).toBe(503)
  })
})
