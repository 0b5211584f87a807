import type { Hex } from 'viem'
import type { Database } from './database'
import { toPrepared, type PreparedPayment, type PreparedRow } from './paymentStore'

/** A submission the reconciler holds a lease on: the prepared operation and the payer's signature,
 * everything needed to send it again exactly as signed. */
export type ClaimedSubmission = {
  prepared: PreparedPayment
  signature: Hex
  state: 'submitting' | 'submitted'
  bundlerRef: string | null
}

type ClaimedRow = PreparedRow & { state: 'submitting' | 'submitted'; signature: string; bundler_ref: string | null }

const ms = (value: number) => `(${Math.max(0, Math.round(value))} * interval '1 millisecond')`

/**
 * The reconciler's claims on unsettled submissions, a lease per row in the database: one instance
 * checks (and perhaps resends) an operation at a time, and a lease left by an instance that died
 * runs out, so another takes the row over.
 */
export function createReconcileClaims(db: Database) {
  return {
    /**
     * Leases up to `limit` unsettled submissions to `instance` for `leaseMs`: those submitted more than
     * `submittedForMs` ago (the submitter has stopped waiting on them) and those left `submitting` for
     * over a minute (a sender that died mid-send, as claimSubmission counts it). SKIP LOCKED lets
     * instances claiming at once take different rows; the lease re-checked on the locked row makes
     * each row theirs alone.
     */
    async claim({ instance, leaseMs, submittedForMs, limit }: { instance: string; leaseMs: number; submittedForMs: number; limit: number }): Promise<ClaimedSubmission[]> {
      const rows = await db.query<ClaimedRow>(
        `WITH claimed AS (
           UPDATE payment_submissions SET reconcile_claimed_by = $1, reconcile_lease_until = now() + ${ms(leaseMs)}
           WHERE user_op_hash IN (
             SELECT user_op_hash FROM payment_submissions
             WHERE signature IS NOT NULL
               AND ((state = 'submitted' AND updated_at <= now() - ${ms(submittedForMs)})
                 OR (state = 'submitting' AND updated_at < now() - interval '60 seconds'))
               AND (reconcile_lease_until IS NULL OR reconcile_lease_until < now())
             ORDER BY updated_at
             LIMIT $2
             FOR UPDATE SKIP LOCKED)
           RETURNING user_op_hash, state, signature, bundler_ref)
         SELECT p.*, claimed.state, claimed.signature, claimed.bundler_ref
         FROM claimed JOIN prepared_payments p USING (user_op_hash)`,
        [instance, limit],
      )
      return rows.map((row) => ({ prepared: toPrepared(row), signature: row.signature as Hex, state: row.state, bundlerRef: row.bundler_ref }))
    },

    /** Gives the row back, not to be looked at again for `recheckInMs`. */
    async release(userOpHash: Hex, instance: string, recheckInMs: number): Promise<void> {
      await db.query(
        `UPDATE payment_submissions SET reconcile_lease_until = now() + ${ms(recheckInMs)}
         WHERE user_op_hash = $1 AND reconcile_claimed_by = $2`,
        [userOpHash.toLowerCase(), instance],
      )
    },

    /** Sent again: submitted anew, its wait for inclusion counted from now. */
    async markResubmitted(userOpHash: Hex, instance: string, bundlerRef: string | undefined): Promise<void> {
      await db.query(
        `UPDATE payment_submissions
         SET state = 'submitted', bundler_ref = $3, resubmissions = resubmissions + 1, updated_at = now()
         WHERE user_op_hash = $1 AND reconcile_claimed_by = $2 AND state IN ('submitting', 'submitted')`,
        [userOpHash.toLowerCase(), instance, bundlerRef ?? null],
      )
    },

    /** It can no longer be included: nothing will be sent again. */
    async markLost(userOpHash: Hex, instance: string): Promise<void> {
      await db.query(
        `UPDATE payment_submissions SET state = 'lost', updated_at = now()
         WHERE user_op_hash = $1 AND reconcile_claimed_by = $2 AND state IN ('submitting', 'submitted')`,
        [userOpHash.toLowerCase(), instance],
      )
    },

    /** Submissions not yet settled, on every instance: the pending operations gauge. */
    async countUnsettled(): Promise<number> {
      const [row] = await db.query<{ count: string }>(`SELECT count(*) AS count FROM payment_submissions WHERE state IN ('submitting', 'submitted')`)
      return Number(row?.count ?? 0)
    },
  }
}

export type ReconcileClaims = ReturnType<typeof createReconcileClaims>
