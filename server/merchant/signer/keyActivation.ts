import type { Studio } from '../../store/studioStore'
import { defaultSessionSeconds, freshActivation, type prepareActivation, readSignerState, type ServerSignerDependencies, type SignerState } from './signerLifecycle'

/** The scopes whose writes the server signer signs (SPEC 5.6: issue and cancel/submit); customer
 * writes are plain database writes and need no signer. */
const signerWriteScopes = new Set(['invoice:write', 'write'])

export const needsServerSigner = (scopes: readonly string[]) => scopes.some((scope) => signerWriteScopes.has(scope))

export type WriteStatus = 'active' | 'pending_activation' | 'revoked'

/** A key's SPEC 4.4 write_status, given its own status and the studio's signer: a revoked key is
 * revoked for good; a key that writes through the signer is as ready as the signer is, and waits for
 * the owner's activation while it is not (a revoked signer included: the owner may start it again);
 * any other key is ready. */
export function writeStatusOf(key: { status: 'active' | 'revoked'; scopes: readonly string[] }, signer: SignerState['status'] | null): WriteStatus {
  if (key.status === 'revoked') return 'revoked'
  if (!needsServerSigner(key.scopes) || signer === null) return 'active'
  return signer === 'active' || signer === 'pending_revocation' ? 'active' : 'pending_activation'
}

export type KeyActivation =
  | { activation_required: false }
  | { activation_required: true; activation: Awaited<ReturnType<typeof prepareActivation>> }
  | { activation_required: true; activation_error: string }

/**
 * SPEC 4.4's activation for a new key with write access (API keys, and agents' keys alike): when the
 * studio's vault has no live session for this server's signer, the StartSession its owner signs and
 * sends to POST /api-keys/activate-signer as signed_user_op. "Write-key validity is bounded by the
 * signer's session expiry": the session asked for ends when the key does (`expiresAt`), or after
 * defaultSessionSeconds for a key without an end. Keys without a write scope, and servers without a
 * signer (`signing` undefined), need none.
 */
export async function keyActivation(signing: ServerSignerDependencies | undefined, studio: Pick<Studio, 'id' | 'vaultAddress'>, { scopes, expiresAt }: { scopes: readonly string[]; expiresAt?: Date | null }): Promise<KeyActivation & { signerStatus: SignerState['status'] | null }> {
  if (!signing || !needsServerSigner(scopes)) return { activation_required: false, signerStatus: null }
  const state = await readSignerState(signing, studio)
  if (state.status !== 'pending_activation' && state.status !== 'revoked') return { activation_required: false, signerStatus: state.status }
  const sessionUntil = expiresAt ? Math.floor(expiresAt.getTime() / 1000) : state.nowSeconds + defaultSessionSeconds
  return { activation_required: true, ...(await freshActivation(signing, studio, sessionUntil)), signerStatus: state.status }
}
