import { randomUUID } from 'node:crypto'
import { isUuid, type Database } from '../../store/database'

/** `agent_write`: a write by an MCP client or a CLI sign-in (OAuth), always written (migration 26). */
export type ApiKeyAuditEventName = 'created' | 'rotated' | 'revoked' | 'used' | 'agent_write'

export type ApiKeyAuditEvent = {
  id: string
  keyId: string
  event: ApiKeyAuditEventName
  userId: string | null
  method: string | null
  path: string | null
  /** The OAuth client's registered name, for an agent's write. */
  clientName: string | null
  /** What the write did, in the words the owner reads. */
  summary: string | null
  createdAt: Date
}

type EventRow = { id: string; seq: string; key_id: string; event: ApiKeyAuditEventName; user_id: string | null; method: string | null; path: string | null; client_name: string | null; summary: string | null; created_at: Date }

/** SPEC 2.8: about one authenticated request in ten is written as a key use. */
export const keyUseSampleRate = 0.1

/** What happened to a studio's API keys (migration 17), newest first. */
export function createApiKeyAuditLog(db: Database, random: () => number = Math.random) {
  async function record(studioId: string, keyId: string, event: ApiKeyAuditEventName, extra: { userId?: string | null; method?: string; path?: string; clientName?: string; summary?: string } = {}) {
    await db.query('INSERT INTO api_key_audit_events (id, studio_id, key_id, event, user_id, method, path, client_name, summary) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)', [
      randomUUID(),
      studioId,
      keyId,
      event,
      extra.userId ?? null,
      extra.method ?? null,
      extra.path?.slice(0, 300) ?? null,
      extra.clientName?.slice(0, 200) ?? null,
      extra.summary?.slice(0, 500) ?? null,
    ])
  }
  return {
    record,

    /** A write by an OAuth client (an MCP agent or a CLI sign-in): every one, awaited, so a write the
     * log could not keep is known to have failed to be kept. */
    recordAgentWrite(studioId: string, write: { clientId: string; clientName: string; userId: string; method: string; path: string; summary: string }) {
      return record(studioId, write.clientId, 'agent_write', write)
    },

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
        `SELECT id, seq, key_id, event, user_id, method, path, client_name, summary, created_at FROM api_key_audit_events
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
        clientName: row.client_name,
        summary: row.summary,
        createdAt: row.created_at,
      }))
      return { events, nextCursor: rows.length > limit ? events[events.length - 1]!.id : null }
    },
  }
}

export type ApiKeyAuditLog = ReturnType<typeof createApiKeyAuditLog>
