import { randomUUID } from 'node:crypto'
import { isUuid, type Database } from '../../store/database'

export type ApiKeyAuditEventName = 'created' | 'rotated' | 'revoked' | 'used'

export type ApiKeyAuditEvent = {
  id: string
  keyId: string
  event: ApiKeyAuditEventName
  userId: string | null
  method: string | null
  path: string | null
  createdAt: Date
}

type EventRow = { id: string; seq: string; key_id: string; event: ApiKeyAuditEventName; user_id: string | null; method: string | null; path: string | null; created_at: Date }

/** SPEC 2.8: about one authenticated request in ten is written as a key use. */
export const keyUseSampleRate = 0.1

/** What happened to a studio's API keys (migration 17), newest first. */
export function createApiKeyAuditLog(db: Database, random: () => number = Math.random) {
  async function record(studioId: string, keyId: string, event: ApiKeyAuditEventName, extra: { userId?: string | null; method?: string; path?: string } = {}) {
    await db.query('INSERT INTO api_key_audit_events (id, studio_id, key_id, event, user_id, method, path) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      randomUUID(),
      studioId,
      keyId,
      event,
      extra.userId ?? null,
      extra.method ?? null,
      extra.path?.slice(0, 300) ?? null,
    ])
  }
  return {
    record,

    /** A key's use, sampled and not awaited by the request: a full disk or a slow database must not
     * fail or slow the merchant's call, and SPEC 2.8 says the log is not complete. */
    sampleUse(studioId: string, keyId: string, method: string, path: string, onError: (error: unknown) => void): void {
      if (random() >= keyUseSampleRate) return
      record(studioId, keyId, 'used', { method, path }).catch(onError)
    },

    /** A page of events, newest first; `cursor` is the last event id of the page before. Null when
     * the cursor is no event of this studio. */
    async page(studioId: string, limit: number, cursor?: string): Promise<{ events: ApiKeyAuditEvent[]; nextCursor: string | null } | null> {
      let before: string | null = null
      if (cursor !== undefined) {
        if (!isUuid(cursor)) return null
        const [row] = await db.query<{ seq: string }>('SELECT seq FROM api_key_audit_events WHERE id = $1 AND studio_id = $2', [cursor, studioId])
        if (!row) return null
        before = row.seq
      }
      const rows = await db.query<EventRow>(
        `SELECT id, seq, key_id, event, user_id, method, path, created_at FROM api_key_audit_events
         WHERE studio_id = $1 AND ($2::bigint IS NULL OR seq < $2::bigint) ORDER BY seq DESC LIMIT $3`,
        [studioId, before, limit + 1],
      )
      const events = rows.slice(0, limit).map((row) => ({
        id: row.id,
        keyId: row.key_id,
        event: row.event,
        userId: row.user_id,
        method: row.method,
        path: row.path,
        createdAt: row.created_at,
      }))
      return { events, nextCursor: rows.length > limit ? events[events.length - 1]!.id : null }
    },
  }
}

export type ApiKeyAuditLog = ReturnType<typeof createApiKeyAuditLog>
