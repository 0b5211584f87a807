import type { Studio } from '../../store/studioStore'
import { reconcileOwnerOperation } from '../signer/ownerOperation'
import type { SessionSignerDependencies } from '../signer/sendSessionCall'
import type { VaultDeploymentStore } from './vaultDeploymentStore'

/**
 * Whether a studio's deployment is still on its way, settled from the chain as it is asked: a
 * submit that answered 202 leaves its record pending, and the operation may land later, or never
 * (its signature's end passed, its nonce used by another). Included: recorded deployed; never to be:
 * recorded failed, and the studio reads not_deployed again for its owner to prepare anew.
 */
export function deploymentPendingOf(signing: SessionSignerDependencies, deployments: Pick<VaultDeploymentStore, 'findByStudio' | 'deployed' | 'failed'>) {
  return async function deploymentPending(studio: Studio): Promise<boolean> {
    const record = await deployments.findByStudio(studio.id)
    if (record?.status !== 'pending' || !record.userOpHash || record.validUntil === null || record.sentAtBlock === null) return false
    const state = await reconcileOwnerOperation(signing, { userOpHash: record.userOpHash, sender: studio.vaultAddress, nonce: 0n, validUntil: record.validUntil, sentAtBlock: record.sentAtBlock })
    if (state.status === 'confirmed') await deployments.deployed(studio.id, state.txHash)
    if (state.status === 'failed') await deployments.failed(studio.id, state.reason, state.txHash)
    // confirmed reads as deployed from the vault's code, which studioOf reads beside this
    return state.status !== 'failed'
  }
}
