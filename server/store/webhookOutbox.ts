import { randomUUID } from 'node:crypto'
import type { Address, Hex } from 'viem'
import type { WebhookEvent, WebhookEventType } from '../../shared/webhookWire'
import type { Database, Queryable } from './database'

/** A registry log as an event to enqueue: its place on the chain is its identity. */
export type NewWebhookEvent = { txHash: Hex; logIndex: number; blockNumber: bigint; merchant: Address; event: WebhookEvent }

export type WebhookCursor = { nextBlock: bigint; lastBlockHash: Hex | null }

/** One delivery an instance holds the lease on. `webhookId` and `body` stay the same on every attempt. */
export type ClaimedDelivery = {
  eventId: string
  endpointId: string
  webhookId: string
  /** The event serialized once, when it was enqueued: the bytes each attempt signs and sends. */
  body: string
  attempts: number
  /** Since the event was enqueued for this endpoint, by the database's clock. */
  ageMs: number
}

type ClaimedRow = { event_id: string; endpoint_id: string; payload: string; attempts: number; age_ms: string | number }

const ms = (value: number) => `(${Math.max(0, Math.round(value))} * interval '1 millisecond')`

/** Standard Webhooks ids are opaque; ours name the event, the same for each endpoint and attempt. */
export const webhookIdOf = (eventId: string) => `msg_${eventId.replaceAll('-', '')}`

/**
 * The webhooks' outbox in the database: how far the registry's logs were read, the events read from
 * them, and a delivery per event and endpoint, leased to one instance at a time.
 */
