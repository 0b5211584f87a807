import type { Address, Hex } from 'viem'
import { HttpError } from '../../http/httpError'
import { reconcileOwnerOperation } from './ownerOperation'
import type { SessionSignerDependencies } from './sendSessionCall'

/** A table of owner operations this server sent (withdrawals, refund submissions): what the
 * reconciliation reads and moves. */
export type OwnerOperationRows = {
  pending(studioId: string): Promise<{ id: string; userOpHash: Hex; nonce: bigint; validUntil: number; sentAtBlock: bigint }[]>
  confirmed(id: string, txHash: Hex): Promise<void>
  failed(id: string, failure: string, txHash?: Hex): Promise<void>
}

/**
 * SPEC 7.5 for the vault's owner operations: before any new withdrawal or refund, every operation
 * of the studio's still recorded as pending is looked for on the chain and its row settled. A
 * timeout is not proof that funds stayed: while one may still be included, no new one is prepared
 * or sent (409 OWNER_OPERATION_PENDING, with its userOpHash), as the two would share the vault's
 * nonce and the merchant could not tell which moved the money.
 */
export async function reconcilePendingOwnerOperations(signing: SessionSignerDependencies, studio: { id: string; vaultAddress: Address }, tables: readonly OwnerOperationRows[]): Promise<void> {
  for (const rows of tables) {
    for (const row of await rows.pending(studio.id)) {
      const state = await reconcileOwnerOperation(signing, { userOpHash: row.userOpHash, sender: studio.vaultAddress, nonce: row.nonce, validUntil: row.validUntil, sentAtBlock: row.sentAtBlock })
      if (state.status === 'confirmed') await rows.confirmed(row.id, state.txHash)
      else if (state.status === 'failed') await rows.failed(row.id, state.reason, state.txHash)
      else {
        throw new HttpError(409, 'OWNER_OPERATION_PENDING', 'an operation sent earlier from this vault is not yet included and still may be: send it again to follow it, or wait until it expires', {
          userOpHash: row.userOpHash,
          expiresAt: new Date(row.validUntil * 1000).toISOString(),
        })
      }
    }
  }
}
