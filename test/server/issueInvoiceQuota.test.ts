import { beforeAll, expect, test } from 'vitest'
import { issueWithKey, registryInvoiceCount } from '../support/keyIssue'
import { seedDemoCustomer, seedMerchantAccess } from '../../devnet/seedMerchantAccess'
import { useServer } from '../support/server'

// one sponsored vault operation per studio per day
const ctx = useServer({ overrides: { MERCHANT_DAILY_OPERATION_QUOTA: '1' } })
let key: { keyId: string; secret: string }
let customerId: string

beforeAll(async () => {
  const access = await seedMerchantAccess(ctx.server.stores, ctx.devnet)
  key = access.apiKey
  customerId = (await seedDemoCustomer(ctx.server.stores, access.studioId)).id
})

const invoiceCount = () => registryInvoiceCount(ctx)

const issue = () => issueWithKey(ctx, key, customerId)

test("behavior: past the studio's daily quota of sponsored operations, issuing answers 429 QUOTA_EXCEEDED with Retry-After until the next UTC day, and nothing reaches the chain", async () => {
  expect((await issue()).status).toBe(200)
  const before = await invoiceCount()
  const refused = await issue()
  expect(refused.status).toBe(429)
  expect(refused.body).toMatchObject({ error: 'QUOTA_EXCEEDED', code: 'QUOTA_EXCEEDED', limit: 1 })
  // the next UTC midnight, as the answer names it (read from the answer, so a run across midnight
  // compares like with like), and Retry-After counting down to it
  const resetsAt = Date.parse(refused.body.resetsAt)
  expect(new Date(resetsAt).toISOString()).toMatch(/T00:00:00\.000Z$/)
  expect(resetsAt - Date.now()).toBeGreaterThan(0)
  expect(resetsAt - Date.now()).toBeLessThanOrEqual(86_400_000)
  const retryAfter = Number(refused.headers.get('retry-after'))
  expect(Math.abs(Date.now() + retryAfter * 1000 - resetsAt)).toBeLessThan(5_000)
  expect(await invoiceCount()).toBe(before)
})
