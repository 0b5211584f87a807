import type { Database } from './database'

/** HMAC request nonces (SPEC 5.2): a nonce is accepted once per key, across every instance. */
export function createNonceStore(db: Database) {
  return {
    /** True for the first claim of (keyId, nonce) only. `expiresAt`: when the request's timestamp
     * leaves the tolerance window, after which the timestamp check alone refuses a replay. */
    async claimNonce(keyId: string, nonce: string, expiresAt: Date): Promise<boolean> {
      const rows = await db.query(
        'INSERT INTO hmac_nonces (key_id, nonce, expires_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING nonce',
        [keyId, nonce, expiresAt],
      )
      return rows.length > 0
    },

    /** Deletes nonces that expired before `now`; returns how many. */
    async pruneNonces(now: Date): Promise<number> {
      const [row] = await db.query<{ pruned: number }>(
        'WITH pruned AS (DELETE FROM hmac_nonces WHERE expires_at < $1 RETURNING 1) SELECT count(*)::int AS pruned FROM pruned',
        [now],
      )
      return row?.pruned ?? 0
    },
  }
}

export type NonceStore = ReturnType<typeof createNonceStore>
