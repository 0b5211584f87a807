import { beforeAll, describe, expect, test } from 'vitest'
import { createOperationQuota, type OperationQuota } from '../../server/merchant/signer/operationQuota'
import type { Database } from '../../server/store/database'
import { createStudioStore } from '../../server/store/studioStore'
import { backends, useDatabases } from '../support/postgres'

const databases = useDatabases()
let serial = 0
const vault = () => `0x${(++serial).toString(16).padStart(40, '0')}` as const

/** The database's UTC day, the one the quota counts in. */
async function databaseDay(db: Database) {
  const [row] = await db.query<{ today: string; first: string; before: string }>(
    `SELECT to_char(d, 'YYYY-MM-DD') AS today, to_char(date_trunc('month', d), 'YYYY-MM-DD') AS first,
       to_char(date_trunc('month', d) - interval '1 day', 'YYYY-MM-DD') AS before
     FROM (SELECT (now() AT TIME ZONE 'UTC')::date AS d) AS clock`,
  )
  return row!
}

/** The first of the month after `day`'s, as the quota names it. */
const nextMonth = (day: string) => new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)), 1)).toISOString()

describe.each(backends)('%s', (backend) => {
  let one: Database
  let two: Database
  beforeAll(async () => {
    // two instances of the server on one database
    ;[one, two] = await databases.openTwo(backend)
  })

  /** A new studio whose month already counted `used` operations on its first day (today, on the 1st),
   * and a great many on the last day of the month before, which this month must not count. */
  async function studioWithMonthUsed(used: number) {
    const studio = await createStudioStore(one).createStudio({ vaultAddress: vault(), chainId: 31337 })
    const { first, before } = await databaseDay(one)
    await one.query('INSERT INTO merchant_operation_usage (studio_id, day, used) VALUES ($1, $2::date, $3), ($1, $4::date, 900)', [studio.id, first, used, before])
    return studio.id
  }

  test("behavior: the month's entry counts what its days counted, the day's only today's, and each period resets when the next begins", async () => {
    const quota = createOperationQuota(one, { perDay: 50, perMonth: 100 })
    const studioId = await studioWithMonthUsed(7)
    const { today, first } = await databaseDay(one)
    await quota.reserve(studioId)
    await quota.reserve(studioId)
    const usage = await quota.usage(studioId)
    // on the 1st, the seeded day is today
    expect(usage.used).toBe(today === first ? 9 : 2)
    expect(usage.month).toEqual({ limit: 100, used: 9, reserved: 0, resetsAt: new Date(nextMonth(today)) })
    expect(usage.limit).toBe(50)
    expect(usage.resetsAt.toISOString()).toBe(new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString())
  })

  test("behavior: past the month's limit an operation is refused, naming the month and the first of the next as when more come, and nothing more is counted", async () => {
    const quota = createOperationQuota(one, { perDay: 50, perMonth: 10 })
    const studioId = await studioWithMonthUsed(9)
    await quota.reserve(studioId)
    const { today } = await databaseDay(one)
    const refused = await quota.reserve(studioId).then(() => null, (error: unknown) => error)
    const monthName = new Date(`${today.slice(0, 7)}-01T00:00:00Z`).toLocaleString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' })
    expect(refused).toMatchObject({ code: 'QUOTA_EXCEEDED', details: { limit: 10, period: 'month', resetsAt: nextMonth(today) } })
    expect((refused as Error).message).toBe(`this studio's 10 sponsored vault operations for ${monthName} are used: more from ${nextMonth(today)}`)
    const { retryAfterSeconds } = (refused as { details: { retryAfterSeconds: number } }).details
    expect(Math.abs(Date.now() + retryAfterSeconds * 1000 - Date.parse(nextMonth(today)))).toBeLessThan(5_000)
    expect((await quota.usage(studioId)).month.used).toBe(10)
    // another studio's month is its own
    const other = await createStudioStore(one).createStudio({ vaultAddress: vault(), chainId: 31337 })
    await quota.reserve(other.id)
    expect((await quota.usage(other.id)).month.used).toBe(1)
  })

  test('behavior: past the day\'s limit with the month not used, the refusal names the day and the next UTC midnight', async () => {
    const quota = createOperationQuota(one, { perDay: 2, perMonth: 100 })
    const studio = await createStudioStore(one).createStudio({ vaultAddress: vault(), chainId: 31337 })
    await quota.reserve(studio.id)
    await quota.reserve(studio.id)
    const { today } = await databaseDay(one)
    const midnight = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString()
    await expect(quota.reserve(studio.id)).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED', message: expect.stringContaining('for today'), details: { limit: 2, period: 'day', resetsAt: midnight } })
    // a released operation is one more for the day and for the month
    await quota.release(studio.id)
    expect((await quota.usage(studio.id)).month.used).toBe(1)
    await quota.reserve(studio.id)
  })

  test('behavior: an operation held for the wallet is reserved in the day and the month until it is sent, or until its sponsorship ends', async () => {
    const quota = createOperationQuota(one, { perDay: 50, perMonth: 100 })
    const other = createOperationQuota(two, { perDay: 50, perMonth: 100 })
    const studio = await createStudioStore(one).createStudio({ vaultAddress: vault(), chainId: 31337 })
    const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as const
    const inSeconds = (seconds: number) => Math.floor(Date.now() / 1000) + seconds
    const held = ++serial * 10
    for (const [n, validUntil] of [[1, inSeconds(900)], [2, inSeconds(900)], [3, inSeconds(-1)]] as const) {
      await quota.reserve(studio.id)
      await quota.hold(studio.id, hash(held + n), validUntil)
    }
    const reserved = async () => {
      const usage = await other.usage(studio.id)
      return [usage.used, usage.reserved, usage.month.used, usage.month.reserved]
    }
    // the third one's sponsorship has ended: used, no longer reserved
    expect(await reserved()).toEqual([3, 2, 3, 2])
    // sent through another instance, upper-case or not: used still, no longer reserved, and sent once only
    await other.sent(`0x${hash(held + 1).slice(2).toUpperCase()}`)
    await other.sent(hash(held + 1))
    expect(await reserved()).toEqual([3, 1, 3, 1])
    await quota.sent(hash(held + 2))
    expect(await reserved()).toEqual([3, 0, 3, 0])
  })

  test('behavior: a month limit of 0 refuses every operation', async () => {
    const quota = createOperationQuota(one, { perDay: 5, perMonth: 0 })
    const studio = await createStudioStore(one).createStudio({ vaultAddress: vault(), chainId: 31337 })
    await expect(quota.reserve(studio.id)).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED', details: { period: 'month', limit: 0 } })
    expect((await quota.usage(studio.id)).used).toBe(0)
  })

  for (const todayCounted of [false, true]) {
    test(`behavior: two instances reserving the month's last operation at once${todayCounted ? ', today having counted some already' : ', as the day\'s first'}: exactly one gets it`, async () => {
      const limits = { perDay: 50, perMonth: 20 }
      const quotas: [OperationQuota, OperationQuota] = [createOperationQuota(one, limits), createOperationQuota(two, limits)]
      for (let round = 0; round < 10; round++) {
        const studioId = await studioWithMonthUsed(todayCounted ? 17 : 19)
        if (todayCounted) {
          await quotas[0].reserve(studioId)
          await quotas[1].reserve(studioId)
        }
        const outcomes = await Promise.allSettled([quotas[0].reserve(studioId), quotas[1].reserve(studioId)])
        expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1)
        expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({ reason: { code: 'QUOTA_EXCEEDED', details: { period: 'month' } } })
        expect((await quotas[0].usage(studioId)).month.used).toBe(20)
      }
    })
  }

  test('behavior: ten reserves through two instances with three left in the month: exactly three are counted', async () => {
    const limits = { perDay: 50, perMonth: 20 }
    const quotas = [createOperationQuota(one, limits), createOperationQuota(two, limits)]
    const studioId = await studioWithMonthUsed(17)
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => quotas[i % 2]!.reserve(studioId)))
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3)
    expect((await quotas[1]!.usage(studioId)).month.used).toBe(20)
  })
})
