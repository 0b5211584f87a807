import { randomUUID } from 'node:crypto'
import type { Hex } from 'viem'
import type { Database, Queryable } from '../../store/database'
import { IdempotencyRefusedError, submissionUncertain } from './idempotencyErrors'

/** Where a key names an operation: the same key on another studio, chain or route is another one. */
export type IdempotencyScope = { studioId: string; chainId: number; route: string }

/** The record's states (SCHEMA.sql says what each means). */
export type IdempotencyState = 'started' | 'submitting' | 'submitted' | 'pending' | 'confirmed' | 'finalization_failed'

/** What JSON can carry unchanged: the work kept for finalization and the answer kept for replays. */
export type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json }

export type IdempotencyRecord = {
  state: IdempotencyState
  fingerprint: string
  /** dueDays is counted from here: the first request's time, whoever finishes the operation. */
  createdAt: Date
  userOpHash: Hex | undefined
  invoiceId: bigint | undefined
  txHash: Hex | undefined
  /** What the request that began the submission kept for finalization. */
  work: Json | null
  /** The 200 answer, once confirmed. */
  answer: Json | null
}

/** A request's hold on a record: its owner id is checked by every transition, so a request whose
 * lease ran out and was taken over changes nothing. */
export type Lease = { scope: IdempotencyScope; key: string; owner: string }

export type Claim = { kind: 'leased'; lease: Lease; record: IdempotencyRecord; fresh: boolean } | { kind: 'confirmed'; record: IdempotencyRecord }

type Row = {
  state: IdempotencyState
  fingerprint: string
  created_at: Date
  user_op_hash: string | null
  invoice_id: string | null
  tx_hash: string | null
  work: Json | null
  answer: Json | null
  leased: boolean
}

const columns = 'state, fingerprint, created_at, user_op_hash, invoice_id::text AS invoice_id, tx_hash, work, answer'
const key = 'studio_id = $1 AND chain_id = $2 AND route = $3 AND idempotency_key = $4'
/** Past SUBMIT_WAIT_MS (15 s by default) and a finalization, with room to spare. */
export const defaultLeaseMs = 60_000

const ms = (value: number) => `(${Math.max(0, Math.round(value))} * interval '1 millisecond')`

function toRecord(row: Row): IdempotencyRecord {
  return {
    state: row.state,
    fingerprint: row.fingerprint,
    createdAt: new Date(row.created_at),
    userOpHash: (row.user_op_hash ?? undefined) as Hex | undefined,
    invoiceId: row.invoice_id === null ? undefined : BigInt(row.invoice_id),
    txHash: (row.tx_hash ?? undefined) as Hex | undefined,
    work: row.work,
    answer: row.answer,
  }
}

const keyParams = ({ scope, key }: { scope: IdempotencyScope; key: string }) => [scope.studioId.toLowerCase(), scope.chainId, scope.route, key]

function leaseLost(): IdempotencyRefusedError {
  return new IdempotencyRefusedError(
    'IDEMPOTENCY_LEASE_CONTENTION',
    'another request took this operation over while this one worked on it: retry shortly with the same key and payload to read its outcome',
  )
}

/**
 * The idempotency records of invoice creation (SPEC 7.4), in the database only, so every server
 * instance on it sees one record per key. Taking a record is a transaction that holds the row's lock;
 * every later step is one UPDATE that names the lease's owner.
 */
