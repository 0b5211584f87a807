import { isAddressEqual } from 'viem'
import type { Studio } from '../../store/studioStore'
import { HttpError } from '../../http/httpError'
import { isLiveSessionFor, readSession } from './readSession'
import { NoServerSignerError, type SessionSignerDependencies } from './sendSessionCall'

/** SPEC 7.3's no_active_signer: the vault's session for this server's signer is absent, ended or expired. */
export class NoActiveSignerError extends NoServerSignerError {
  override name = 'NoActiveSignerError'
}

/**
 * SPEC 5.6's "active write access and server signer", checked before a server-signed issue or cancel
 * builds, counts or signs anything. The chain says whether the vault's session lets this server's key
 * act now; the database says whether the owner revoked its write access here (force-revoke), which
 * holds even while that session stays installed. Both are 403: no_active_signer when the session is
 * not live, FORBIDDEN when write access was revoked.
 */
export async function assertActiveServerSigner(signing: SessionSignerDependencies, studio: Pick<Studio, 'id' | 'vaultAddress'>): Promise<void> {
  const { client, deployment, signer } = signing
  const [session, block, record] = await Promise.all([
    readSession(client, deployment, studio.vaultAddress),
    client.getBlock(),
    signing.signers && signer ? signing.signers.find(studio.id, deployment.chainId) : null,
  ])
  if (record?.revocation === 'database_only' && signer && isAddressEqual(record.signerAddress, signer.address)) {
    throw new HttpError(
      403,
      'FORBIDDEN',
      "this studio's owner revoked the server signer's write access: nothing is issued or canceled with it until the owner activates it again (POST /v1/studios/:studioId/api-keys/activate-signer)",
    )
  }
  if (!signer || !isLiveSessionFor(session, { signer: signer.address, registry: deployment.registry, nowSeconds: Number(block.timestamp) })) {
    throw new NoActiveSignerError("the studio's vault has no active session for this server's signer: its owner starts one (StartSession) to let the server issue and cancel")
  }
}
