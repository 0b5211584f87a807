import { shareTokenContext } from './accessTokenStore'
import { apiKeySecretContext } from './apiKeyStore'
import type { Database } from './database'
import { invoiceKeyFromRow, type InvoiceKeyRow } from './invoiceKey'
import { invoiceMetadataContext } from './invoiceMetadataStore'
import { webhookSecretContext } from './webhookEndpointStore'
import { EncryptionKeyMissingError, missingKeyMessage, type EncryptionPurpose, type SealingCiphers } from './metadataCipher'

/** Where records are sealed: the table, the columns that order it (its primary key), the sealed
 * columns, and the context each row was sealed with. */
type SealedTable = {
  table: string
  purpose: EncryptionPurpose
  keyColumns: readonly string[]
  /** The key columns' SQL types, for the cursor's parameters. */
  keyTypes: readonly string[]
  ciphertext: string
  iv: string
  context(row: Record<string, unknown>): string
}

const sealedTables: readonly SealedTable[] = [
  {
    table: 'invoice_metadata',
    purpose: 'metadata',
    keyColumns: ['chain_id', 'registry', 'invoice_id'],
    keyTypes: ['integer', 'text', 'numeric'],
    ciphertext: 'ciphertext',
    iv: 'iv',
    context: (row) => invoiceMetadataContext(invoiceKeyFromRow(row as InvoiceKeyRow)),
  },
  {
    table: 'api_keys',
    purpose: 'api-key-secret',
    keyColumns: ['key_id'],
    keyTypes: ['text'],
    ciphertext: 'secret_ciphertext',
    iv: 'secret_iv',
    context: (row) => apiKeySecretContext(row.key_id as string),
  },
  {
    // only an unrevoked default keeps its token sealed; the other rows have nothing to rotate
    table: 'invoice_access_tokens',
    purpose: 'share-token',
    keyColumns: ['token_id'],
    keyTypes: ['uuid'],
    ciphertext: 'share_token_ciphertext',
    iv: 'share_token_iv',
    context: (row) => shareTokenContext(row.token_id as string),
  },
  {
    table: 'webhook_secrets',
    purpose: 'webhook-secret',
    keyColumns: ['id'],
    keyTypes: ['uuid'],
    ciphertext: 'ciphertext',
    iv: 'iv',
    context: (row) => webhookSecretContext(row.id as string),
  },
]

export type RotationProgress = { table: string; read: number; resealed: number; changed: number }

export type RotateEncryptionKeyDependencies = { db: Database; ciphers: SealingCiphers }

export type RotateEncryptionKeyParameters = {
  /** Rows read and rewritten per statement; each row is its own short write. */
  batchSize?: number
  onProgress?: (progress: RotationProgress) => void
}

export type RotateEncryptionKeyReturnType = {
  activeKeyId: number
  tables: Record<string, { resealed: number; changed: number }>
  /** Rows by the key id they are sealed under, after the rotation: only the active id, when done. */
  sealedUnder: Record<string, number>
}

/** "svk" and format 1, as metadataCipher writes them before the key id. */
const headerSql = `'\\x73766b01'::bytea`

/** How many rows each key id seals, over every sealed table. */
export async function countSealedRows(db: Database): Promise<Map<number, number>> {
  const counts = new Map<number, number>()
  for (const { table, ciphertext } of sealedTables) {
    const rows = await db.query<{ key_id: number; rows: number }>(
      `SELECT CASE WHEN substring(${ciphertext} from 1 for 4) = ${headerSql}
                   THEN get_byte(${ciphertext}, 4) * 256 + get_byte(${ciphertext}, 5) ELSE 0 END AS key_id,
              count(*)::integer AS rows
       FROM ${table} WHERE ${ciphertext} IS NOT NULL GROUP BY 1`,
    )
    for (const row of rows) counts.set(Number(row.key_id), (counts.get(Number(row.key_id)) ?? 0) + Number(row.rows))
  }
  return counts
}

/**
 * Re-seals every record under the active key, in batches, while servers keep reading and writing:
 * each row is rewritten only if its sealed value is still the one read (a row revoked or replaced
 * meanwhile is left as it now is), and what it seals does not change, so a reader holding both keys
 * opens the row before and after alike. Refuses to start when rows are sealed under a key id the
 * configuration lacks: it could not open them. Passes repeat while a pass still re-seals rows (a
 * server still sealing under an older key writes more of them), three at most.
 */
