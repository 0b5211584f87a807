import type { InvoiceMetadata } from '../../shared/metadata'
import { hashToken, type AccessTokenStore } from './accessTokenStore'
import type { Database } from './database'
import type { InvoiceMetadataStore } from './invoiceMetadataStore'
import { invoiceKeyString, type InvoiceKey } from './invoiceKey'
import { tokensChangedChannel } from './migrations'
import type { MetadataAccess } from './openStores'

export type MetadataAccessDependencies = {
  db: Pick<Database, 'listen'>
  tokens: Pick<AccessTokenStore, 'findValidToken'>
  metadata: Pick<InvoiceMetadataStore, 'getMetadata'>
  invoiceKey: (invoiceId: bigint) => InvoiceKey
  /** How long a decrypted record stays in memory after it was read. */
  ttlMs?: number
  maxEntries?: number
  now?: () => number
}

type Opened = { invoice: string; expiresAt: number | null; metadata: InvoiceMetadata; at: number }

/**
 * Opens an invoice's metadata with a share-link token, remembering what a token opened (by the
 * token's hash) for `ttlMs`. Every view of a share link used to ask the database twice (the token,
 * then the record) and decrypt the record again: with embedded PGlite that was most of the page's time.
 *
 * An invoice's metadata never changes once stored (invoiceMetadataStore.ts), so what a token opened
 * stays right for as long as the token is valid. Whether it still is:
 * - where the database tells this process of every change as it commits (PGlite: `db.listen`), from
 *   memory. Any UPDATE or DELETE of a token, whoever makes it, drops its invoice's entries before the
 *   statement that made it resolves (migration 6), and an expiry is checked against the clock on
 *   every use: a revoked or expired token opens nothing at once, never after the TTL.
 * - elsewhere (PostgreSQL, which other instances write to), from the database on every request, as
 *   before: only the decryption is saved.
 * The TTL and the bound only limit how long, and how many, decrypted records stay in memory.
 */
export function createMetadataAccess({
  db,
  tokens,
  metadata,
  invoiceKey,
  ttlMs = 60_000,
  maxEntries = 1_000,
  now = Date.now,
}: MetadataAccessDependencies): MetadataAccess & { /** Resolves with whether valid tokens are answered from memory. */ listening: Promise<boolean> } {
  const opened = new Map<string, Opened>()
  // bumped by every change heard: a lookup that began before one does not keep what it found
  let changes = 0
  let hearsChanges = false
  const listening = (
    db.listen?.(tokensChangedChannel, (invoice) => {
      changes++
      for (const [hash, entry] of opened) if (entry.invoice === invoice) opened.delete(hash)
    }) ?? Promise.reject(new Error('no notifications'))
  ).then(
    () => (hearsChanges = true),
    // not listening: the database decides every time, as on PostgreSQL
    () => false,
  )

  function remembered(hash: string, invoice: string, at: number): Opened | undefined {
    const entry = opened.get(hash)
    if (!entry || entry.invoice !== invoice) return undefined
    if (at - entry.at < ttlMs && (entry.expiresAt === null || entry.expiresAt > at)) return entry
    opened.delete(hash)
    return undefined
  }

  return {
    listening,
    async open(invoiceId, token) {
      const key = invoiceKey(invoiceId)
      const invoice = invoiceKeyString(key)
      const hash = hashToken(token).toString('base64')
      const at = now()
      const entry = remembered(hash, invoice, at)
      if (entry && hearsChanges) return entry.metadata
      const changesBefore = changes
      const record = await tokens.findValidToken(key, token)
      if (!record) return null
      if (entry) return entry.metadata
      const found = await metadata.getMetadata(key)
      // none stored yet is not remembered: a record stored later is then found
      if (found && changesBefore === changes) {
        // the oldest goes first (a Map iterates in insertion order)
        if (opened.size >= maxEntries) opened.delete(opened.keys().next().value!)
        opened.set(hash, { invoice, expiresAt: record.expiresAt?.getTime() ?? null, metadata: found, at })
      }
      return found
    },
  }
}
