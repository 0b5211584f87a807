import { randomUUID } from 'node:crypto'
import { getAddress, type Address } from 'viem'
import type { Queryable } from '../../store/database'
import { ownerOperationColumns, ownerOperationFields, ownerOperationTable, type OwnerOperationFields, type OwnerOperationRow, type OwnerOperationStatus } from '../signer/ownerOperationTable'
import { invoiceKeyParams, type InvoiceKey } from '../../store/invoiceKey'

export type RefundSubmissionStatus = OwnerOperationStatus

/** An owner-signed refund this server sent (migration 16). The refund itself is the chain's record
 * (InvoiceRefunded, the registry's refundedAmount); this row only follows the operation. */
export type RefundSubmission = OwnerOperationFields & {
  id: string
  studioId: string
  invoiceId: bigint
  payer: Address
  amount: bigint
  createdAt: Date
}

type Row = OwnerOperationRow & {
  id: string
  studio_id: string
  invoice_id: string
  payer: string
  amount: string
  created_at: Date
}

const columns =
  `id, studio_id, invoice_id::text AS invoice_id, payer, amount::text AS amount, ${ownerOperationColumns}, created_at`

const toSubmission = (row: Row): RefundSubmission => ({
  id: row.id,
  studioId: row.studio_id,
  invoiceId: BigInt(row.invoice_id),
  payer: getAddress(row.payer),
  amount: BigInt(row.amount),
  ...ownerOperationFields(row),
  createdAt: row.created_at,
})

export type NewRefundSubmission = Pick<RefundSubmission, 'studioId' | 'payer' | 'amount' | 'userOpHash' | 'nonce' | 'validUntil' | 'sentAtBlock'> & { invoice: InvoiceKey }

export function createRefundSubmissionStore(db: Queryable) {
  return {
    ...ownerOperationTable(db, 'refund_submissions', columns, toSubmission),
    /** Records the operation as pending before it leaves; null when it has a row already. A row the
     * EntryPoint rejected (nothing was included) is taken again: the hash does not cover the signature. */
    async begin(submission: NewRefundSubmission): Promise<RefundSubmission | null> {
      const [row] = await db.query<Row>(
        `INSERT INTO refund_submissions (id, studio_id, chain_id, registry, invoice_id, payer, amount, user_op_hash, nonce, valid_until, sent_at_block, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'pending')
         ON CONFLICT (user_op_hash) DO UPDATE SET status = 'pending', failure = NULL, sent_at_block = EXCLUDED.sent_at_block, valid_until = EXCLUDED.valid_until
           WHERE refund_submissions.status = 'failed' AND refund_submissions.failure = 'rejected'
         RETURNING ${columns}`,
        [
          randomUUID(),
          submission.studioId,
          ...invoiceKeyParams(submission.invoice),
          submission.payer.toLowerCase(),
          submission.amount.toString(),
          submission.userOpHash.toLowerCase(),
          submission.nonce.toString(),
          submission.validUntil,
          submission.sentAtBlock.toString(),
        ],
      )
      return row ? toSubmission(row) : null
    },
  }
}

export type RefundSubmissionStore = ReturnType<typeof createRefundSubmissionStore>
