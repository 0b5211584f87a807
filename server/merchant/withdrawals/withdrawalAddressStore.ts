import { getAddress, type Address } from 'viem'
import type { Queryable } from '../../store/database'

export type WithdrawalAddress = { address: Address; updatedAt: Date }

/** SPEC 2.3: the one address a studio's withdrawals may go to (migration 16). Its owner sets it
 * (SPEC 4.2, with the accounts routes); a studio starts without one. */
export function createWithdrawalAddressStore(db: Queryable) {
  return {
    async find(studioId: string): Promise<WithdrawalAddress | null> {
      const [row] = await db.query<{ address: string; updated_at: Date }>('SELECT address, updated_at FROM withdrawal_addresses WHERE studio_id = $1', [studioId])
      return row ? { address: getAddress(row.address), updatedAt: row.updated_at } : null
    },
    async set(studioId: string, address: Address): Promise<WithdrawalAddress> {
      const [row] = await db.query<{ address: string; updated_at: Date }>(
        `INSERT INTO withdrawal_addresses (studio_id, address) VALUES ($1, $2)
         ON CONFLICT (studio_id) DO UPDATE SET address = EXCLUDED.address, updated_at = statement_timestamp()
         RETURNING address, updated_at`,
        [studioId, address.toLowerCase()],
      )
      return { address: getAddress(row!.address), updatedAt: row!.updated_at }
    },
  }
}

export type WithdrawalAddressStore = ReturnType<typeof createWithdrawalAddressStore>
