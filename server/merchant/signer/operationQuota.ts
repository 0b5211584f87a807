import { CodedError } from '../../../shared/codedError'
import type { Hex } from 'viem'
import type { Queryable } from '../../store/database'

/** SPEC 2.11 and 7.3: the studio's sponsored vault operations for the day or the month are used up. */
export class QuotaExceededError extends CodedError {
  override name = 'QuotaExceededError'
  readonly code = 'QUOTA_EXCEEDED'
}

/** One period's limit, what is used of it (`reserved` among it: handed out, not sent yet) and when it
 * starts again. */
export type QuotaPeriodUsage = { limit: number; used: number; reserved: number; resetsAt: Date }

export type OperationQuota = {
  /** Counts one sponsored operation for the studio today, or throws QuotaExceededError past the
   * day's or the month's limit. */
  reserve(studioId: string): Promise<void>
  /** Gives back a reservation whose operation was never sent (the bundler refused it). */
  release(studioId: string): Promise<void>
  /** Records a reserved operation handed out for the owner's wallet to sign: it stays reserved until
   * `sent` or the end of its sponsorship (`validUntil`, Unix seconds). */
  hold(studioId: string, userOpHash: Hex, validUntil: number): Promise<void>
  /** The operation went to the bundler through us: no longer reserved (it stays used). */
  sent(userOpHash: Hex): Promise<void>
  /** The day's limit and what is used of it, for the studio, and the month's beside it. */
  usage(studioId: string): Promise<QuotaPeriodUsage & { month: QuotaPeriodUsage }>
}

export type OperationQuotaLimits = { perDay: number; perMonth: number }

/** The database's UTC day, as text so that no driver turns it into a local midnight. */
const today = `(now() AT TIME ZONE 'UTC')::date`

/** The UTC day after `day` (YYYY-MM-DD) starts: when a studio's day starts again. */
export function dayAfter(day: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(year, month - 1, date + 1))
}

/** The first of the month after `day`'s, UTC: when a studio's month starts again. */
function monthAfter(day: string): Date {
  const [year, month] = day.split('-').map(Number) as [number, number]
  return new Date(Date.UTC(year, month, 1))
}

/** `day`'s month as a merchant names it: "November 2026". */
function monthName(day: string): string {
  const [year, month] = day.split('-').map(Number) as [number, number]
  return new Date(Date.UTC(year, month - 1, 1)).toLocaleString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' })
}

/**
 * A per-studio, per-UTC-day count of the vault operations our paymaster pays for, in the database so
 * every instance counts against one limit; a month is the sum of its days. The day and the month are
 * the database's, for the same reason.
 */
export function createOperationQuota(db: Queryable, { perDay, perMonth }: OperationQuotaLimits): OperationQuota {
  async function read(studioId: string) {
    const [row] = await db.query<{ today: string; day_used: number; month_used: number; day_reserved: number; month_reserved: number }>(
      `SELECT to_char(clock.today, 'YYYY-MM-DD') AS today,
         coalesce((SELECT used FROM merchant_operation_usage WHERE studio_id = $1 AND day = clock.today), 0)::int AS day_used,
         coalesce((SELECT sum(used) FROM merchant_operation_usage WHERE studio_id = $1 AND day >= date_trunc('month', clock.today)::date AND day <= clock.today), 0)::int AS month_used,
         (SELECT count(*) FROM merchant_operation_reservations WHERE studio_id = $1 AND sent_at IS NULL AND valid_until > now() AND day = clock.today)::int AS day_reserved,
         (SELECT count(*) FROM merchant_operation_reservations WHERE studio_id = $1 AND sent_at IS NULL AND valid_until > now() AND day >= date_trunc('month', clock.today)::date)::int AS month_reserved
       FROM (SELECT ${today} AS today) AS clock`,
      [studioId],
    )
    if (!row) throw new Error('the quota read answered no row')
    return row
  }

  return {
    async reserve(studioId) {
      // One statement, so that two instances reserving the last operation of the day or of the month
      // cannot both get it. Only today's row is ever counted up, and the insert or the update holds it
      // locked: the month's earlier days no longer change, so their sum read beside it is exact.
      const rows = await db.query<{ used: number }>(
        `WITH earlier AS (
           SELECT coalesce(sum(used), 0)::int AS used FROM merchant_operation_usage
           WHERE studio_id = $1 AND day >= date_trunc('month', ${today})::date AND day < ${today}
         )
         INSERT INTO merchant_operation_usage (studio_id, day, used)
         SELECT $1, ${today}, 1 FROM earlier WHERE $2 > 0 AND earlier.used < $3
         ON CONFLICT (studio_id, day) DO UPDATE SET used = merchant_operation_usage.used + 1
           WHERE merchant_operation_usage.used < $2 AND merchant_operation_usage.used + (SELECT used FROM earlier) < $3
         RETURNING used`,
        [studioId, perDay, perMonth],
      )
      if (rows.length > 0) return
      // refused: say which period is used, the month first as it is the longer wait
      const counted = await read(studioId)
      if (counted.month_used >= perMonth) {
        const resetsAt = monthAfter(counted.today)
        throw new QuotaExceededError(`this studio's ${perMonth} sponsored vault operations for ${monthName(counted.today)} are used: more from ${resetsAt.toISOString()}`, {
          details: { limit: perMonth, period: 'month', resetsAt: resetsAt.toISOString(), retryAfterSeconds: Math.ceil((resetsAt.getTime() - Date.now()) / 1000) },
        })
      }
      const resetsAt = dayAfter(counted.today)
      throw new QuotaExceededError(`this studio's ${perDay} sponsored vault operations for today are used: more from ${resetsAt.toISOString()}`, {
        details: { limit: perDay, period: 'day', resetsAt: resetsAt.toISOString(), retryAfterSeconds: Math.ceil((resetsAt.getTime() - Date.now()) / 1000) },
      })
    },
    async release(studioId) {
      await db.query(`UPDATE merchant_operation_usage SET used = used - 1 WHERE studio_id = $1 AND day = ${today} AND used > 0`, [studioId])
    },
    async hold(studioId, userOpHash, validUntil) {
      // counted in the day it was prepared, as its use was
      await db.query(
        `INSERT INTO merchant_operation_reservations (user_op_hash, studio_id, day, valid_until) VALUES ($1, $2, ${today}, to_timestamp($3))
         ON CONFLICT (user_op_hash) DO NOTHING`,
        [userOpHash.toLowerCase(), studioId, validUntil],
      )
      // a record is read only while it can still be sent: the studio's ended ones go
      await db.query(`DELETE FROM merchant_operation_reservations WHERE studio_id = $1 AND valid_until < now() - interval '1 day'`, [studioId])
    },
    async sent(userOpHash) {
      await db.query('UPDATE merchant_operation_reservations SET sent_at = statement_timestamp() WHERE user_op_hash = $1 AND sent_at IS NULL', [userOpHash.toLowerCase()])
    },
    async usage(studioId) {
      const counted = await read(studioId)
      return {
        limit: perDay,
        used: counted.day_used,
        reserved: counted.day_reserved,
        resetsAt: dayAfter(counted.today),
        month: { limit: perMonth, used: counted.month_used, reserved: counted.month_reserved, resetsAt: monthAfter(counted.today) },
      }
    },
  }
}
