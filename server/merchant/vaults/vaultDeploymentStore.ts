import { randomUUID } from 'node:crypto'
import { getAddress, type Address, type Hex } from 'viem'
import { HttpError } from '../../http/httpError'
import { lockForTransaction, type Database } from '../../store/database'
import type { Studio } from '../../store/studioStore'

export type VaultDeploymentStatus = 'prepared' | 'pending' | 'deployed' | 'failed'

/** A studio's vault deployment as its owner's wallet sent it (migration 22). */
export type VaultDeployment = {
  studioId: string | null
  vault: Address
  owner: Address
  status: VaultDeploymentStatus
  userOpHash: Hex | null
  txHash: Hex | null
  validUntil: number | null
  sentAtBlock: bigint | null
}

type Row = { studio_id: string | null; vault_address: string; owner_address: string; status: VaultDeploymentStatus; user_op_hash: string | null; tx_hash: string | null; valid_until: string | null; sent_at_block: string | null }

const toDeployment = (row: Row): VaultDeployment => ({
  studioId: row.studio_id,
  vault: getAddress(row.vault_address),
  owner: getAddress(row.owner_address),
  status: row.status,
  userOpHash: row.user_op_hash as Hex | null,
  txHash: row.tx_hash as Hex | null,
  validUntil: row.valid_until === null ? null : Number(row.valid_until),
  sentAtBlock: row.sent_at_block === null ? null : BigInt(row.sent_at_block),
})

type StudioRow = { id: string; name: string | null; vault_address: string; chain_id: number; created_at: Date }
const toStudio = (row: StudioRow): Studio => ({ id: row.id, name: row.name, vaultAddress: getAddress(row.vault_address), chainId: row.chain_id, createdAt: row.created_at })

/** One studio per user (SPEC 4.1's user carries one studioId): a second one is refused. */
export class StudioExistsError extends HttpError {
  constructor(studioId: string, vault: Address) {
    super(409, 'STUDIO_EXISTS', `you already have a studio (${studioId}) with its vault at ${vault}: a user has one studio`, { studioId, vaultAddress: vault })
  }
}

const vaultTaken = () => new HttpError(409, 'STUDIO_VAULT_TAKEN', "another studio already has this vault: sign in as its owner's user, or deploy a vault of your own (another salt)")

/** The next UTC midnight: when a user's prepares count from zero again. */
function nextUtcDay(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))
}

export type VaultPlace = { chainId: number; vault: Address; owner: Address; salt: bigint }

/**
 * Users' vault deployments and the studios they make. A prepare is recorded against the user, never
 * a studio: it proves nothing of the wallet, so it may not hold a vault address that another user's
 * wallet owns. The studio, with the user as its owner, is made at submit, once the signature is the
 * owner's own: only then is the vault's address the user's to claim.
 */
