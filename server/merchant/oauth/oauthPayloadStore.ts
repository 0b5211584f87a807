import { createHash } from 'node:crypto'
import type { Adapter, AdapterPayload } from 'oidc-provider'
import type { Database } from '../../store/database'

/** Ids are hashed before they reach the database: an access or refresh token's id is the token
 * itself (opaque format), so a leaked table must not be a list of working credentials. */
export const oauthPayloadIdHash = (id: string) => createHash('sha256').update(id).digest('hex')
const hashOf = oauthPayloadIdHash

type Row = { payload: AdapterPayload; consumed: boolean }

/**
 * The authorization server's storage (oidc-provider's adapter contract) in migration 19's
 * oauth_payloads table: clients, grants, sessions, interactions, codes and tokens, each kept until
 * its expiry. `now` is the server's clock, so an expiry test moves it instead of sleeping.
 */
export function oauthAdapterFactory(db: Database, now: () => number) {
  return class OAuthPayloadAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const expiresAt = expiresIn ? new Date(now() + expiresIn * 1000) : null
      await db.query(
        `INSERT INTO oauth_payloads (model, id_hash, payload, grant_id, uid, expires_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (model, id_hash) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
        [this.model, hashOf(id), JSON.stringify(this.stored(payload)), payload.grantId ?? null, payload.uid ?? null, expiresAt],
      )
    }

    /** The provider repeats a record's id in its payload as `jti`: for a token that id is the token,
     * so it is left out, and `find` puts back the id it was asked for. A session keeps it, since the
     * provider also finds sessions by uid, where no id is given to put back. */
    private stored(payload: AdapterPayload): AdapterPayload {
      if (this.model === 'Session') return payload
      const { jti: _token, ...rest } = payload
      return rest
    }

    private async findWhere(column: 'id_hash' | 'uid', value: string): Promise<AdapterPayload | undefined> {
      const [row] = await db.query<Row>(
        `SELECT payload, consumed_at IS NOT NULL AS consumed FROM oauth_payloads WHERE model = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > $3)`,
        [this.model, value, new Date(now())],
      )
      if (!row) return undefined
      const payload = typeof row.payload === 'string' ? (JSON.parse(row.payload) as AdapterPayload) : row.payload
      // the provider tells a reused refresh token by `consumed`: its answer is to revoke the grant
      return row.consumed ? { ...payload, consumed: true } : payload
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const payload = await this.findWhere('id_hash', hashOf(id))
      return payload && this.model !== 'Session' ? { ...payload, jti: id } : payload
    }

    findByUid(uid: string) {
      return this.findWhere('uid', uid)
    }

    async findByUserCode(): Promise<undefined> {
      // no device flow here
      return undefined
    }

    async consume(id: string): Promise<void> {
      await db.query('UPDATE oauth_payloads SET consumed_at = $3 WHERE model = $1 AND id_hash = $2', [this.model, hashOf(id), new Date(now())])
    }

    async destroy(id: string): Promise<void> {
      await db.query('DELETE FROM oauth_payloads WHERE model = $1 AND id_hash = $2', [this.model, hashOf(id)])
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      // every model's rows of the grant, the grant's own row too: its tokens stop working at once
      await db.query('DELETE FROM oauth_payloads WHERE grant_id = $1', [grantId])
      await db.query(`DELETE FROM oauth_payloads WHERE model = 'Grant' AND id_hash = $1`, [hashOf(grantId)])
    }
  }
}
