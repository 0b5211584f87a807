import { mkdir } from 'node:fs/promises'
import type { PGlite } from '@electric-sql/pglite'
import type { Pool, PoolClient } from 'pg'
import { StoreError } from './storeError'

/** What the stores need from a database; PGlite and node-postgres both speak PostgreSQL's dialect. */
export type Queryable = {
  query<T>(sql: string, params?: readonly unknown[]): Promise<T[]>
}

export type Database = Queryable & {
  /**
   * Calls `listener` with the payload of every NOTIFY on `channel`, before the statement or COMMIT
   * that raised it resolves; resolves once listening, with the function that stops it. Only where
   * that holds: embedded PGlite, in whose process every write runs (the devnet's tools write through
   * it too), so a cache it keeps current is never behind the database. Absent for PostgreSQL, whose
   * notifications come later, over a connection that can drop unnoticed.
   */
  listen?(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>>
  /** Embedded PGlite only: its data directory as a tarball, which `loadDataDir` opens again in memory. */
  dumpDataDir?(): Promise<Blob>
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  close(): Promise<void>
}

export type OpenDatabaseParameters = {
  /** A PostgreSQL connection string (DATABASE_URL); when set, `dataDir` is not used. */
  url?: string | undefined
  /** Where embedded PGlite keeps its files; without it the database lives in memory. */
  dataDir?: string | undefined
  /** For a database in memory: another's data directory (its `dumpDataDir`) it starts as, instead of
   * an empty cluster. The tests start each file's database from one migrated per worker: opening
   * one empty and running the migrations cost them about a second a file. */
  loadDataDir?: Blob | undefined
}

/** A failed statement or connection. Only the message, SQLSTATE and constraint are kept: the
 * drivers' own errors carry every query parameter (hashes, ciphertexts, addresses). A message can
 * still quote an input the server could not parse, so the stores check ids before they query. */
export class QueryError extends StoreError {
  override name = 'QueryError'
  readonly code = 'QUERY_FAILED'
  readonly sqlState: string | undefined
  readonly constraint: string | undefined

  constructor(message: string, { sqlState, constraint }: { sqlState?: string | undefined; constraint?: string | undefined } = {}) {
    super(message)
    this.sqlState = sqlState
    this.constraint = constraint
  }

  static from(error: unknown): QueryError {
    if (error instanceof QueryError) return error
    if (!(error instanceof Error)) return new QueryError('database query failed')
    // Only the server's own errors carry a severity; a connection failure's `code` is Node's (ECONNREFUSED), not a SQLSTATE.
    if (!('severity' in error)) return new QueryError(error.message)
    const { code, constraint } = error as { code?: unknown; constraint?: unknown }
    return new QueryError(error.message, {
      sqlState: typeof code === 'string' ? code : undefined,
      constraint: typeof constraint === 'string' ? constraint : undefined,
    })
  }
}

export function isViolationOf(error: unknown, constraint: string): boolean {
  return error instanceof QueryError && error.sqlState?.startsWith('23') === true && error.constraint === constraint
}

/** Ids from a request go to uuid columns, which reject malformed text with an error: such an id
 * simply names nothing, and callers check it with this first. */
export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
}

const lockScopes = { migrations: 1, defaultAccessToken: 2, sponsorship: 3, webhookEndpoints: 4, oauthGrantIssues: 5, vaultDeploymentPrepares: 6 } as const

/** Holds a lock on (scope, key) until the transaction ends, across every server instance on one
 * database: what row locks cannot give when the row that would conflict does not exist yet. */
export async function lockForTransaction(tx: Queryable, scope: keyof typeof lockScopes, key: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [lockScopes[scope], key])
}

export async function openDatabase({ url, dataDir, loadDataDir }: OpenDatabaseParameters = {}): Promise<Database> {
  return url ? openPostgres(url) : openPglite(dataDir, loadDataDir)
}

async function wrapped<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw QueryError.from(error)
  }
}

let emptyCluster: Promise<Blob> | undefined

/**
 * initdb, run in WebAssembly, is most of what opening a PGlite costs (~1.3 s of CPU, against ~0.35 s to
 * unpack a cluster): the first in-memory database of a process keeps a copy of its cluster as initdb
 * left it, and every later one starts from that copy. A test run opens about sixty.
 */
async function createInMemory(pgliteClass: typeof PGlite, dataDir: string | undefined, loadDataDir: Blob | undefined): Promise<PGlite> {
  if (loadDataDir) return pgliteClass.create(dataDir, { loadDataDir })
  if (emptyCluster) {
    const cluster = await emptyCluster.catch(() => undefined)
    if (cluster) return pgliteClass.create(dataDir, { loadDataDir: cluster })
  }
  const pglite = await pgliteClass.create(dataDir)
  // copied before the caller writes to it; a copy that fails leaves every later one to initdb
  emptyCluster ??= pglite.dumpDataDir('none')
  await emptyCluster.catch(() => {})
  return pglite
}

/** Imported on demand, like `pg`: a PostgreSQL deployment never loads the WebAssembly build. */
async function openPglite(dataDir: string | undefined, loadDataDir: Blob | undefined): Promise<Database> {
  const { PGlite, messages } = await import('@electric-sql/pglite')
  // `memory://` (tests, throwaway runs) is PGlite's in-memory store, not a directory to make
  const inMemory = dataDir === undefined || dataDir.startsWith('memory://')
  if (loadDataDir && !inMemory) throw new TypeError('a dump is loaded into a database in memory only, not into a data directory')
  if (dataDir && !inMemory) await mkdir(dataDir, { recursive: true })
  const pglite: PGlite = inMemory ? await createInMemory(PGlite, dataDir, loadDataDir) : await PGlite.create(dataDir)
  const queryable = (target: Pick<PGlite, 'query'>): Queryable => ({
    query: <T>(sql: string, params: readonly unknown[] = []) => wrapped(async () => (await target.query<T>(sql, [...params])).rows),
  })
  return {
    ...queryable(pglite),
    listen: (channel, listener) => wrapped(() => pglite.listen(channel, listener)),
    dumpDataDir: () => wrapped(() => pglite.dumpDataDir('none')),
    // PGlite has one connection: its transaction holds it, so every other query waits its turn.
    async transaction(fn) {
      try {
        return await pglite.transaction((tx) => fn(queryable(tx)))
      } catch (error) {
        // BEGIN and COMMIT fail with PGlite's own errors; what `fn` threw passes through as it is.
        throw error instanceof messages.DatabaseError ? QueryError.from(error) : error
      }
    },
    close: () => pglite.close(),
  }
}

async function openPostgres(url: string): Promise<Database> {
  const { Pool } = await import('pg')
  const pool = new Pool({ connectionString: url })
  // The pool discards an idle connection that drops; without a listener the event would crash the process.
  pool.on('error', () => {})
  const queryable = (target: Pool | PoolClient): Queryable => ({
    query: <T>(sql: string, params: readonly unknown[] = []) =>
      wrapped(async () => (await target.query(sql, [...params])).rows as T[]),
  })
  return {
    ...queryable(pool),
    async transaction(fn) {
      const client = await wrapped(() => pool.connect())
      let broken = false
      try {
        await wrapped(() => client.query('BEGIN'))
        const result = await fn(queryable(client))
        const commit = await wrapped(() => client.query('COMMIT'))
        // PostgreSQL answers COMMIT after a failed statement with ROLLBACK, not with an error.
        if (commit.command === 'ROLLBACK') throw new QueryError('the transaction was rolled back instead of committed')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(() => (broken = true))
        throw error
      } finally {
        client.release(broken)
      }
    },
    close: () => pool.end(),
  }
}
