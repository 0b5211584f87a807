import { randomUUID } from 'node:crypto'
import { getAddress, type Address } from 'viem'
import type { Queryable } from '../../store/database'
import { ownerOperationColumns, ownerOperationFields, ownerOperationTable, type OwnerOperationFields, type OwnerOperationRow, type OwnerOperationStatus } from '../signer/ownerOperationTable'

export type WithdrawalStatus = OwnerOperationStatus

export type Withdrawal = OwnerOperationFields & {
  id: string
  studioId: string
  token: Address
  amount: bigint
  destination: Address
  createdAt: Date
  confirmedAt: Date | null
}

type Row = OwnerOperationRow & {
  id: string
  studio_id: string
  token: string
  amount: string
  destination: string
  created_at: Date
  confirmed_at: Date | null
}

const columns = `id, studio_id, token, amount::text AS amount, destination, ${ownerOperationColumns}, created_at, confirmed_at`

const toWithdrawal = (row: Row): Withdrawal => ({
  id: row.id,
  studioId: row.studio_id,
  token: getAddress(row.token),
  amount: BigInt(row.amount),
  destination: getAddress(row.destination),
  ...ownerOperationFields(row),
  createdAt: row.created_at,
  confirmedAt: row.confirmed_at,
})

export type NewWithdrawal = Pick<Withdrawal, 'studioId' | 'token' | 'amount' | 'destination' | 'userOpHash' | 'nonce' | 'validUntil' | 'sentAtBlock'> & { chainId: number }

/** The withdrawals this server sent (migration 16), newest first. */
export function createWithdrawalStore(db: Queryable) {
  return {
    ...ownerOperationTable(db, 'withdrawals', columns, toWithdrawal),
    /** Records the operation as pending before it leaves; null when this operation has a row
     * already (it was sent before: it is never sent twice). A row the EntryPoint rejected (a bad
     * signature: nothing was included) is taken again, as the hash does not cover the signature. */
    async begin(withdrawal: NewWithdrawal): Promise<Withdrawal | null> {
      const [row] = await db.query<Row>(
        `INSERT INTO withdrawals (id, studio_id, chain_id, token, amount, destination, user_op_hash, nonce, valid_until, sent_at_block, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending')
         ON CONFLICT (user_op_hash) DO UPDATE SET status = 'pending', failure = NULL, sent_at_block = EXCLUDED.sent_at_block, valid_until = EXCLUDED.valid_until
           WHERE withdrawals.status = 'failed' AND withdrawals.failure = 'rejected'
         RETURNING ${columns}`,
        [
          randomUUID(),
          withdrawal.studioId,
          withdrawal.chainId,
          withdrawal.token.toLowerCase(),
          withdrawal.amount.toString(),
          withdrawal.destination.toLowerCase(),
          withdrawal.userOpHash.toLowerCase(),
          withdrawal.nonce.toString(),
          withdrawal.validUntil,
          withdrawal.sentAtBlock.toString(),
        ],
      )
      return row ? toWithdrawal(row) : null
    },
    async list(studioId: string, { limit, offset }: { limit: number; offset: number }): Promise<{ items: Withdrawal[]; total: number }> {
      const [rows, [count]] = await Promise.all([
        db.query<Row>(`SELECT ${columns} FROM withdrawals WHERE studio_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`, [studioId, limit, offset]),
        db.query<{ total: number }>('SELECT count(*)::int AS total FROM withdrawals WHERE studio_id = $1', [studioId]),
      ])
      return { items: rows.map(toWithdrawal), total: count?.total ?? 0 }
    },
  }
}

export type WithdrawalStore = ReturnType<typeof createWithdrawalStore>
