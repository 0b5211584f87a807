import { randomBytes } from 'node:crypto'
import { isUuid, isViolationOf, type Database } from './database'
import type { MetadataCipher } from './metadataCipher'
import { StudioNotFoundError } from './studioStore'

/** SPEC 2.8, as the merchant may see it again: no secret. */
export type ApiKey = {
  keyId: string
  studioId: string
  name: string
  scopes: string[]
  secretHint: string
  status: 'active' | 'revoked'
  createdAt: Date
  expiresAt: Date | null
  revokedAt: Date | null
}

/** What HMAC verification needs (SPEC 5.2). Status and expiry are the verifier's to check. */
export type ApiKeyForVerification = Pick<ApiKey, 'keyId' | 'studioId' | 'scopes' | 'status' | 'expiresAt'> & {
  hmacKey: Uint8Array
  /** The status of the agent holding the key (SPEC 4.6), null for a key of no agent: a disabled
   * agent's keys are refused, read here with the key so no instance can miss the change. */
  agentStatus: 'active' | 'disabled' | null
}

export type CreateApiKeyParameters = { studioId: string; name: string; scopes: string[]; expiresAt?: Date | undefined }

type ApiKeyRow = {
  key_id: string
  studio_id: string
  name: string
  scopes: string[]
  secret_hint: string
  created_at: Date
  expires_at: Date | null
  revoked_at: Date | null
}

const publicColumns = 'key_id, studio_id, name, scopes, secret_hint, created_at, expires_at, revoked_at'

/** The server must recompute signatures, so it keeps the HMAC key itself, not a hash: encrypted,
 * bound to the key id so that it cannot be swapped onto another key. */
export const apiKeySecretContext = (keyId: string) => `svc-checkout/api-key/v1/${keyId}`

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    keyId: row.key_id,
    studioId: row.studio_id,
    name: row.name,
    scopes: row.scopes,
    secretHint: row.secret_hint,
    status: row.revoked_at ? 'revoked' : 'active',
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  }
}

/** `cipher`: under the server's key for secrets at rest. */
export function createApiKeyStore(db: Database, cipher: MetadataCipher) {
  return {
    /** The secret is returned here and never again: svc_sk_ + base64url of the 32-byte HMAC key. */
    async createApiKey({ studioId, name, scopes, expiresAt }: CreateApiKeyParameters): Promise<ApiKey & { secret: string }> {
      const missingStudio = new StudioNotFoundError(`no studio ${studioId}`)
      if (!isUuid(studioId)) throw missingStudio
      const keyId = `svc_pk_${randomBytes(16).toString('base64url')}`
      const hmacKey = randomBytes(32)
      const secret = `svc_sk_${hmacKey.toString('base64url')}`
      const { ciphertext, iv } = cipher.seal(hmacKey, apiKeySecretContext(keyId))
      try {
        const [row] = await db.query<ApiKeyRow>(
          `INSERT INTO api_keys (key_id, studio_id, name, scopes, secret_ciphertext, secret_iv, secret_hint, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${publicColumns}`,
          [keyId, studioId, name, scopes, ciphertext, iv, `…${secret.slice(-4)}`, expiresAt ?? null],
        )
        return { ...toApiKey(row!), secret }
      } catch (error) {
        if (isViolationOf(error, 'api_keys_studio_id_fkey')) throw missingStudio
        throw error
      }
    },

    /** Null when no such key exists; revoked and expired keys are returned, for the verifier to refuse. */
    async getApiKeyForVerification(keyId: string): Promise<ApiKeyForVerification | null> {
      const [row] = await db.query<ApiKeyRow & { secret_ciphertext: Uint8Array; secret_iv: Uint8Array; agent_status: 'active' | 'disabled' | null }>(
        `SELECT ${publicColumns}, secret_ciphertext, secret_iv, (SELECT status FROM agents WHERE agents.id = api_keys.agent_id) AS agent_status
         FROM api_keys WHERE key_id = $1`,
        [keyId],
      )
      if (!row) return null
      const { keyId: id, studioId, scopes, status, expiresAt } = toApiKey(row)
      const hmacKey = cipher.open({ ciphertext: row.secret_ciphertext, iv: row.secret_iv }, apiKeySecretContext(keyId))
      return { keyId: id, studioId, scopes, status, expiresAt, hmacKey, agentStatus: row.agent_status ?? null }
    },

    async listApiKeys(studioId: string): Promise<ApiKey[]> {
      if (!isUuid(studioId)) return []
      const rows = await db.query<ApiKeyRow>(`SELECT ${publicColumns} FROM api_keys WHERE studio_id = $1 ORDER BY created_at, created_order`, [studioId])
      return rows.map(toApiKey)
    },

    /** A new secret for the same key id (SPEC 4.4 rotate), returned here and never again. The old
     * secret stops verifying with this statement: every instance reads the key from the database on
     * each request. Null when the key is not this studio's or is revoked. */
    async rotateApiKey(studioId: string, keyId: string): Promise<(ApiKey & { secret: string }) | null> {
      if (!isUuid(studioId)) return null
      const hmacKey = randomBytes(32)
      const secret = `svc_sk_${hmacKey.toString('base64url')}`
      const { ciphertext, iv } = cipher.seal(hmacKey, apiKeySecretContext(keyId))
      const [row] = await db.query<ApiKeyRow>(
        `UPDATE api_keys SET secret_ciphertext = $3, secret_iv = $4, secret_hint = $5
         WHERE key_id = $1 AND studio_id = $2 AND revoked_at IS NULL RETURNING ${publicColumns}`,
        [keyId, studioId, ciphertext, iv, `…${secret.slice(-4)}`],
      )
      return row ? { ...toApiKey(row), secret } : null
    },

    /** Permanent. False when the key is not this studio's or was already revoked. */
    async revokeApiKey(studioId: string, keyId: string): Promise<boolean> {
      if (!isUuid(studioId)) return false
      const rows = await db.query(
        'UPDATE api_keys SET revoked_at = now() WHERE key_id = $1 AND studio_id = $2 AND revoked_at IS NULL RETURNING key_id',
        [keyId, studioId],
      )
      return rows.length > 0
    },
  }
}

export type ApiKeyStore = ReturnType<typeof createApiKeyStore>
