import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { readStoreConfig } from '../server/config'
import type { Database } from '../server/store/database'
import { openMigratedDatabase } from '../server/store/openStores'
import { borrowDatabase } from '../devnet/databaseSocket'
import { devnetDir, readDevnetFile } from '../devnet/devnetFile'
import { CodedError } from '../shared/codedError'

/** devnet.json names no database: a devnet started before it did. */
export class DevnetDatabaseUnknownError extends CodedError {
  override name = 'DevnetDatabaseUnknownError'
  readonly code = 'DEVNET_DATABASE_UNKNOWN'
}

export type KeysDatabase = { db: Database; metadataEncryptionKey: string; where: string }

const storeVariables = ['DATABASE_URL', 'DATA_DIR', 'METADATA_ENCRYPTION_KEY'] as const

/**
 * The server's database as its environment names it; with none of DATABASE_URL, DATA_DIR and
 * METADATA_ENCRYPTION_KEY set and a devnet.json in SVC_DEVNET_DIR, the devnet's: through the running
 * devnet, or its PGlite directory once it stopped (the next `npm start` begins a new one).
 */
export async function openKeysDatabase(env: Record<string, string | undefined> = process.env): Promise<KeysDatabase> {
  const dir = devnetDir(env)
  if (storeVariables.some((name) => env[name]) || !existsSync(join(dir, 'devnet.json'))) {
    const config = readStoreConfig(env)
    const where = config.DATABASE_URL ? 'DATABASE_URL' : `PGlite in ${config.DATA_DIR}`
    return { db: await openMigratedDatabase(config), metadataEncryptionKey: config.METADATA_ENCRYPTION_KEY, where }
  }
  const { database } = readDevnetFile(dir)
  if (!database) throw new DevnetDatabaseUnknownError(`${join(dir, 'devnet.json')} does not say where the devnet's database is: restart the devnet (npm start), or set DATA_DIR and METADATA_ENCRYPTION_KEY`)
  const running = await borrowDatabase(database.socket)
  if (running) return { db: running, metadataEncryptionKey: database.metadataEncryptionKey, where: `the running devnet's database (${database.socket})` }
  return {
    db: await openMigratedDatabase({ DATABASE_URL: undefined, DATA_DIR: database.dataDir }),
    metadataEncryptionKey: database.metadataEncryptionKey,
    where: `the stopped devnet's database (${database.dataDir})`,
  }
}