export function createWebhookOutbox(db: Database, { chainId, registry }: { chainId: number; registry: Address }) {
  const registryKey = registry.toLowerCase()
  return {
    /** Where reading resumes; created at `fromBlock` on first use. */
    async readCursor(fromBlock: bigint): Promise<WebhookCursor> {
      await db.query('INSERT INTO webhook_cursors (chain_id, registry, next_block) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [chainId, registryKey, fromBlock.toString()])
      const [row] = await db.query<{ next_block: string; last_block_hash: Hex | null }>(
        'SELECT next_block::text AS next_block, last_block_hash FROM webhook_cursors WHERE chain_id = $1 AND registry = $2',
        [chainId, registryKey],
      )
      return { nextBlock: BigInt(row!.next_block), lastBlockHash: row!.last_block_hash }
    },

    /** Of `merchants`, the ones some endpoint listens to, each with the event types asked for (keys
     * lowercase): what the follower asks before reading anything more of a log from the chain. */
    async wantedEvents(merchants: readonly Address[]): Promise<Map<string, Set<WebhookEventType>>> {
      const wanted = new Map<string, Set<WebhookEventType>>()
      if (merchants.length === 0) return wanted
      const rows = await db.query<{ merchant: string; type: WebhookEventType }>(
        `SELECT DISTINCT s.vault_address AS merchant, t.type
         FROM webhook_endpoints e JOIN studios s ON s.id = e.studio_id CROSS JOIN LATERAL unnest(e.events) AS t(type)
         WHERE s.chain_id = $1 AND s.vault_address = ANY ($2::text[])`,
        [chainId, [...new Set(merchants.map((merchant) => merchant.toLowerCase()))]],
      )
      for (const { merchant, type } of rows) wanted.set(merchant, (wanted.get(merchant) ?? new Set()).add(type))
      return wanted
    },

    /**
     * Records blocks `from`..`to` as read (the last one's hash with them) and enqueues their events,
     * in one transaction; only if the cursor still stands at `from`: another instance that read the
     * same blocks first already did. An event is kept when an endpoint asked for its type, of the
     * studio whose vault is the invoice's merchant; it is inserted once by its log's place, and only
     * an event inserted here gets deliveries, one per such endpoint. Returns the events that were new, or null when another
     * instance had moved the cursor. `alsoRecord` writes what else the same blocks say (the invoice
     * index) in the same transaction, once the cursor moved: it is as far as the cursor, never apart.
     */
    async advance({ from, to, toHash, events, alsoRecord }: {
      from: bigint
      to: bigint
      toHash: Hex
      events: readonly NewWebhookEvent[]
      alsoRecord?: (tx: Queryable) => Promise<void>
    }): Promise<NewWebhookEvent[] | null> {
      return db.transaction(async (tx) => {
        const moved = await tx.query(
          `UPDATE webhook_cursors SET next_block = $3, last_block_hash = $4, updated_at = now()
           WHERE chain_id = $1 AND registry = $2 AND next_block = $5 RETURNING next_block`,
          [chainId, registryKey, (to + 1n).toString(), toHash.toLowerCase(), from.toString()],
        )
        if (moved.length === 0) return null
        await alsoRecord?.(tx)
        const inserted: NewWebhookEvent[] = []
        for (const event of events) {
          const id = randomUUID()
          // kept only when some endpoint asked for it: the registry's other merchants are none of ours
          const rows = await tx.query(
            `INSERT INTO webhook_events (id, chain_id, registry, tx_hash, log_index, block_number, merchant, type, payload)
             SELECT $1::uuid, $2::integer, $3::text, $4::text, $5::integer, $6::numeric, $7::text, $8::text, $9::text
             WHERE EXISTS (
               SELECT 1 FROM webhook_endpoints e JOIN studios s ON s.id = e.studio_id
               WHERE s.chain_id = $2::integer AND s.vault_address = $7::text AND $8::text = ANY (e.events))
             ON CONFLICT ON CONSTRAINT webhook_events_log_unique DO NOTHING RETURNING id`,
            [id, chainId, registryKey, event.txHash.toLowerCase(), event.logIndex, event.blockNumber.toString(), event.merchant.toLowerCase(), event.event.type, JSON.stringify(event.event)],
          )
          if (rows.length === 0) continue
          inserted.push(event)
          await tx.query(
            `INSERT INTO webhook_deliveries (event_id, endpoint_id, state)
             SELECT $1, e.id, 'pending' FROM webhook_endpoints e JOIN studios s ON s.id = e.studio_id
             WHERE s.chain_id = $2 AND s.vault_address = $3 AND $4 = ANY (e.events)`,
            [id, chainId, event.merchant.toLowerCase(), event.event.type],
          )
        }
        return inserted
      })
    },

    /**
     * Leases up to `limit` due deliveries to `instance` for `leaseMs`, oldest due first, and at most
     * `perEndpoint` per endpoint counting the `inFlight` this instance is already sending to it: one
     * endpoint's backlog cannot take every slot. SKIP LOCKED lets instances claiming at once take
     * different rows; the lease re-checked on the locked row makes each theirs alone.
     */
    async claim({ instance, leaseMs, limit, perEndpoint = limit, inFlight = new Map() }: {
      instance: string
      leaseMs: number
      limit: number
      perEndpoint?: number
      inFlight?: ReadonlyMap<string, number>
    }): Promise<ClaimedDelivery[]> {
      const rows = await db.query<ClaimedRow>(
        `WITH busy AS (
           SELECT * FROM unnest($3::uuid[], $4::integer[]) AS b (endpoint_id, in_flight)),
         ranked AS (
           SELECT d.event_id, d.endpoint_id, d.next_attempt_at,
                  row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at) + coalesce(b.in_flight, 0) AS slot
           FROM webhook_deliveries d LEFT JOIN busy b ON b.endpoint_id = d.endpoint_id
           WHERE d.state = 'pending' AND d.next_attempt_at <= now() AND (d.lease_until IS NULL OR d.lease_until < now())),
         chosen AS (
           SELECT d.event_id, d.endpoint_id FROM webhook_deliveries d
           WHERE (d.event_id, d.endpoint_id) IN (SELECT event_id, endpoint_id FROM ranked WHERE slot <= $5 ORDER BY next_attempt_at LIMIT $2)
             AND d.state = 'pending' AND (d.lease_until IS NULL OR d.lease_until < now())
           FOR UPDATE SKIP LOCKED),
         claimed AS (
           UPDATE webhook_deliveries SET leased_by = $1, lease_until = now() + ${ms(leaseMs)}
           WHERE (event_id, endpoint_id) IN (SELECT event_id, endpoint_id FROM chosen)
           RETURNING event_id, endpoint_id, attempts, created_at, next_attempt_at)
         SELECT claimed.event_id, claimed.endpoint_id, claimed.attempts, e.payload,
                (extract(epoch FROM now() - claimed.created_at) * 1000)::bigint AS age_ms
         FROM claimed JOIN webhook_events e ON e.id = claimed.event_id
         ORDER BY claimed.next_attempt_at`,
        [instance, limit, [...inFlight.keys()], [...inFlight.values()], perEndpoint],
      )
      return rows.map((row) => ({
        eventId: row.event_id,
        endpointId: row.endpoint_id,
        webhookId: webhookIdOf(row.event_id),
        body: row.payload,
        attempts: row.attempts,
        ageMs: Number(row.age_ms),
      }))
    },

    /** Deletes up to `limit` deliveries delivered or given up before `before`, then the events left
     * with no delivery that were enqueued before it. Returns how many deliveries went. */
    async pruneFinished(before: Date, limit = 500): Promise<number> {
      const deleted = await db.query(
        `DELETE FROM webhook_deliveries WHERE (event_id, endpoint_id) IN (
           SELECT event_id, endpoint_id FROM webhook_deliveries WHERE state <> 'pending' AND finished_at < $1 LIMIT $2)
         RETURNING event_id`,
        [before, limit],
      )
      // an event's deliveries may also have gone with their endpoint
      await db.query(
        `DELETE FROM webhook_events WHERE id IN (
           SELECT e.id FROM webhook_events e WHERE e.created_at < $1
             AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id) LIMIT $2)`,
        [before, limit],
      )
      return deleted.length
    },

    /** Received: done, and the endpoint is no longer failing. */
    async markDelivered(delivery: ClaimedDelivery, instance: string, status: number): Promise<void> {
      await db.transaction(async (tx) => {
        const rows = await tx.query(
          `UPDATE webhook_deliveries SET state = 'delivered', attempts = attempts + 1, last_status = $4, finished_at = now(), leased_by = NULL, lease_until = NULL
           WHERE event_id = $1 AND endpoint_id = $2 AND leased_by = $3 AND state = 'pending' RETURNING endpoint_id`,
          [delivery.eventId, delivery.endpointId, instance, status],
        )
        if (rows.length > 0) await tx.query('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1', [delivery.endpointId])
      })
    },

    /** Not received: tried again in `delayMs`, with the same webhook id. */
    async scheduleRetry(delivery: ClaimedDelivery, instance: string, delayMs: number, status: number | null): Promise<void> {
      await db.query(
        `UPDATE webhook_deliveries SET attempts = attempts + 1, last_status = $4, next_attempt_at = now() + ${ms(delayMs)}, leased_by = NULL, lease_until = NULL
         WHERE event_id = $1 AND endpoint_id = $2 AND leased_by = $3 AND state = 'pending'`,
        [delivery.eventId, delivery.endpointId, instance, status],
      )
    },

    /** Given up on: the endpoint is marked failing (since the first such delivery). */
    async markFailed(delivery: ClaimedDelivery, instance: string, status: number | null): Promise<void> {
      await db.transaction(async (tx) => {
        const rows = await tx.query(
          `UPDATE webhook_deliveries SET state = 'failed', attempts = attempts + 1, last_status = $4, finished_at = now(), leased_by = NULL, lease_until = NULL
           WHERE event_id = $1 AND endpoint_id = $2 AND leased_by = $3 AND state = 'pending' RETURNING endpoint_id`,
          [delivery.eventId, delivery.endpointId, instance, status],
        )
        if (rows.length > 0) await tx.query('UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, now()) WHERE id = $1', [delivery.endpointId])
      })
    },
  }
}

export type WebhookOutbox = ReturnType<typeof createWebhookOutbox>
