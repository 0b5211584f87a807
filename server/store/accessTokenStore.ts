import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { isUuid, isViolationOf, lockForTransaction, type Database, type Queryable } from './database'
import { invoiceKeyFromRow, invoiceKeyParams, invoiceKeyString, type InvoiceKey, type InvoiceKeyRow } from './invoiceKey'
import type { MetadataCipher } from './metadataCipher'
import { StoreError } from './storeError'

/** A token as the merchant may see it again: never the token, never its hash. */
export type AccessTokenRecord = {
  tokenId: string
  invoice: InvoiceKey
  /** The token's last four characters, e.g. `…AbCd`, to tell tokens apart in a list. */
  hint: string
  label: string | null
  isDefault: boolean
  createdAt: Date
  expiresAt: Date | null
  revokedAt: Date | null
}

/** The only moment the token exists in clear (SPEC 2.6: shown once). */
export type CreatedAccessToken = { tokenId: string; token: string; hint: string; expiresAt: Date | null }

/** The invoice's share-link token. `token` is null for a default made before defaults were kept
 * encrypted: its link cannot be shown again, only regenerated. */
export type DefaultAccessToken = AccessTokenRecord & { token: string | null }

export type CreateTokenParameters = {
  invoice: InvoiceKey
  label?: string | undefined
  expiresAt?: Date | undefined
  /** The share link's token: at most one unrevoked per invoice. */
  isDefault: boolean
}

export class DefaultTokenExistsError extends StoreError {
  override name = 'DefaultTokenExistsError'
  readonly code = 'DEFAULT_TOKEN_EXISTS'
}

const tokenPrefix = 'svc_tk_'
const tokenShape = /^svc_tk_[A-Za-z0-9_-]{43}$/
const oneDefaultIndex = 'invoice_access_tokens_one_default'

type TokenRow = InvoiceKeyRow & {
  token_id: string
  hint: string
  label: string | null
  is_default: boolean
  created_at: Date
  expires_at: Date | null
  revoked_at: Date | null
}

const recordColumns = 'token_id, chain_id, registry, invoice_id, hint, label, is_default, created_at, expires_at, revoked_at'

/** Revoking a token also erases its recoverable copy: a revoked default is never decrypted again. */
const revokedColumns = 'share_token_ciphertext = NULL, share_token_iv = NULL'

/** Names the token row, so a ciphertext moved onto another row does not open. */
export const shareTokenContext = (tokenId: string) => `svc-checkout/share-token/v1/${tokenId}`

/** Tokens carry 256 random bits, so one unsalted SHA-256 is enough: nothing can be guessed or
 * precomputed, and a lookup needs the hash to be deterministic. */
export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest()
}

function toRecord(row: TokenRow): AccessTokenRecord {
  return {
    tokenId: row.token_id,
    invoice: invoiceKeyFromRow(row),
    hint: row.hint,
    label: row.label,
    isDefault: row.is_default,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  }
}

