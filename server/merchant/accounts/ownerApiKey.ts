import type { ApiKey, ApiKeyStore } from '../../store/apiKeyStore'
import type { ApiKeyAuditLog } from './apiKeyAuditLog'
import type { WireApiKey } from './accountWire'

/** Write readiness (SPEC 4.4 write_status): this deployment's server signer is shared by all of a
 * studio's keys and needs no per-key activation, so a live key is ready. */
export function keyToWire(key: ApiKey): WireApiKey {
  return {
    key_id: key.keyId,
    name: key.name,
    scopes: key.scopes,
    secret_hint: key.secretHint,
    status: key.status,
    write_status: key.status === 'revoked' ? 'revoked' : 'active',
    created_at: key.createdAt.toISOString(),
    expires_at: key.expiresAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  }
}

export type OwnerApiKeyDependencies = {
  apiKeys: Pick<ApiKeyStore, 'createApiKey'>
  auditLog: Pick<ApiKeyAuditLog, 'record'>
  now: () => number
}

export type NewOwnerApiKey = { studioId: string; name: string; scopes: string[]; expiresInDays?: number | null | undefined; userId: string | null }

/**
 * A key the studio's owner made (SPEC 4.4 POST, and an agent's keys in 4.6): its expiry from
 * expires_in_days, the `created` event in the audit log, and the answer with the secret, shown this
 * once. One function, so the key routes and the agent routes answer a new key alike.
 */
export async function createOwnerApiKey({ apiKeys, auditLog, now }: OwnerApiKeyDependencies, { studioId, name, scopes, expiresInDays, userId }: NewOwnerApiKey) {
  const expiresAt = expiresInDays == null ? undefined : new Date(now() + expiresInDays * 86_400_000)
  const created = await apiKeys.createApiKey({ studioId, name, scopes, expiresAt })
  await auditLog.record(studioId, created.keyId, 'created', { userId })
  return { ...keyToWire(created), secret: created.secret, activation_required: false }
}
