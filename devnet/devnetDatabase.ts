import { rmSync } from 'node:fs'
import type { Database } from '../server/store/database'
import { openMigratedDatabase } from '../server/store/openStores'
import { DevnetError } from './devnetError'

/** Where a devnet stores: PostgreSQL when `databaseUrl` is given (npm start's DATABASE_URL), else an
 * embedded PGlite in `dataDir`. */
export type DevnetDatabaseParameters = { dataDir: string; databaseUrl?: string | undefined }

/**
 * The devnet's database, as new as its chain: a devnet starts a new chain every time, whose invoices
 * reuse the ids and contract addresses of the last one, so records an earlier devnet left (share
 * links, API keys, submissions) would name invoices that are not theirs. The embedded one is deleted
 * and made anew; PostgreSQL's is someone's database, so one holding records is refused, not emptied.
 */
export async function openDevnetDatabase({ dataDir, databaseUrl }: DevnetDatabaseParameters): Promise<Database> {
  if (!databaseUrl) {
    rmSync(dataDir, { recursive: true, force: true })
    return openMigratedDatabase({ DATA_DIR: dataDir })
  }
  const db = await openMigratedDatabase({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir })
  const [records] = await db.query<{ used: boolean }>('SELECT EXISTS (SELECT 1 FROM studios) OR EXISTS (SELECT 1 FROM invoice_metadata) AS used')
  if (!records?.used) return db
  await db.close()
  throw new DevnetError(
    'DEVNET_DATABASE_IN_USE',
    "DATABASE_URL's database already holds studios or invoices (an earlier devnet's, or a server's), and the devnet's chain is new on every start: point DATABASE_URL at an empty database (`createdb svc_devnet`, or drop and create it again after each run), or unset it for the devnet's embedded database",
  )
}
