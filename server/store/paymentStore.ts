import { getAddress, type Address, type Hex } from 'viem'
import type { PermitSignature } from '../../shared/payCall'
import type { WireUserOp } from '../../shared/userOpWire'
import { isViolationOf, type Database } from './database'
import { invoiceKeyFromRow, invoiceKeyParams, type InvoiceKey, type InvoiceKeyRow } from './invoiceKey'
import { StoreError } from './storeError'

/** What /prepare returned, kept so that a submit is accepted only for exactly that operation. */
export type PreparedPayment = {
  userOpHash: Hex
  invoice: InvoiceKey
  payer: Address
  owner: Address
  /** As sent to the payer: numeric fields as decimal strings, the signature still a placeholder. */
  userOp: WireUserOp
  permit: PermitSignature
  expiresAt: Date
}

export type SubmissionState = 'submitting' | 'submitted' | 'confirmed' | 'failed' | 'lost'

export type Submission = {
  userOpHash: Hex
  state: SubmissionState
  /** How many times the operation was claimed: a failed submission may be claimed again. */
  attempts: number
  bundlerRef: string | null
  txHash: Hex | null
  reason: string | null
  createdAt: Date
  updatedAt: Date
}

export type ClaimResult = { claimed: true; submission: Submission } | { claimed: false; submission: Submission }

export class PreparedPaymentExpiryError extends StoreError {
  override name = 'PreparedPaymentExpiryError'
  readonly code = 'PREPARED_OUTLIVES_PERMIT'
}

export class PreparedPaymentNotFoundError extends StoreError {
  override name = 'PreparedPaymentNotFoundError'
  readonly code = 'PREPARED_PAYMENT_NOT_FOUND'
}

export class SubmissionNotFoundError extends StoreError {
  override name = 'SubmissionNotFoundError'
  readonly code = 'SUBMISSION_NOT_FOUND'
}

/** Two different transactions reported for one operation: the EntryPoint includes it at most once,
 * so one of the reports is wrong and nothing is overwritten. */
export class SubmissionConflictError extends StoreError {
  override name = 'SubmissionConflictError'
  readonly code = 'SUBMISSION_CONFLICT'
}

export type PreparedRow = InvoiceKeyRow & {
  user_op_hash: string
  payer: string
  owner: string
  user_op: WireUserOp
  permit_deadline: string
  permit_v: number
  permit_r: string
  permit_s: string
  expires_at: Date
}

type SubmissionRow = {
  user_op_hash: string
  state: SubmissionState
  attempts: number
  bundler_ref: string | null
  tx_hash: string | null
  failure_reason: string | null
  created_at: Date
  updated_at: Date
}

const hashParam = (hash: Hex) => hash.toLowerCase()

export function toPrepared(row: PreparedRow): PreparedPayment {
  return {
    userOpHash: row.user_op_hash as Hex,
    invoice: invoiceKeyFromRow(row),
    payer: getAddress(row.payer),
    owner: getAddress(row.owner),
    userOp: row.user_op,
    permit: { deadline: BigInt(row.permit_deadline), v: row.permit_v, r: row.permit_r as Hex, s: row.permit_s as Hex },
    expiresAt: row.expires_at,
  }
}

