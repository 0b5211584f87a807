import { CodedError } from '../../../shared/codedError'
import type { Queryable } from '../../store/database'

/** SPEC 2.11 and 7.3: the studio's sponsored vault operations for the day are used up. */
export class QuotaExceededError extends CodedError {
  override name = 'QuotaExceededError'
  readonly code = 'QUOTA_EXCEEDED'
}

export type OperationQuota = {
  /** Counts one sponsored operation for the studio today, or throws QuotaExceededError. */
  reserve(studioId: string): Promise<void>
  /** Gives back a reservation whose operation was never sent (the bundler refused it). */
  release(studioId: string): Promise<void>
  /** The day's limit and what is used of it, for the studio. */
  usage(studioId: string): Promise<{ limit: number; used: number; resetsAt: Date }>
}

/** The next UTC midnight after `now`: when a studio's day starts again. */
function nextUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))
}

/**
 * A per-studio, per-UTC-day count of the vault operations our paymaster pays for, in the database so
 * every instance counts against one limit. The day is the database's, for the same reason.
 */
export function createOperationQuota(db: Queryable, { perDay }: { perDay: number }): OperationQuota {
  return {
    async reserve(studioId) {
      // one statement: two instances reserving the last operation cannot both get it
      const rows = await db.query<{ used: number }>(
        `INSERT INTO merchant_operation_usage (studio_id, day, used) SELECT $1, (now() AT TIME ZONE 'UTC')::date, 1 WHERE $2 > 0
         ON CONFLICT (studio_id, day) DO UPDATE SET used = merchant_operation_usage.used + 1 WHERE merchant_operation_usage.used < $2
         RETURNING used`,
        [studioId, perDay],
      )
      if (rows.length === 0) {
        const resetsAt = nextUtcDay(new Date())
        throw new QuotaExceededError(`this studio's ${perDay} sponsored vault operations for today are used: more from ${resetsAt.toISOString()}`, {
          details: { limit: perDay, resetsAt: resetsAt.toISOString(), retryAfterSeconds: Math.ceil((resetsAt.getTime() - Date.now()) / 1000) },
        })
      }
    },
    async release(studioId) {
      await db.query(
        `UPDATE merchant_operation_usage SET used = used - 1 WHERE studio_id = $1 AND day = (now() AT TIME ZONE 'UTC')::date AND used > 0`,
        [studioId],
      )
    },
    async usage(studioId) {
      const [row] = await db.query<{ used: number }>(
        `SELECT used FROM merchant_operation_usage WHERE studio_id = $1 AND day = (now() AT TIME ZONE 'UTC')::date`,
        [studioId],
      )
      return { limit: perDay, used: row?.used ?? 0, resetsAt: nextUtcDay(new Date()) }
    },
  }
}
