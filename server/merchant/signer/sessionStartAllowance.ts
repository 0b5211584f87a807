import type { Queryable } from '../../store/database'
import { dayAfter, QuotaExceededError } from './operationQuota'

/** The day's sponsored session starts: how many, how many are used, and when the count starts again. */
export type SessionStartUsage = { limit: number; used: number; resetsAt: Date }

export type SessionStartAllowance = {
  /**
   * Counts a sponsored StartSession for the studio's vault at `nonce` today, or throws
   * QuotaExceededError once `perDay` nonces have had one.
   */
  sponsor(studioId: string, nonce: bigint): Promise<void>
  /** The studio's starts of the UTC day, read as sponsor() counts them. */
  usage(studioId: string): Promise<SessionStartUsage>
}

/**
 * The server signer's session starts our paymaster sponsors for a studio in a UTC day
 * (MERCHANT_DAILY_SESSION_STARTS). Lifecycle operations spend no operation quota, so that an owner can
 * always end a session; unbounded, a wallet that bundles its own operations could start and end
 * sessions in turn at our paymaster's expense. Only starts are counted: an end needs a live session,
 * and a session needs a start. Counted once per vault nonce, since only one operation at a nonce can
 * ever be included: a status read again, or a key made while a start waits to be signed, costs
 * nothing more. Nonces only rise, so one row per studio and day with the highest nonce seen is enough,
 * written in one statement so that instances answering at once count once.
 */
export function createSessionStartAllowance(db: Queryable, { perDay }: { perDay: number }): SessionStartAllowance {
  // the day is the database's, as the count is
  async function usage(studioId: string): Promise<SessionStartUsage> {
    const [row] = await db.query<{ today: string; starts: number }>(
      `SELECT to_char(clock.today, 'YYYY-MM-DD') AS today,
         coalesce((SELECT starts FROM signer_session_sponsorships WHERE studio_id = $1 AND day = clock.today), 0)::int AS starts
       FROM (SELECT (now() AT TIME ZONE 'UTC')::date AS today) AS clock`,
      [studioId],
    )
    return { limit: perDay, used: row!.starts, resetsAt: dayAfter(row!.today) }
  }

  return {
    usage,
    async sponsor(studioId, nonce) {
      const rows = await db.query<{ starts: number }>(
        `INSERT INTO signer_session_sponsorships (studio_id, day, starts, last_nonce) SELECT $1, (now() AT TIME ZONE 'UTC')::date, 1, $2 WHERE $3 > 0
         ON CONFLICT (studio_id, day) DO UPDATE
           SET starts = CASE WHEN signer_session_sponsorships.last_nonce >= EXCLUDED.last_nonce THEN signer_session_sponsorships.starts ELSE signer_session_sponsorships.starts + 1 END,
               last_nonce = GREATEST(signer_session_sponsorships.last_nonce, EXCLUDED.last_nonce)
           WHERE signer_session_sponsorships.last_nonce >= EXCLUDED.last_nonce OR signer_session_sponsorships.starts < $3
         RETURNING starts`,
        [studioId, nonce.toString(), perDay],
      )
      if (rows.length > 0) return
      const { resetsAt } = await usage(studioId)
      const retryAfterSeconds = Math.max(1, Math.ceil((resetsAt.getTime() - Date.now()) / 1000))
      throw new QuotaExceededError(
        `the server signer was started ${perDay} times today, as many as we sponsor a studio in a day: you can start it again from ${resetsAt.toISOString().slice(11, 16)} UTC (${resetsAt.toISOString()}). Ending a session is never limited.`,
        { details: { limit: perDay, period: 'day', resetsAt: resetsAt.toISOString(), retryAfterSeconds } },
      )
    },
  }
}
