import { beforeAll, expect, test } from 'vitest'
import { issueWithKey, registryInvoiceCount } from '../support/keyIssue'
import { seedDemoCustomer, seedMerchantAccess } from '../../devnet/seedMerchantAccess'
import { demoMerchantUser, seedMerchantLogin } from '../../devnet/seedMerchantLogin'
import { freshMerchant, merchantCalls, ownerSigns, paidInvoice, randomAddress, type FreshMerchant } from '../support/ownerOperations'
import { answerOf } from '../support/signedRequest'
import { useSignedInServer } from '../support/signedInServer'

// a day roomy enough, a month of four sponsored operations
/** The owner of a studio of its own, whose withdrawals move nothing the demo studio's tests read. */
const withdrawer = { subject: 'quota-withdrawer', email: 'withdrawer@quotas.test', password: 'withdrawer-password', name: 'Withdrawer' }
const { ctx, signIn, issuer } = useSignedInServer({ users: [demoMerchantUser, withdrawer], overrides: { MERCHANT_DAILY_OPERATION_QUOTA: '100', MERCHANT_MONTHLY_OPERATION_QUOTA: '4' } })
let studioId: string
let key: { keyId: string; secret: string }
let customerId: string
let token: string
/** The database's UTC day and its month's first, the ones the quota counts in. */
let today: string
let first: string

beforeAll(async () => {
  ;({ studioId, apiKey: key } = await seedMerchantAccess(ctx.server.stores, ctx.devnet))
  customerId = (await seedDemoCustomer(ctx.server.stores, studioId)).id
  await seedMerchantLogin(ctx.server.stores, issuer(), studioId)
  token = await signIn(demoMerchantUser)
  const [clock] = await ctx.server.stores.db.query<{ today: string; first: string }>(
    `SELECT to_char(d, 'YYYY-MM-DD') AS today, to_char(date_trunc('month', d), 'YYYY-MM-DD') AS first FROM (SELECT (now() AT TIME ZONE 'UTC')::date AS d) AS clock`,
  )
  ;({ today, first } = clock!)
  // the month's first day already sponsored three of the studio's operations (today's own, on the 1st)
  await ctx.server.stores.db.query('INSERT INTO merchant_operation_usage (studio_id, day, used) VALUES ($1, $2::date, 3)', [studioId, first])
})

const invoiceCount = () => registryInvoiceCount(ctx)
const nextMonth = () => new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)), 1)).toISOString()
const quotas = async (of = studioId, bearer = token) => answerOf(await fetch(`${ctx.server.url}/v1/studios/${of}/quotas`, { headers: { authorization: `Bearer ${bearer}` } }))

const issue = () => issueWithKey(ctx, key, customerId)

test("behavior: the quotas answer a day entry and a month entry, the month counting what the month's days counted", async () => {
  const answer = await quotas()
  expect(answer.status).toBe(200)
  const dayUsed = today === first ? 3 : 0
  expect(answer.body).toEqual({
    success: true,
    studioId,
    quotas: [
      { name: 'sponsored_operations', period: 'day', limit: 100, used: dayUsed, reserved: 0, remaining: 1, resetsAt: new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString() },
      { name: 'sponsored_operations', period: 'month', limit: 4, used: 3, reserved: 0, remaining: 1, resetsAt: nextMonth() },
    ],
  })
})

test("behavior: past the studio's monthly quota, issuing answers 429 QUOTA_EXCEEDED naming the month, with Retry-After until the first of the next, and nothing reaches the chain", async () => {
  // the month's last operation goes through
  expect((await issue()).status).toBe(200)
  const before = await invoiceCount()
  const refused = await issue()
  expect(refused.status).toBe(429)
  const monthName = new Date(`${first}T00:00:00Z`).toLocaleString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' })
  expect(refused.body).toMatchObject({ error: 'QUOTA_EXCEEDED', code: 'QUOTA_EXCEEDED', limit: 4, period: 'month', resetsAt: nextMonth(), message: expect.stringContaining(`for ${monthName}`) })
  const retryAfter = Number(refused.headers.get('retry-after'))
  expect(Math.abs(Date.now() + retryAfter * 1000 - Date.parse(nextMonth()))).toBeLessThan(5_000)
  expect(await invoiceCount()).toBe(before)
  // the answer reads the same counter: the month is used, and so is what the day can still send
  const answer = await quotas()
  expect(answer.body.quotas).toMatchObject([
    { period: 'day', limit: 100, used: today === first ? 4 : 1, remaining: 0 },
    { period: 'month', limit: 4, used: 4, remaining: 0 },
  ])
})

test("behavior: a prepared withdrawal is reserved, used from its prepare, until the owner's signed operation is sent; one never sent stays reserved", async () => {
  const merchant: FreshMerchant = await freshMerchant(ctx, 'Quota Withdrawals Ltd')
  await seedMerchantLogin(ctx.server.stores, issuer(), merchant.studioId, withdrawer)
  const bearer = await signIn(withdrawer)
  await ctx.server.stores.withdrawalAddresses.set(merchant.studioId, randomAddress())
  await paidInvoice(ctx, merchant, 50_000_000n)
  const { post } = merchantCalls(ctx, () => merchant)
  const periods = async () => (await quotas(merchant.studioId, bearer)).body.quotas.map(({ period, used, reserved }: { period: string; used: number; reserved: number }) => ({ period, used, reserved }))
  expect(await periods()).toEqual([{ period: 'day', used: 0, reserved: 0 }, { period: 'month', used: 0, reserved: 0 }])

  const first = await post('/v1/withdrawals/prepare', { ownerAddress: merchant.owner, amount: '1000000' })
  expect(first.status).toBe(200)
  expect(await periods()).toEqual([{ period: 'day', used: 1, reserved: 1 }, { period: 'month', used: 1, reserved: 1 }])
  // a second one the owner never signs
  expect((await post('/v1/withdrawals/prepare', { ownerAddress: merchant.owner, amount: '2000000' })).status).toBe(200)
  expect(await periods()).toEqual([{ period: 'day', used: 2, reserved: 2 }, { period: 'month', used: 2, reserved: 2 }])

  const sent = await post('/v1/withdrawals', { userOp: await ownerSigns(first.body, merchant.ownerPrivateKey) })
  expect(sent).toMatchObject({ status: 200, body: { status: 'confirmed' } })
  expect(await periods()).toEqual([{ period: 'day', used: 2, reserved: 1 }, { period: 'month', used: 2, reserved: 1 }])
})
