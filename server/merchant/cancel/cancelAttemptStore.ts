import type { Hex } from 'viem'
import type { Database } from '../../store/database'
import { invoiceKeyParams, type InvoiceKey } from '../../store/invoiceKey'

export type CancelAttemptState = 'submitting' | 'submitted' | 'confirmed' | 'failed'

export type CancelAttempt = { state: CancelAttemptState; userOpHash: Hex | null; txHash: Hex | null; updatedAt: Date }

type AttemptRow = { state: CancelAttemptState; user_op_hash: Hex | null; tx_hash: Hex | null; updated_at: Date }

const toAttempt = (row: AttemptRow): CancelAttempt => ({ state: row.state, userOpHash: row.user_op_hash, txHash: row.tx_hash, updatedAt: row.updated_at })

/**
 * How long a claim with no operation sent under it holds: the claimant builds, sponsors and signs
 * within seconds, and records the operation's hash before it sends it. A claim older than this with
 * no hash was left by an instance that stopped before sending anything, so it can be taken over.
 */
const unsentClaimSeconds = 60

/** The server-signed cancel of each invoice (migration 15): one operation per invoice at a time, so
 * a repeated cancel/submit, on any instance, follows the operation already sent instead of sending
 * a second. */
export function createCancelAttemptStore(db: Database) {
  return {
    /**
     * Claims the invoice's cancel for this request: there is none yet, the last one failed, or it
     * was claimed and left unsent. False when another is under way or done: `find` reads it.
     */
    async claim(studioId: string, invoice: InvoiceKey): Promise<boolean> {
      const rows = await db.query<{ claimed: boolean }>(
        `INSERT INTO cancel_attempts (studio_id, chain_id, registry, invoice_id, state) VALUES ($1, $2, $3, $4, 'submitting')
         ON CONFLICT (chain_id, registry, invoice_id) DO UPDATE SET state = 'submitting', user_op_hash = NULL, tx_hash = NULL, updated_at = now()
           WHERE cancel_attempts.state = 'failed'
              OR (cancel_attempts.state = 'submitting' AND cancel_attempts.user_op_hash IS NULL AND cancel_attempts.updated_at < now() - make_interval(secs => $5))
         RETURNING true AS claimed`,
        [studioId, ...invoiceKeyParams(invoice), unsentClaimSeconds],
      )
      return rows.length > 0
    },
    /** The operation about to leave: from here a repeat follows it. */
    async sending(invoice: InvoiceKey, userOpHash: Hex): Promise<void> {
      await db.query(`UPDATE cancel_attempts SET state = 'submitted', user_op_hash = $4, updated_at = now() WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3`, [
        ...invoiceKeyParams(invoice),
        userOpHash.toLowerCase(),
      ])
    },
    async confirmed(invoice: InvoiceKey, txHash: Hex): Promise<void> {
      await db.query(`UPDATE cancel_attempts SET state = 'confirmed', tx_hash = $4, updated_at = now() WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3`, [
        ...invoiceKeyParams(invoice),
        txHash.toLowerCase(),
      ])
    },
    /** Nothing was sent, or what was sent reverted: the next cancel/submit may try again. */
    async failed(invoice: InvoiceKey): Promise<void> {
      await db.query(`UPDATE cancel_attempts SET state = 'failed', updated_at = now() WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3`, invoiceKeyParams(invoice))
    },
    async find(invoice: InvoiceKey): Promise<CancelAttempt | null> {
      const [row] = await db.query<AttemptRow>('SELECT state, user_op_hash, tx_hash, updated_at FROM cancel_attempts WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3', invoiceKeyParams(invoice))
      return row ? toAttempt(row) : null
    },
  }
}

export type CancelAttemptStore = ReturnType<typeof createCancelAttemptStore>
