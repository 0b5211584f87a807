import type { Hex } from 'viem'
import type { Queryable } from '../../store/database'

export type OwnerOperationStatus = 'pending' | 'confirmed' | 'failed'

/** What every owner operation this server sends keeps alike. The operation's sender is the studio's
 * vault; its nonce and signature's end say when it can no longer be included, and the block it left
 * at where its receipt is looked for. */
export type OwnerOperationFields = {
  userOpHash: Hex
  nonce: bigint
  validUntil: number
  sentAtBlock: bigint
  status: OwnerOperationStatus
  txHash: Hex | null
  failure: string | null
}

/** Those fields as the tables' rows hold them (the big numbers selected as text). */
export type OwnerOperationRow = {
  user_op_hash: Hex
  nonce: string
  valid_until: string
  sent_at_block: string
  status: OwnerOperationStatus
  tx_hash: Hex | null
  failure: string | null
}

/** The select list of those columns, for a table's own list to include. */
export const ownerOperationColumns = 'user_op_hash, nonce::text AS nonce, valid_until::text AS valid_until, sent_at_block::text AS sent_at_block, status, tx_hash, failure'

export const ownerOperationFields = (row: OwnerOperationRow): OwnerOperationFields => ({
  userOpHash: row.user_op_hash,
  nonce: BigInt(row.nonce),
  validUntil: Number(row.valid_until),
  sentAtBlock: BigInt(row.sent_at_block),
  status: row.status,
  txHash: row.tx_hash,
  failure: row.failure,
})

/**
 * What every table of the vault's owner operations (withdrawals, refund_submissions, signer_operations) answers alike:
 * a row by its operation's hash, the studio's rows still pending, and a pending row settled as the
 * chain answered. Only a pending row moves: what the chain settled is never written over. The tables
 * share these columns (migrations 16 and 23); `columns` is the table's own select list, which
 * includes ownerOperationColumns.
 */
export function ownerOperationTable<Row, Operation>(db: Queryable, table: 'withdrawals' | 'refund_submissions' | 'signer_operations', columns: string, toOperation: (row: Row) => Operation) {
  return {
    async findByUserOpHash(userOpHash: Hex): Promise<Operation | null> {
      const [row] = await db.query<Row>(`SELECT ${columns} FROM ${table} WHERE user_op_hash = $1`, [userOpHash.toLowerCase()])
      return row ? toOperation(row) : null
    },
    /** The studio's operations still on their way: they share the vault's nonce. */
    async pending(studioId: string): Promise<Operation[]> {
      return (await db.query<Row>(`SELECT ${columns} FROM ${table} WHERE studio_id = $1 AND status = 'pending' ORDER BY created_at`, [studioId])).map(toOperation)
    },
    async confirmed(id: string, txHash: Hex): Promise<void> {
      await db.query(`UPDATE ${table} SET status = 'confirmed', tx_hash = $2, confirmed_at = statement_timestamp() WHERE id = $1 AND status = 'pending'`, [id, txHash.toLowerCase()])
    },
    async failed(id: string, failure: string, txHash?: Hex): Promise<void> {
      await db.query(`UPDATE ${table} SET status = 'failed', failure = $2, tx_hash = $3 WHERE id = $1 AND status = 'pending'`, [id, failure.slice(0, 100), txHash?.toLowerCase() ?? null])
    },
  }
}