async function insertToken(
  db: Queryable,
  cipher: MetadataCipher,
  { invoice, label, expiresAt, isDefault }: CreateTokenParameters,
): Promise<CreatedAccessToken> {
  const token = tokenPrefix + randomBytes(32).toString('base64url')
  const tokenId = randomUUID()
  const hint = `…${token.slice(-4)}`
  // Only the default is recoverable: every other token is shown once and kept as a hash alone.
  const sealed = isDefault ? cipher.seal(Buffer.from(token), shareTokenContext(tokenId)) : null
  try {
    await db.query(
      `INSERT INTO invoice_access_tokens
         (token_id, chain_id, registry, invoice_id, token_hash, hint, label, is_default, expires_at, share_token_ciphertext, share_token_iv)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [tokenId, ...invoiceKeyParams(invoice), hashToken(token), hint, label ?? null, isDefault, expiresAt ?? null, sealed?.ciphertext ?? null, sealed?.iv ?? null],
    )
  } catch (error) {
    if (isViolationOf(error, oneDefaultIndex)) throw new DefaultTokenExistsError('the invoice already has a default token: regenerate it instead')
    throw error
  }
  return { tokenId, token, hint, expiresAt: expiresAt ?? null }
}

/** Invoice access tokens (SPEC 2.6, 4.12). The database holds their SHA-256, and the unrevoked
 * default token also encrypted under `cipher`, so that the share link can be shown again. */
export function createAccessTokenStore(db: Database, cipher: MetadataCipher) {
  return {
    createToken: (parameters: CreateTokenParameters) => insertToken(db, cipher, parameters),

    /** The token's record when it opens this invoice now; null for anything else, alike. The lookup
     * compares hashes, not the secret: timing can at most reveal a prefix of a SHA-256, which gives
     * nothing towards a token that hashes to it. */
    async findValidToken(invoice: InvoiceKey, token: string): Promise<AccessTokenRecord | null> {
      if (!tokenShape.test(token)) return null
      const [row] = await db.query<TokenRow>(
        `SELECT ${recordColumns} FROM invoice_access_tokens
         WHERE token_hash = $1 AND chain_id = $2 AND registry = $3 AND invoice_id = $4
           AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
        [hashToken(token), ...invoiceKeyParams(invoice)],
      )
      return row ? toRecord(row) : null
    },

    /** The unrevoked, unexpired default token with the token itself; null when there is none. */
    async getDefaultToken(invoice: InvoiceKey): Promise<DefaultAccessToken | null> {
      const [row] = await db.query<TokenRow & { share_token_ciphertext: Uint8Array | null; share_token_iv: Uint8Array | null }>(
        `SELECT ${recordColumns}, share_token_ciphertext, share_token_iv FROM invoice_access_tokens
         WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3 AND is_default
           AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
        invoiceKeyParams(invoice),
      )
      if (!row) return null
      const { share_token_ciphertext: ciphertext, share_token_iv: iv } = row
      const token = ciphertext && iv ? Buffer.from(cipher.open({ ciphertext, iv }, shareTokenContext(row.token_id))).toString('utf8') : null
      return { ...toRecord(row), token }
    },

    /** Every token of the invoice, revoked and expired ones included, oldest first. */
    async listTokens(invoice: InvoiceKey): Promise<AccessTokenRecord[]> {
      const rows = await db.query<TokenRow>(
        `SELECT ${recordColumns} FROM invoice_access_tokens
         WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3 ORDER BY created_at, created_order`,
        invoiceKeyParams(invoice),
      )
      return rows.map(toRecord)
    },

    /** Permanent. False when the token is not this invoice's or was already revoked. */
    async revokeToken(invoice: InvoiceKey, tokenId: string): Promise<boolean> {
      if (!isUuid(tokenId)) return false
      const rows = await db.query(
        `UPDATE invoice_access_tokens SET revoked_at = now(), ${revokedColumns}
         WHERE token_id = $1 AND chain_id = $2 AND registry = $3 AND invoice_id = $4 AND revoked_at IS NULL
         RETURNING token_id`,
        [tokenId, ...invoiceKeyParams(invoice)],
      )
      return rows.length > 0
    },

    /** Revokes the current default, and only it, and creates the new one, atomically. Concurrent
     * regenerations queue on a per-invoice lock: each then replaces the default the previous one
     * made, so exactly one unrevoked default remains and every call succeeds. */
    regenerateDefault(invoice: InvoiceKey): Promise<CreatedAccessToken> {
      return db.transaction(async (tx) => {
        await lockForTransaction(tx, 'defaultAccessToken', invoiceKeyString(invoice))
        // Not now(): the transaction may have begun before the token it revokes was made.
        await tx.query(
          `UPDATE invoice_access_tokens SET revoked_at = statement_timestamp(), ${revokedColumns}
           WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3 AND is_default AND revoked_at IS NULL`,
          invoiceKeyParams(invoice),
        )
        return insertToken(tx, cipher, { invoice, isDefault: true })
      })
    },
  }
}

export type AccessTokenStore = ReturnType<typeof createAccessTokenStore>
