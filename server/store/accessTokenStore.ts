import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { isUuid, isViolationOf, lockForTransaction, type Database, type Queryable } from './database'
import { invoiceKeyFromRow, invoiceKeyParams, invoiceKeyString, type InvoiceKey, type InvoiceKeyRow } from './invoiceKey'
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

/** Tokens carry 256 random bits, so one unsalted SHA-256 is enough: nothing can be guessed or
 * precomputed, and a lookup needs the hash to be deterministic. */
function hashToken(token: string): Buffer {
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

async function insertToken(db: Queryable, { invoice, label, expiresAt, isDefault }: CreateTokenParameters): Promise<CreatedAccessToken> {
  const token = tokenPrefix + randomBytes(32).toString('base64url')
  const tokenId = randomUUID()
  const hint = `…${token.slice(-4)}`
  try {
    await db.query(
      `INSERT INTO invoice_access_tokens (token_id, chain_id, registry, invoice_id, token_hash, hint, label, is_default, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [tokenId, ...invoiceKeyParams(invoice), hashToken(token), hint, label ?? null, isDefault, expiresAt ?? null],
    )
  } catch (error) {
    if (isViolationOf(error, oneDefaultIndex)) throw new DefaultTokenExistsError('the invoice already has a default token: regenerate it instead')
    throw error
  }
  return { tokenId, token, hint, expiresAt: expiresAt ?? null }
}

/** Invoice access tokens (SPEC 2.6, 4.12). The database holds only their SHA-256. */
export function createAccessTokenStore(db: Database) {
  return {
    createToken: (parameters: CreateTokenParameters) => insertToken(db, parameters),

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

    /** Every token of the invoice, revoked and expired ones included, oldest first. */
    async listTokens(invoice: InvoiceKey): Promise<AccessTokenRecord[]> {
      const rows = await db.query<TokenRow>(
        `SELECT ${recordColumns} FROM invoice_access_tokens
         WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3 ORDER BY created_at, token_id`,
        invoiceKeyParams(invoice),
      )
      return rows.map(toRecord)
    },

    /** Permanent. False when the token is not this invoice's or was already revoked. */
    async revokeToken(invoice: InvoiceKey, tokenId: string): Promise<boolean> {
      if (!isUuid(tokenId)) return false
      const rows = await db.query(
        `UPDATE invoice_access_tokens SET revoked_at = now()
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
          `UPDATE invoice_access_tokens SET revoked_at = statement_timestamp()
           WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3 AND is_default AND revoked_at IS NULL`,
          invoiceKeyParams(invoice),
        )
        return insertToken(tx, { invoice, isDefault: true })
      })
    },
  }
}

export type AccessTokenStore = ReturnType<typeof createAccessTokenStore>