export function createIdempotencyStore(db: Database, { leaseMs = defaultLeaseMs }: { leaseMs?: number } = {}) {
  /** One UPDATE from the states in `from`, by the lease's owner; anything else means the lease was lost. */
  async function transition(lease: Lease, from: readonly IdempotencyState[], set: string, params: readonly unknown[] = []): Promise<void> {
    const rows = await db.query(
      `UPDATE idempotency_records SET ${set}, updated_at = statement_timestamp()
       WHERE ${key} AND lease_owner = $5 AND state = ANY($6::text[])
       RETURNING 1 AS updated`,
      [...keyParams(lease), lease.owner, [...from], ...params],
    )
    if (rows.length === 0) throw leaseLost()
  }

  return {
    /** How long a request holds a record unless it asks otherwise (IDEMPOTENCY_LEASE_MS). */
    leaseMs,

    /**
     * Takes the record of `key` for this request, creating it (state started) when the key is new;
     * a confirmed one is handed back to be replayed. Refuses, by SPEC 7.3's codes: another payload under
     * the key, a live lease of another request, and a submission that began but left no hash.
     */
    async claim({ scope, key: idempotencyKey, fingerprint, leaseMs }: { scope: IdempotencyScope; key: string; fingerprint: string; leaseMs: number }): Promise<Claim> {
      const owner = randomUUID()
      const params = keyParams({ scope, key: idempotencyKey })
      return db.transaction(async (tx: Queryable) => {
        // Two instances inserting one key at once: the second waits on the first's row and inserts nothing.
        const [created] = await tx.query<Row>(
          `INSERT INTO idempotency_records (studio_id, chain_id, route, idempotency_key, fingerprint, state, lease_owner, lease_until)
           VALUES ($1, $2, $3, $4, $5, 'started', $6, statement_timestamp() + ${ms(leaseMs)})
           ON CONFLICT (studio_id, chain_id, route, idempotency_key) DO NOTHING
           RETURNING ${columns}, true AS leased`,
          [...params, fingerprint, owner],
        )
        const lease = { scope, key: idempotencyKey, owner }
        if (created) return { kind: 'leased', lease, record: toRecord(created), fresh: true }
        const [row] = await tx.query<Row>(
          `SELECT ${columns}, (lease_until IS NOT NULL AND lease_until > statement_timestamp()) AS leased
           FROM idempotency_records WHERE ${key} FOR UPDATE`,
          params,
        )
        // a record removed between the two statements: the key is the client's to send again
        if (!row) throw leaseLost()
        const record = toRecord(row)
        if (row.fingerprint !== fingerprint) {
          throw new IdempotencyRefusedError(
            'IDEMPOTENCY_CONFLICT',
            'this Idempotency-Key was used with a different request: send the original request unchanged to retry it, or a new key for a new invoice',
          )
        }
        if (row.state === 'confirmed') return { kind: 'confirmed', record }
        if (row.leased) {
          throw new IdempotencyRefusedError(
            'IDEMPOTENCY_LEASE_CONTENTION',
            'a request with this Idempotency-Key is still being processed: wait briefly, then retry with the same key and payload',
          )
        }
        // without the hash it was to have, nothing can be looked for; with it, the caller looks on-chain
        if (row.state === 'submitting' && !row.user_op_hash) throw submissionUncertain()
        await tx.query(
          `UPDATE idempotency_records SET lease_owner = $5, lease_until = statement_timestamp() + ${ms(leaseMs)}, updated_at = statement_timestamp()
           WHERE ${key}`,
          [...params, owner],
        )
        return { kind: 'leased', lease, record, fresh: false }
      })
    },

    /** Right before the operation leaves for the bundler, with what finalization will need and, when
     * known, the hash the operation will have: from here a death of this request cannot tell whether
     * the operation went out, and only that hash can (found on-chain, it did). */
    beginSubmission: (lease: Lease, work: Json, userOpHash?: Hex) =>
      transition(lease, ['started'], `state = 'submitting', work = $7::jsonb, user_op_hash = $8`, [JSON.stringify(work), userOpHash?.toLowerCase() ?? null]),

    /** The bundler took the operation: a retry repolls this hash and never builds another. */
    recordSubmitted: (lease: Lease, userOpHash: Hex) =>
      transition(lease, ['submitting'], `state = 'submitted', user_op_hash = $7`, [userOpHash.toLowerCase()]),

    /** The operation is on-chain: finalization can run from here, now or on a retry, without polling. */
    recordIncluded: (lease: Lease, invoiceId: bigint, txHash: Hex) =>
      transition(lease, ['submitted', 'pending'], 'invoice_id = $7::numeric, tx_hash = $8', [invoiceId.toString(), txHash.toLowerCase()]),

    /** Nothing went out (refused before sending, or failed before submission): a retry builds it afresh. */
    releaseUnsubmitted: (lease: Lease) => transition(lease, ['started', 'submitting'], `state = 'started', work = NULL, user_op_hash = NULL, lease_until = NULL`),

    /** Sending failed in a way that may have sent it: retries are told the submission is uncertain. */
    releaseUncertain: (lease: Lease) => transition(lease, ['submitting'], 'lease_until = NULL'),

    /** 202 answered: the next POST with this key repolls. */
    releasePending: (lease: Lease) => transition(lease, ['submitted', 'pending'], `state = 'pending', lease_until = NULL`),

    /** Polling failed (the chain unreachable): the state stays, the next POST polls again. */
    releaseSubmitted: (lease: Lease) => transition(lease, ['submitted', 'pending'], 'lease_until = NULL'),

    /** On-chain, not finalized: the next POST with this key runs finalization again. */
    releaseFinalizationFailed: (lease: Lease) =>
      transition(lease, ['submitted', 'pending', 'finalization_failed'], `state = 'finalization_failed', lease_until = NULL`),

    /** Done: the answer every later POST with this key is given. */
    confirm: (lease: Lease, answer: Json) =>
      transition(lease, ['started', 'submitted', 'pending', 'finalization_failed'], `state = 'confirmed', answer = $7::jsonb, lease_until = NULL`, [JSON.stringify(answer)]),

    /** The record as stored, for tests and operators; undefined when the key names nothing. */
    async read(scope: IdempotencyScope, idempotencyKey: string): Promise<IdempotencyRecord | undefined> {
      const [row] = await db.query<Row>(`SELECT ${columns}, false AS leased FROM idempotency_records WHERE ${key}`, keyParams({ scope, key: idempotencyKey }))
      return row && toRecord(row)
    },
  }
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>
