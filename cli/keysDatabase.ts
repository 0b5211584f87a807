import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { encryptionKeysOf, readStoreConfig } from '../server/config'
import type { Database } from '../server/store/database'
import type { EncryptionKeys } from '../server/store/metadataCipher'
import { openMigratedDatabase } from '../server/store/openStores'
import { borrowDatabase } from '../devnet/databaseSocket'
import { devnetDir, readDevnetFile } from '../devnet/devnetFile'
import { CodedError } from '../shared/codedError'

/** devnet.json names no database: a devnet started before it did. */
export class DevnetDatabaseUnknownError extends CodedError {
  override name = 'DevnetDatabaseUnknownError'
  readonly code = 'DEVNET_DATABASE_UNKNOWN'
}

/** `encryptionKeys`: the keys the database's records are sealed under, the active one sealing anew. */
export type KeysDatabase = { db: Database; encryptionKeys: EncryptionKeys; where: string }

const storeVariables = ['DATABASE_URL', 'DATA_DIR', 'METADATA_ENCRYPTION_KEY', 'METADATA_ENCRYPTION_KEYS', 'METADATA_ENCRYPTION_ACTIVE_KEY'] as const

/**
 * The server's database as its environment names it; with none of DATABASE_URL, DATA_DIR,
 * METADATA_ENCRYPTION_KEY and METADATA_ENCRYPTION_KEYS set and a devnet.json in SVC_DEVNET_DIR, the
 * devnet's: through the running devnet, or its PGlite directory once it stopped (the next `npm start`
 * begins a new one).
 */
export async function openKeysDatabase(env: Record<string, string | undefined> = process.env): Promise<KeysDatabase> {
  const dir = devnetDir(env)
  if (storeVariables.some((name) => env[name]) || !existsSync(join(dir, 'devnet.json'))) {
    const config = readStoreConfig(env)
    const where = config.DATABASE_URL ? 'DATABASE_URL' : `PGlite in ${config.DATA_DIR}`
    return { db: await openMigratedDatabase(config), encryptionKeys: encryptionKeysOf(config), where }
  }
  const { database } = readDevnetFile(dir)
  if (!database) throw new DevnetDatabaseUnknownError(`${join(dir, 'devnet.json')} does not say where the devnet's database is: restart the devnet (npm start), or set DATA_DIR and METADATA_ENCRYPTION_KEY`)
  // the devnet seals under its single key, key id 0
  const encryptionKeys = { keys: new Map([[0, database.metadataEncryptionKey]]), activeKeyId: 0 }
  const running = await borrowDatabase(database.socket)
  if (running) return { db: running, encryptionKeys, where: `the running devnet's database (${database.socket})` }
  if (database.databaseUrl) return { db: await openMigratedDatabase({ DATABASE_URL: database.databaseUrl, DATA_DIR: '' }), encryptionKeys, where: "the stopped devnet's database (its DATABASE_URL)" }
  if (!database.dataDir) throw new DevnetDatabaseUnknownError(`${join(dir, 'devnet.json')} names neither the devnet's PGlite directory nor its DATABASE_URL: restart the devnet (npm start), or set DATA_DIR and METADATA_ENCRYPTION_KEY`)
  return {
    db: await openMigratedDatabase({ DATABASE_URL: undefined, DATA_DIR: database.dataDir }),
    encryptionKeys,
    where: `the stopped devnet's database (${database.dataDir})`,
  }
}