export async function rotateEncryptionKey(
  { db, ciphers }: RotateEncryptionKeyDependencies,
  { batchSize = 500, onProgress }: RotateEncryptionKeyParameters = {},
): Promise<RotateEncryptionKeyReturnType> {
  const { activeKeyId } = ciphers.metadata
  const before = await countSealedRows(db)
  for (const keyId of before.keys()) {
    // every purpose has the same keys: the metadata cipher answers for all
    if (!ciphers.metadata.keyIds.includes(keyId)) throw new EncryptionKeyMissingError(missingKeyMessage(keyId), { details: { keyId } })
  }
  const tables: RotateEncryptionKeyReturnType['tables'] = Object.fromEntries(sealedTables.map(({ table }) => [table, { resealed: 0, changed: 0 }]))
  for (let pass = 0; pass < 3; pass++) {
    let resealed = 0
    for (const table of sealedTables) {
      const done = await rotateTable(db, ciphers, table, batchSize, onProgress)
      tables[table.table]!.resealed += done.resealed
      tables[table.table]!.changed += done.changed
      resealed += done.resealed
    }
    if (resealed === 0) break
  }
  const after = await countSealedRows(db)
  return { activeKeyId, tables, sealedUnder: Object.fromEntries([...after].sort(([a], [b]) => a - b).map(([keyId, rows]) => [String(keyId), rows])) }
}

async function rotateTable(
  db: Database,
  ciphers: SealingCiphers,
  { table, purpose, keyColumns, keyTypes, ciphertext, iv, context }: SealedTable,
  batchSize: number,
  onProgress: RotateEncryptionKeyParameters['onProgress'],
): Promise<{ resealed: number; changed: number }> {
  const cipher = ciphers[purpose]
  const keys = keyColumns.join(', ')
  const cursorParams = keyTypes.map((type, i) => `$${i + 3}::${type}`).join(', ')
  // rows not yet under the active key: another header, or (the active key being the legacy one) any
  const notActive = cipher.activeHeader
    ? `substring(${ciphertext} from 1 for 6) IS DISTINCT FROM $1::bytea`
    : // $1 (null) named all the same: PostgreSQL must know the type of every parameter sent
      `substring(${ciphertext} from 1 for 4) = ${headerSql} AND $1::bytea IS NULL`
  const progress = { table, read: 0, resealed: 0, changed: 0 }
  let cursor: unknown[] | null = null
  for (;;) {
    const rows: Record<string, unknown>[] = await db.query<Record<string, unknown>>(
      `SELECT ${keys}, ${ciphertext} AS sealed, ${iv} AS iv FROM ${table}
       WHERE ${ciphertext} IS NOT NULL AND ${notActive} ${cursor ? `AND (${keys}) > (${cursorParams})` : ''}
       ORDER BY ${keys} LIMIT $2`,
      [cipher.activeHeader, batchSize, ...(cursor ?? [])],
    )
    if (rows.length === 0) break
    for (const row of rows) {
      const sealed = { ciphertext: row.sealed as Uint8Array, iv: row.iv as Uint8Array }
      progress.read++
      if (cipher.keyIdOf(sealed) === cipher.activeKeyId) continue
      const rowContext = context(row)
      const resealed = cipher.seal(cipher.open(sealed, rowContext), rowContext)
      const match = keyColumns.map((column, i) => `${column} = $${i + 5}::${keyTypes[i]}`).join(' AND ')
      const updated = await db.query(
        `UPDATE ${table} SET ${ciphertext} = $1, ${iv} = $2 WHERE ${match} AND ${ciphertext} = $3 AND ${iv} = $4 RETURNING 1 AS updated`,
        [resealed.ciphertext, resealed.iv, sealed.ciphertext, sealed.iv, ...keyColumns.map((column) => row[column])],
      )
      if (updated.length > 0) progress.resealed++
      else progress.changed++
    }
    const last = rows.at(-1)!
    cursor = keyColumns.map((column) => last[column])
    onProgress?.({ ...progress })
    if (rows.length < batchSize) break
  }
  return { resealed: progress.resealed, changed: progress.changed }
}
