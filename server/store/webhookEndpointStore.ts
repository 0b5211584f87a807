import { randomBytes, randomUUID } from 'node:crypto'
import type { WebhookEventType } from '../../shared/webhookWire'
import { isUuid, lockForTransaction, type Database, type Queryable } from './database'
import type { MetadataCipher } from './metadataCipher'
import { StoreError } from './storeError'

export type WebhookEndpoint = {
  id: string
  studioId: string
  url: string
  events: WebhookEventType[]
  failingSince: Date | null
  createdAt: Date
}

/** What a delivery needs of an endpoint: where, and every secret that signs now (newest first). */
export type WebhookTarget = { id: string; url: string; secrets: string[] }

type EndpointRow = { id: string; studio_id: string; url: string; events: WebhookEventType[]; failing_since: Date | null; created_at: Date }

/** A secret is sealed bound to its own row: it cannot be moved onto another endpoint. */
export const webhookSecretContext = (secretId: string) => `svc-checkout/webhook-secret/v1/${secretId}`

/** How long a rotated-out secret keeps signing beside the new one. */
export const previousSecretLifetimeMs = 24 * 3_600_000

/** Secrets that sign at once: the current one and, during its day of grace, the one it replaced.
 * Each signs every delivery, so without a bound a merchant who rotates in a loop would make every
 * request carry that many signatures (and cost that many HMACs to make). */
export const maxSigningSecrets = 2

/** The studio has as many endpoints as it may: one must be deleted before another is made. */
export class WebhookEndpointLimitError extends StoreError {
  override name = 'WebhookEndpointLimitError'
  readonly code = 'WEBHOOK_ENDPOINT_LIMIT'
}

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return { id: row.id, studioId: row.studio_id, url: row.url, events: row.events, failingSince: row.failing_since, createdAt: row.created_at }
}

/** `cipher`: under the server's key for webhook secrets at rest; they are sent as HMAC keys, so
 * the server keeps them, not a hash. */
export function createWebhookEndpointStore(db: Database, cipher: MetadataCipher) {
  async function addSecret(tx: Queryable, endpointId: string): Promise<string> {
    const secret = newSecret()
    const id = randomUUID()
    const sealed = cipher.seal(Buffer.from(secret), webhookSecretContext(id))
    await tx.query('INSERT INTO webhook_secrets (id, endpoint_id, ciphertext, iv) VALUES ($1, $2, $3, $4)', [id, endpointId, sealed.ciphertext, sealed.iv])
    return secret
  }

  return {
    /** The secret is returned here and never again. With `limit`, a WebhookEndpointLimitError once
     * the studio has that many endpoints: counted under a per-studio lock held until the insert
     * commits, so creates at once cannot each see room for one more. */
    async createEndpoint({ studioId, url, events, limit }: { studioId: string; url: string; events: readonly WebhookEventType[]; limit?: number }) {
      return db.transaction(async (tx) => {
        if (limit !== undefined) {
          // an advisory lock, not a row lock: what would conflict is a row not inserted yet
          await lockForTransaction(tx, 'webhookEndpoints', studioId)
          const [counted] = await tx.query<{ count: number }>('SELECT count(*)::integer AS count FROM webhook_endpoints WHERE studio_id = $1', [studioId])
          if (Number(counted?.count ?? 0) >= limit) {
            throw new WebhookEndpointLimitError(`a studio has at most ${limit} webhook endpoints: delete one first`, { details: { limit } })
          }
        }
        const [row] = await tx.query<EndpointRow>('INSERT INTO webhook_endpoints (id, studio_id, url, events) VALUES ($1, $2, $3, $4) RETURNING *', [
          randomUUID(),
          studioId,
          url,
          [...events],
        ])
        const endpoint = toEndpoint(row!)
        return { endpoint, secret: await addSecret(tx, endpoint.id) }
      })
    },

    async listEndpoints(studioId: string): Promise<WebhookEndpoint[]> {
      const rows = await db.query<EndpointRow>('SELECT * FROM webhook_endpoints WHERE studio_id = $1 ORDER BY created_order', [studioId])
      return rows.map(toEndpoint)
    },

    async countEndpoints(studioId: string): Promise<number> {
      const [row] = await db.query<{ count: number }>('SELECT count(*)::integer AS count FROM webhook_endpoints WHERE studio_id = $1', [studioId])
      return Number(row?.count ?? 0)
    },

    /** False when the studio has no such endpoint (another studio's is no different from none). */
    async deleteEndpoint(studioId: string, id: string): Promise<boolean> {
      if (!isUuid(id)) return false
      return db.transaction(async (tx) => {
        const owned = await tx.query('SELECT id FROM webhook_endpoints WHERE id = $1 AND studio_id = $2 FOR UPDATE', [id, studioId])
        if (owned.length === 0) return false
        // delivered events keep their rows; the endpoint's own deliveries and secrets go with it
        await tx.query('DELETE FROM webhook_endpoints WHERE id = $1', [id])
        return true
      })
    },

    /** A new secret; the current one keeps signing until `previousExpiresAt`. Null for no such endpoint. */
    async rotateSecret(studioId: string, id: string): Promise<{ secret: string; previousExpiresAt: Date } | null> {
      if (!isUuid(id)) return null
      return db.transaction(async (tx) => {
        const owned = await tx.query('SELECT id FROM webhook_endpoints WHERE id = $1 AND studio_id = $2 FOR UPDATE', [id, studioId])
        if (owned.length === 0) return null
        // Only the secret being replaced keeps a grace: one rotated out earlier, still within its own
        // day, is erased now (a receiver switching to the new secret holds the current one, not one
        // two rotations back). Under the endpoint's row lock, so rotations never interleave.
        await tx.query('DELETE FROM webhook_secrets WHERE endpoint_id = $1 AND expires_at IS NOT NULL', [id])
        const [expiry] = await tx.query<{ at: Date }>(
          `UPDATE webhook_secrets SET expires_at = statement_timestamp() + ${previousSecretLifetimeMs} * interval '1 millisecond'
           WHERE endpoint_id = $1 AND expires_at IS NULL RETURNING expires_at AS at`,
          [id],
        )
        const secret = await addSecret(tx, id)
        return { secret, previousExpiresAt: expiry!.at }
      })
    },

    /** The endpoint with every secret that signs at this moment, opened, newest first; null once
     * deleted. Rotation keeps at most `maxSigningSecrets`; the limit here also bounds rows written
     * before it did. */
    async getTarget(id: string): Promise<WebhookTarget | null> {
      const [endpoint] = await db.query<{ url: string }>('SELECT url FROM webhook_endpoints WHERE id = $1', [id])
      if (!endpoint) return null
      const rows = await db.query<{ id: string; ciphertext: Uint8Array; iv: Uint8Array }>(
        `SELECT id, ciphertext, iv FROM webhook_secrets WHERE endpoint_id = $1 AND (expires_at IS NULL OR expires_at > statement_timestamp())
         ORDER BY expires_at IS NULL DESC, created_at DESC LIMIT ${maxSigningSecrets}`,
        [id],
      )
      const secrets = rows.map((row) => Buffer.from(cipher.open({ ciphertext: row.ciphertext, iv: row.iv }, webhookSecretContext(row.id))).toString())
      return { id, url: endpoint.url, secrets }
    },
  }
}

export type WebhookEndpointStore = ReturnType<typeof createWebhookEndpointStore>