export function createVaultDeploymentStore(db: Database) {
  const columns = 'studio_id, vault_address, owner_address, status, user_op_hash, tx_hash, valid_until::text, sent_at_block::text'
  /** Only a deployment still on its way moves: what the chain settled is never written over. */
  const settle = async (studioId: string, set: string, values: unknown[]) => {
    await db.query(`UPDATE vault_deployments SET ${set}, updated_at = statement_timestamp() WHERE studio_id = $1 AND status IN ('prepared', 'pending')`, [studioId, ...values])
  }
  return {
    async findByStudio(studioId: string): Promise<VaultDeployment | null> {
      const [row] = await db.query<Row>(`SELECT ${columns} FROM vault_deployments WHERE studio_id = $1`, [studioId])
      return row ? toDeployment(row) : null
    },

    /** The user's studio, if they own one (the demo merchant's, or one provisioned here). */
    async studioOf(userId: string): Promise<Studio | null> {
      const [row] = await db.query<StudioRow>('SELECT s.* FROM studio_memberships m JOIN studios s ON s.id = m.studio_id WHERE m.user_id = $1', [userId])
      return row ? toStudio(row) : null
    },

    /**
     * Counts a prepare of the user's deployment of `place`, at most `perDay` a UTC day, in one
     * statement so that instances answering at once count both; past them, 429 QUOTA_EXCEEDED. A
     * deployment already sent stays pending: the new prepare may be signed instead, and only one lands.
     */
    async prepared(userId: string, place: VaultPlace, name: string | null, perDay: number): Promise<void> {
      const taken = await db.query<{ id: string }>(
        'SELECT s.id FROM studios s WHERE s.chain_id = $1 AND s.vault_address = $2 AND NOT EXISTS (SELECT 1 FROM studio_memberships m WHERE m.studio_id = s.id AND m.user_id = $3)',
        [place.chainId, place.vault.toLowerCase(), userId],
      )
      if (taken.length > 0) throw vaultTaken()
      const rows = await db.query<{ prepares_on_day: number }>(
        `INSERT INTO vault_deployments (user_id, chain_id, vault_address, owner_address, salt, studio_name, status, prepared_day, prepares_on_day)
         SELECT $1, $2, $3, $4, $5, $7, 'prepared', (now() AT TIME ZONE 'UTC')::date, 1 WHERE $6 > 0
         ON CONFLICT (user_id) DO UPDATE SET chain_id = EXCLUDED.chain_id, vault_address = EXCLUDED.vault_address, owner_address = EXCLUDED.owner_address, salt = EXCLUDED.salt, studio_name = EXCLUDED.studio_name,
           status = CASE WHEN vault_deployments.status = 'pending' THEN 'pending' ELSE 'prepared' END,
           prepares_on_day = CASE WHEN vault_deployments.prepared_day = EXCLUDED.prepared_day THEN vault_deployments.prepares_on_day + 1 ELSE 1 END,
           prepared_day = EXCLUDED.prepared_day, updated_at = statement_timestamp()
         WHERE vault_deployments.prepared_day <> EXCLUDED.prepared_day OR vault_deployments.prepares_on_day < $6
         RETURNING prepares_on_day`,
        [userId, place.chainId, place.vault.toLowerCase(), place.owner.toLowerCase(), place.salt.toString(), perDay, name],
      )
      if (rows.length === 0) {
        const resetsAt = nextUtcDay()
        const retryAfterSeconds = Math.max(1, Math.ceil((resetsAt.getTime() - Date.now()) / 1000))
        throw new HttpError(
          429,
          'QUOTA_EXCEEDED',
          `your ${perDay} sponsored vault deployments for today are prepared: more from ${resetsAt.toISOString()}`,
          { limit: perDay, resetsAt: resetsAt.toISOString(), retryAfterSeconds },
          { 'Retry-After': String(retryAfterSeconds) },
        )
      }
    },

    /**
     * Binds a sponsored deployment to the user who asked for it, until its signature window ends: the
     * only user whose submit may send it. False when another user holds this very operation: the
     * deployment of a known owner is the same operation for anyone who prepares it in the same second,
     * and one operation is one user's. This user's bindings that have lapsed go with the new one.
     */
    async operationPrepared(userId: string, userOpHash: Hex, validUntil: number): Promise<boolean> {
      return db.transaction(async (tx) => {
        await lockForTransaction(tx, 'vaultDeploymentPrepares', userOpHash.toLowerCase())
        const held = await tx.query('SELECT 1 FROM vault_deployment_prepares WHERE user_op_hash = $1 AND user_id <> $2 AND valid_until >= extract(epoch FROM now())', [userOpHash.toLowerCase(), userId])
        if (held.length > 0) return false
        await tx.query('DELETE FROM vault_deployment_prepares WHERE user_id = $1 AND valid_until < extract(epoch FROM now())', [userId])
        await tx.query('INSERT INTO vault_deployment_prepares (user_id, user_op_hash, valid_until) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [userId, userOpHash.toLowerCase(), validUntil])
        return true
      })
    },

    /**
     * Refuses a signed deployment this user did not prepare. An owner's signature proves the owner
     * wants the vault, not which user it is for: anyone who saw it signed (a bundler's mempool, the
     * chain after inclusion) could otherwise submit it under their own sign-in and have the vault as
     * their studio.
     */
    async assertPreparedBy(userId: string, userOpHash: Hex): Promise<void> {
      const rows = await db.query('SELECT 1 FROM vault_deployment_prepares WHERE user_id = $1 AND user_op_hash = $2', [userId, userOpHash.toLowerCase()])
      if (rows.length === 0) {
        throw new HttpError(403, 'FORBIDDEN', 'this signed deployment was not prepared for you: a vault becomes the studio of the user who prepared its deployment. Prepare your own vault with POST /v1/studios/prepare, sign it in your wallet and submit that one')
      }
    },

    /**
     * The user's studio for the vault at `place`, once its owner has signed its deployment: made with
     * its owner membership in one transaction, the user's row locked so that two submits make one
     * studio; the one already made for this vault is answered again. Another studio of the user's is
     * a StudioExistsError; a vault another studio has, STUDIO_VAULT_TAKEN.
     */
    async studioFor(userId: string, name: string | null, place: VaultPlace): Promise<Studio> {
      return db.transaction(async (tx) => {
        await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId])
        const [own] = await tx.query<StudioRow>('SELECT s.* FROM studio_memberships m JOIN studios s ON s.id = m.studio_id WHERE m.user_id = $1', [userId])
        let studio: StudioRow
        if (own) {
          if (own.chain_id !== place.chainId || own.vault_address !== place.vault.toLowerCase()) throw new StudioExistsError(own.id, getAddress(own.vault_address))
          studio = own
        } else {
          const taken = await tx.query<{ id: string }>('SELECT id FROM studios WHERE chain_id = $1 AND vault_address = $2', [place.chainId, place.vault.toLowerCase()])
          if (taken.length > 0) throw vaultTaken()
          // the name submit gives, else the one this user's prepare of this very vault was given
          const [prepared] = await tx.query<{ studio_name: string | null }>('SELECT studio_name FROM vault_deployments WHERE user_id = $1 AND chain_id = $2 AND vault_address = $3', [userId, place.chainId, place.vault.toLowerCase()])
          ;[studio] = (await tx.query<StudioRow>('INSERT INTO studios (id, name, vault_address, chain_id) VALUES ($1, $2, $3, $4) RETURNING *', [randomUUID(), name ?? prepared?.studio_name ?? null, place.vault.toLowerCase(), place.chainId])) as [StudioRow]
          await tx.query(`INSERT INTO studio_memberships (user_id, studio_id, role) VALUES ($1, $2, 'owner')`, [userId, studio.id])
        }
        // the user's row names the vault submitted: they may have prepared another one since
        await tx.query(
          `INSERT INTO vault_deployments (user_id, studio_id, chain_id, vault_address, owner_address, salt, status, prepared_day, prepares_on_day)
           VALUES ($1, $2, $3, $4, $5, $6, 'prepared', (now() AT TIME ZONE 'UTC')::date, 0)
           ON CONFLICT (user_id) DO UPDATE SET studio_id = EXCLUDED.studio_id, chain_id = EXCLUDED.chain_id, vault_address = EXCLUDED.vault_address, owner_address = EXCLUDED.owner_address, salt = EXCLUDED.salt`,
          [userId, studio.id, place.chainId, place.vault.toLowerCase(), place.owner.toLowerCase(), place.salt.toString()],
        )
        return toStudio(studio)
      })
    },

    /** The deployment operation is on its way: what finding it again takes. */
    async sent(studioId: string, { userOpHash, validUntil, sentAtBlock }: { userOpHash: Hex; validUntil: number; sentAtBlock: bigint }): Promise<void> {
      await db.query(
        `UPDATE vault_deployments SET status = 'pending', user_op_hash = $2, valid_until = $3, sent_at_block = $4, failure = NULL, updated_at = statement_timestamp() WHERE studio_id = $1 AND status <> 'deployed'`,
        [studioId, userOpHash.toLowerCase(), validUntil, sentAtBlock.toString()],
      )
    },
    /** The vault has code: its deployment is done. */
    async deployed(studioId: string, txHash: Hex | null): Promise<void> {
      await settle(studioId, `status = 'deployed', tx_hash = COALESCE($2, tx_hash)`, [txHash?.toLowerCase() ?? null])
    },
    /** The operation can never be included (refused, reverted, expired): the owner prepares again. */
    async failed(studioId: string, failure: string, txHash?: Hex): Promise<void> {
      await settle(studioId, `status = 'failed', failure = $2, tx_hash = COALESCE($3, tx_hash)`, [failure.slice(0, 100), txHash?.toLowerCase() ?? null])
    },
  }
}

export type VaultDeploymentStore = ReturnType<typeof createVaultDeploymentStore>
