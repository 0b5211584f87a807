import { beforeAll, expect, test } from 'vitest'
import { seedDemoCustomer, seedMerchantAccess } from '../../devnet/seedMerchantAccess'
import { signedRequest } from '../support/signedRequest'
import { useServer } from '../support/server'

const ctx = useServer()
let key: { keyId: string; secret: string }
let customerId: string

beforeAll(async () => {
  const access = await seedMerchantAccess(ctx.server.stores, ctx.devnet)
  key = access.apiKey
  customerId = (await seedDemoCustomer(ctx.server.stores, access.studioId)).id
})

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

test('behavior: 20 issues in a row each answer Issued with their share link, 20 distinct invoices (their latency is printed for the record)', async () => {
  const durations: number[] = []
  const ids = new Set<string>()
  for (let i = 0; i < 20; i++) {
    const started = performance.now()
    const answer = await signedRequest(ctx.server.url, key, {
      method: 'POST',
      path: '/v1/invoices/issue',
      body: JSON.stringify({ customerId, amount: String(1_000_000 + i), dueDays: 14, description: `Support hours, week ${i + 1}` }),
      send: { headers: { 'idempotency-key': crypto.randomUUID() } },
    })
    durations.push(performance.now() - started)
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ status: 'Issued', amount: String(1_000_000 + i) })
    ids.add(answer.body.id)
  }
  expect(ids.size).toBe(20)
  const sorted = [...durations].sort((a, b) => a - b)
  const [p50, p99] = [percentile(sorted, 50), percentile(sorted, 99)]
  console.log(`issue → Issued on the devnet, 20 issues: p50 ${Math.round(p50)} ms, p99 ${Math.round(p99)} ms`)
})
