import { randomUUID } from 'node:crypto'
import { getAddress, type Address, type Hex } from 'viem'
import type { Queryable } from '../../store/database'
import { ownerOperationColumns, ownerOperationFields, ownerOperationTable, type OwnerOperationFields, type OwnerOperationRow } from './ownerOperationTable'

/** The studio's server signer as this server keeps it (migration 23): its id, and what the chain
 * cannot say. Whether its session is live is the session module's to say (readSession.ts). */
export type ServerSignerRecord = {
  signerId: string
  studioId: string
  chainId: number
  signerAddress: Address
  /** The owner asked to end the session (POST /revoke) and has not yet sent the signed operation. */
  revocationRequestedAt: Date | null
  revokedAt: Date | null
  /** on_chain: the owner's EndSession was included. database_only: forced here, the session stays. */
  revocation: 'on_chain' | 'database_only' | null
}

type SignerRow = {
  signer_id: string
  studio_id: string
  chain_id: number
  signer_address: string
  revocation_requested_at: Date | null
  revoked_at: Date | null
  revocation: 'on_chain' | 'database_only' | null
}

const signerColumns = 'signer_id, studio_id, chain_id, signer_address, revocation_requested_at, revoked_at, revocation'

const toRecord = (row: SignerRow): ServerSignerRecord => ({
  signerId: row.signer_id,
  studioId: row.studio_id,
  chainId: row.chain_id,
  signerAddress: getAddress(row.signer_address),
  revocationRequestedAt: row.revocation_requested_at,
  revokedAt: row.revoked_at,
  revocation: row.revocation,
})

export type SignerOperationKind = 'StartSession' | 'EndSession'

export type SignerOperation = OwnerOperationFields & {
  id: string
  studioId: string
  kind: SignerOperationKind
}

type OperationRow = OwnerOperationRow & {
  id: string
  studio_id: string
  kind: SignerOperationKind
}

const operationColumns = `id, studio_id, kind, ${ownerOperationColumns}`

const toOperation = (row: OperationRow): SignerOperation => ({
  id: row.id,
  studioId: row.studio_id,
  kind: row.kind,
  ...ownerOperationFields(row),
})

/**
 * The server signers' rows and the owner operations that start and end their sessions. A confirmed
 * operation moves its signer's row in the same statement, whoever settles it (the request that sent
 * it, or a later one reconciling it from the chain): an EndSession revokes, a StartSession clears
 * any revocation, forced or not, as the owner has just authorised the signer again.
 */
export function createServerSignerStore(db: Queryable) {
  const operations = ownerOperationTable(db, 'signer_operations', operationColumns, toOperation)
  return {
    /** The studio's signer on `chainId`, created with a new id the first time it is asked for. A new
     * server key (SERVER_SIGNER_PRIVATE_KEY rotated) is a new signer: new id, nothing revoked. */
    async ensure(studioId: string, chainId: number, signerAddress: Address): Promise<ServerSignerRecord> {
      const [row] = await db.query<SignerRow>(
        `INSERT INTO server_signers (studio_id, chain_id, signer_id, signer_address) VALUES ($1, $2, $3, $4)
         ON CONFLICT (studio_id, chain_id) DO UPDATE SET signer_id = EXCLUDED.signer_id, signer_address = EXCLUDED.signer_address,
           revocation_requested_at = NULL, revoked_at = NULL, revocation = NULL, updated_at = statement_timestamp()
           WHERE server_signers.signer_address <> EXCLUDED.signer_address
         RETURNING ${signerColumns}`,
        [studioId, chainId, randomUUID(), signerAddress.toLowerCase()],
      )
      if (row) return toRecord(row)
      const [kept] = await db.query<SignerRow>(`SELECT ${signerColumns} FROM server_signers WHERE studio_id = $1 AND chain_id = $2`, [studioId, chainId])
      return toRecord(kept!)
    },
    async find(studioId: string, chainId: number): Promise<ServerSignerRecord | null> {
      const [row] = await db.query<SignerRow>(`SELECT ${signerColumns} FROM server_signers WHERE studio_id = $1 AND chain_id = $2`, [studioId, chainId])
      return row ? toRecord(row) : null
    },
    async requestRevocation(signerId: string): Promise<void> {
      await db.query('UPDATE server_signers SET revocation_requested_at = statement_timestamp(), updated_at = statement_timestamp() WHERE signer_id = $1', [signerId])
    },
    /** Refuses the signer's writes from now on, whatever the chain says (POST /force-revoke). */
    async forceRevoke(signerId: string): Promise<ServerSignerRecord> {
      const [row] = await db.query<SignerRow>(
        `UPDATE server_signers SET revoked_at = COALESCE(revoked_at, statement_timestamp()), revocation = COALESCE(revocation, 'database_only'),
           revocation_requested_at = NULL, updated_at = statement_timestamp()
         WHERE signer_id = $1 RETURNING ${signerColumns}`,
        [signerId],
      )
      return toRecord(row!)
    },
    operations: {
      ...operations,
      /** Records the operation as pending before it leaves; null when it has a row already (it is
       * never sent twice), unless the EntryPoint rejected it before (a bad signature: nothing was
       * included), which may be sent again with another signature. */
      async begin(operation: Omit<SignerOperation, 'id' | 'status' | 'txHash' | 'failure'> & { chainId: number }): Promise<SignerOperation | null> {
        const [row] = await db.query<OperationRow>(
          `INSERT INTO signer_operations (id, studio_id, chain_id, kind, user_op_hash, nonce, valid_until, sent_at_block, status)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending')
           ON CONFLICT (user_op_hash) DO UPDATE SET status = 'pending', failure = NULL, sent_at_block = EXCLUDED.sent_at_block, valid_until = EXCLUDED.valid_until
             WHERE signer_operations.status = 'failed' AND signer_operations.failure = 'rejected'
           RETURNING ${operationColumns}`,
          [randomUUID(), operation.studioId, operation.chainId, operation.kind, operation.userOpHash.toLowerCase(), operation.nonce.toString(), operation.validUntil, operation.sentAtBlock.toString()],
        )
        return row ? toOperation(row) : null
      },
      /** Settles a pending operation as included, and its signer's row with it. */
      async confirmed(id: string, txHash: Hex): Promise<void> {
        await db.query(
          `WITH settled AS (
             UPDATE signer_operations SET status = 'confirmed', tx_hash = $2, confirmed_at = statement_timestamp() WHERE id = $1 AND status = 'pending'
             RETURNING studio_id, chain_id, kind
           )
           UPDATE server_signers s SET
             revoked_at = CASE WHEN settled.kind = 'EndSession' THEN statement_timestamp() ELSE NULL END,
             revocation = CASE WHEN settled.kind = 'EndSession' THEN 'on_chain' ELSE NULL END,
             revocation_requested_at = NULL, updated_at = statement_timestamp()
           FROM settled WHERE s.studio_id = settled.studio_id AND s.chain_id = settled.chain_id`,
          [id, txHash.toLowerCase()],
        )
      },
      /** The last included operation of `kind` for the studio: the transaction the signer's state came from. */
      async lastConfirmed(studioId: string, kind: SignerOperationKind): Promise<SignerOperation | null> {
        const [row] = await db.query<OperationRow>(
          `SELECT ${operationColumns} FROM signer_operations WHERE studio_id = $1 AND kind = $2 AND status = 'confirmed' ORDER BY confirmed_at DESC LIMIT 1`,
          [studioId, kind],
        )
        return row ? toOperation(row) : null
      },
    },
  }
}

export type ServerSignerStore = ReturnType<typeof createServerSignerStore>