function toSubmission(row: SubmissionRow): Submission {
  return {
    userOpHash: row.user_op_hash as Hex,
    state: row.state,
    attempts: row.attempts,
    bundlerRef: row.bundler_ref,
    txHash: row.tx_hash as Hex | null,
    reason: row.failure_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/**
 * Prepared payments and their submissions. A submission only moves forward: submitting, then
 * submitted, then confirmed; or failed, from which it can be claimed again. Confirmation is the
 * chain's word and final: a late "submitted" or "failed" report after it changes nothing.
 */
export function createPaymentStore(db: Database) {
  async function getSubmission(userOpHash: Hex): Promise<Submission | null> {
    const [row] = await db.query<SubmissionRow>('SELECT * FROM payment_submissions WHERE user_op_hash = $1', [hashParam(userOpHash)])
    return row ? toSubmission(row) : null
  }

  /** Runs a guarded update; when its guard matched nothing, `settled` decides whether the current
   * state already says as much (nothing to do) or the report contradicts it. */
  async function transition(userOpHash: Hex, update: string, params: unknown[], settled: (current: Submission) => void): Promise<void> {
    const rows = await db.query<{ user_op_hash: string }>(update, [hashParam(userOpHash), ...params])
    if (rows.length > 0) return
    const current = await getSubmission(userOpHash)
    if (!current) throw new SubmissionNotFoundError(`no submission was claimed for ${userOpHash}`)
    settled(current)
  }

  return {
    async recordPrepared({ userOpHash, invoice, payer, owner, userOp, permit, expiresAt }: PreparedPayment): Promise<void> {
      if (BigInt(expiresAt.getTime()) > permit.deadline * 1000n) {
        throw new PreparedPaymentExpiryError('a prepared payment must not outlive its permit (SPEC 4.14)')
      }
      // The hash commits to every field but the signature: preparing the same operation twice is one record.
      await db.query(
        `INSERT INTO prepared_payments
           (user_op_hash, chain_id, registry, invoice_id, payer, owner, user_op, permit_deadline, permit_v, permit_r, permit_s, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (user_op_hash) DO NOTHING`,
        [
          hashParam(userOpHash),
          ...invoiceKeyParams(invoice),
          payer.toLowerCase(),
          owner.toLowerCase(),
          JSON.stringify(userOp),
          permit.deadline.toString(),
          permit.v,
          permit.r.toLowerCase(),
          permit.s.toLowerCase(),
          expiresAt,
        ],
      )
    },

    async getPrepared(userOpHash: Hex): Promise<PreparedPayment | null> {
      const [row] = await db.query<PreparedRow>('SELECT * FROM prepared_payments WHERE user_op_hash = $1', [hashParam(userOpHash)])
      return row ? toPrepared(row) : null
    },

    /** Exactly one caller wins, across every instance on the database: the first claim, or the first
     * to re-claim a failed one, or one left `submitting` by an instance that died mid-send (no send
     * takes a minute: the bundler calls time out well before). One statement decides it, so there is
     * no window between read and write. */
    async claimSubmission(userOpHash: Hex, signature?: Hex): Promise<ClaimResult> {
      let rows: SubmissionRow[]
      try {
        // The signature is kept for the reconciler, which may have to send the operation again. A row
        // the reconciler holds a lease on is its to finish.
        rows = await db.query<SubmissionRow>(
          `INSERT INTO payment_submissions (user_op_hash, state, attempts, signature) VALUES ($1, 'submitting', 1, $2)
           ON CONFLICT (user_op_hash) DO UPDATE
             SET state = 'submitting', attempts = payment_submissions.attempts + 1,
                 bundler_ref = NULL, failure_reason = NULL, updated_at = now(),
                 signature = COALESCE(EXCLUDED.signature, payment_submissions.signature)
             WHERE (payment_submissions.state = 'failed'
                OR (payment_submissions.state = 'submitting' AND payment_submissions.updated_at < now() - interval '60 seconds'))
               AND (payment_submissions.reconcile_lease_until IS NULL OR payment_submissions.reconcile_lease_until < now())
           RETURNING *`,
          [hashParam(userOpHash), signature?.toLowerCase() ?? null],
        )
      } catch (error) {
        if (isViolationOf(error, 'payment_submissions_user_op_hash_fkey')) {
          throw new PreparedPaymentNotFoundError(`${userOpHash} was not prepared`)
        }
        throw error
      }
      const [won] = rows
      if (won) return { claimed: true, submission: toSubmission(won) }
      // Rows are never deleted, so the one that blocked the claim is there to read.
      const current = await getSubmission(userOpHash)
      if (!current) throw new SubmissionNotFoundError(`the submission of ${userOpHash} disappeared`)
      return { claimed: false, submission: current }
    },

    /** `bundlerRef`: what the bundler answered, when it answers something worth keeping. */
    markSubmitted(userOpHash: Hex, bundlerRef?: string | undefined): Promise<void> {
      return transition(
        userOpHash,
        `UPDATE payment_submissions SET state = 'submitted', bundler_ref = $2, updated_at = now()
         WHERE user_op_hash = $1 AND state = 'submitting' RETURNING user_op_hash`,
        [bundlerRef ?? null],
        () => {},
      )
    },

    /** Its sender has stopped waiting for the receipt and answered pending: the reconciler, which
     * leaves a submission to its sender for the wait (SUBMIT_WAIT_MS), counts that wait from now.
     * Counted from the send, a sender still making its last receipt check could see the reconciler's
     * resend land. No change once the submission has moved on. */
    async handOver(userOpHash: Hex): Promise<void> {
      await db.query(`UPDATE payment_submissions SET updated_at = now() WHERE user_op_hash = $1 AND state = 'submitted'`, [userOpHash])
    },

    /** From any state but confirmed: a receipt also settles a send that was reported failed (or an
     * operation given up as lost that a bundler included after all). */
    markConfirmed(userOpHash: Hex, txHash: Hex): Promise<void> {
      return transition(
        userOpHash,
        `UPDATE payment_submissions SET state = 'confirmed', tx_hash = $2, failure_reason = NULL, updated_at = now()
         WHERE user_op_hash = $1 AND state <> 'confirmed' RETURNING user_op_hash`,
        [txHash.toLowerCase()],
        (current) => {
          if (current.txHash !== txHash.toLowerCase()) {
            throw new SubmissionConflictError(`${userOpHash} is already confirmed in another transaction`)
          }
        },
      )
    },

    markFailed(userOpHash: Hex, reason: string): Promise<void> {
      return transition(
        userOpHash,
        `UPDATE payment_submissions SET state = 'failed', failure_reason = $2, updated_at = now()
         WHERE user_op_hash = $1 AND state <> 'confirmed' RETURNING user_op_hash`,
        [reason],
        () => {},
      )
    },

    getSubmission,

    /**
     * Deletes up to `limit` prepared payments that expired before `expiredBefore` and were never
     * submitted; returns how many. A submitted one stays: its row is the record of the payment, which
     * the submission refers to. Several instances may prune at once: each locks the rows it deletes
     * and skips those another holds (or a submit is claiming right now).
     */
    async prunePrepared(expiredBefore: Date, limit = 1_000): Promise<number> {
      try {
        const [row] = await db.query<{ pruned: number }>(
          `WITH pruned AS (
             DELETE FROM prepared_payments WHERE user_op_hash IN (
               SELECT p.user_op_hash FROM prepared_payments p
               WHERE p.expires_at < $1
                 AND NOT EXISTS (SELECT 1 FROM payment_submissions s WHERE s.user_op_hash = p.user_op_hash)
               LIMIT $2
               FOR UPDATE SKIP LOCKED)
             RETURNING 1)
           SELECT count(*)::int AS pruned FROM pruned`,
          [expiredBefore, limit],
        )
        return row?.pruned ?? 0
      } catch (error) {
        // a submission claimed in the instant between the check and the delete: the row stays, and the
        // next pass looks again
        if (isViolationOf(error, 'payment_submissions_user_op_hash_fkey')) return 0
        throw error
      }
    },
  }
}

export type PaymentStore = ReturnType<typeof createPaymentStore>
