import { randomUUID } from 'node:crypto'
import { getAddress, type Address, type Hex } from 'viem'
import { HttpError } from '../../http/httpError'
import type { Database } from '../../store/database'
import type { Studio } from '../../store/studioStore'

export type VaultDeploymentStatus = 'prepared' | 'pending' | 'deployed' | 'failed'

/** A studio's vault deployment as its owner's wallet provisioned it (migration 22). */
export type VaultDeployment = {
  studioId: string
  owner: Address
  salt: bigint
  status: VaultDeploymentStatus
  userOpHash: Hex | null
  txHash: Hex | null
  validUntil: number | null
  sentAtBlock: bigint | null
}

type Row = { studio_id: string; owner_address: string; salt: string; status: VaultDeploymentStatus; user_op_hash: string | null; tx_hash: string | null; valid_until: string | null; sent_at_block: string | null }

const toDeployment = (row: Row): VaultDeployment => ({
  studioId: row.studio_id,
  owner: getAddress(row.owner_address),
  salt: BigInt(row.salt),
  status: row.status,
  userOpHash: row.user_op_hash as Hex | null,
  txHash: row.tx_hash as Hex | null,
  validUntil: row.valid_until === null ? null : Number(row.valid_until),
  sentAtBlock: row.sent_at_block === null ? null : BigInt(row.sent_at_block),
})

type StudioRow = { id: string; name: string | null; vault_address: string; chain_id: number; created_at: Date }

/** One studio per user (SPEC 4.1's user carries one studioId): a second one is refused. */
export class StudioExistsError extends HttpError {
  constructor(studioId: string, vault: Address) {
    super(409, 'STUDIO_EXISTS', `you already have a studio (${studioId}) with its vault at ${vault}: a user has one studio`, { studioId, vaultAddress: vault })
  }
}

/**
 * The studios their owners' wallets provision, and each one's deployment operation. A studio is
 * made when its deployment is first prepared: our paymaster sponsors only our studios' vaults and
 * counts their operations against the studio's quota, so the studio exists before its vault does,
 * as SPEC 2.1 allows ("a studio reads as zero balance with a setup note before its vault is deployed").
 */
export function createVaultDeploymentStore(db: Database) {
  const columns = 'studio_id, owner_address, salt::text, status, user_op_hash, tx_hash, valid_until::text, sent_at_block::text'
  const settle = async (studioId: string, set: string, values: unknown[]) => {
    await db.query(`UPDATE vault_deployments SET ${set}, updated_at = statement_timestamp() WHERE studio_id = $1 AND status IN ('prepared', 'pending')`, [studioId, ...values])
  }
  return {
    async find(studioId: string): Promise<VaultDeployment | null> {
      const [row] = await db.query<Row>(`SELECT ${columns} FROM vault_deployments WHERE studio_id = $1`, [studioId])
      return row ? toDeployment(row) : null
    },

    /**
     * The user's studio for the vault at `vault`: made with its owner membership and its deployment
     * record in one transaction, the user's row locked so that two first prepares make one studio; the
     * one already made for this vault is answered again. Another studio of the user's is a
     * StudioExistsError, and a vault another studio has is refused by the studios' unique constraint.
     */
    async studioFor(userId: string, { name, vault, chainId, owner, salt }: { name: string | null; vault: Address; chainId: number; owner: Address; salt: bigint }): Promise<{ studio: Studio; created: boolean }> {
      return db.transaction(async (tx) => {
        await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId])
        const [own] = await tx.query<StudioRow>('SELECT s.* FROM studio_memberships m JOIN studios s ON s.id = m.studio_id WHERE m.user_id = $1', [userId])
        if (own) {
          if (own.chain_id !== chainId || own.vault_address !== vault.toLowerCase()) throw new StudioExistsError(own.id, getAddress(own.vault_address))
          return { studio: { id: own.id, name: own.name, vaultAddress: getAddress(own.vault_address), chainId: own.chain_id, createdAt: own.created_at }, created: false }
        }
        const taken = await tx.query<{ id: string }>('SELECT id FROM studios WHERE chain_id = $1 AND vault_address = $2', [chainId, vault.toLowerCase()])
        if (taken.length > 0) throw new HttpError(409, 'STUDIO_VAULT_TAKEN', 'another studio already has this vault: sign in as its owner, or deploy a vault of your own (another salt)')
        const [studio] = await tx.query<StudioRow>('INSERT INTO studios (id, name, vault_address, chain_id) VALUES ($1, $2, $3, $4) RETURNING *', [randomUUID(), name, vault.toLowerCase(), chainId])
        await tx.query(`INSERT INTO studio_memberships (user_id, studio_id, role) VALUES ($1, $2, 'owner')`, [userId, studio!.id])
        await tx.query(`INSERT INTO vault_deployments (studio_id, owner_address, salt, status) VALUES ($1, $2, $3, 'prepared')`, [studio!.id, owner.toLowerCase(), salt.toString()])
        return { studio: { id: studio!.id, name: studio!.name, vaultAddress: getAddress(studio!.vault_address), chainId: studio!.chain_id, createdAt: studio!.created_at }, created: true }
      })
    },

    /** The deployment operation is on its way: what finding it again takes. */
    async sent(studioId: string, { userOpHash, validUntil, sentAtBlock }: { userOpHash: Hex; validUntil: number; sentAtBlock: bigint }): Promise<void> {
      await settle(studioId, `status = 'pending', user_op_hash = $2, valid_until = $3, sent_at_block = $4, failure = NULL`, [userOpHash.toLowerCase(), validUntil, sentAtBlock.toString()])
    },
    /** The vault has code: its deployment is done, whoever sent it. */
    async deployed(studioId: string, txHash: Hex | null): Promise<void> {
      await settle(studioId, `status = 'deployed', tx_hash = COALESCE($2, tx_hash)`, [txHash?.toLowerCase() ?? null])
    },
    /** The operation can never be included (refused, reverted, expired): the owner prepares again. */
    async failed(studioId: string, failure: string, txHash?: Hex): Promise<void> {
      await settle(studioId, `status = 'failed', failure = $2, tx_hash = COALESCE($3, tx_hash)`, [failure.slice(0, 100), txHash?.toLowerCase() ?? null])
    },
    /** A failed deployment may be prepared again. */
    async reopened(studioId: string): Promise<void> {
      await db.query(`UPDATE vault_deployments SET status = 'prepared', updated_at = statement_timestamp() WHERE studio_id = $1 AND status = 'failed'`, [studioId])
    },
  }
}

export type VaultDeploymentStore = ReturnType<typeof createVaultDeploymentStore>
