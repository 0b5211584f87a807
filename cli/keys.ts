import { ConfigError, readStoreConfig } from '../server/config'
import { createApiKeyStore } from '../server/store/apiKeyStore'
import { createMetadataCipher } from '../server/store/metadataCipher'
import { openMigratedDatabase } from '../server/store/openStores'
import { StoreError } from '../server/store/storeError'
import { createStudioStore } from '../server/store/studioStore'
import { ApiKeyNotFoundError, keysUsage, parseKeysCommand, runKeysCommand } from './keysCommand'
import { commandOrUsage } from './usageError'

/** `npm run keys -- …`: API keys of a studio (SPEC 2.8), against the server's own database and
 * encryption key (DATABASE_URL or DATA_DIR, METADATA_ENCRYPTION_KEY). */
async function main(): Promise<number> {
  const command = commandOrUsage(() => parseKeysCommand(process.argv.slice(2)), keysUsage)
  if (!command) return 2
  const config = readStoreConfig()
  const db = await openMigratedDatabase(config)
  try {
    const cipher = createMetadataCipher(config.METADATA_ENCRYPTION_KEY)
    const answer = await runKeysCommand(command, { studios: createStudioStore(db), apiKeys: createApiKeyStore(db, cipher) })
    console.log(JSON.stringify(answer, null, 2))
    if (command.command === 'create') console.error('The secret is shown this once: store it now. The server keeps it only encrypted.')
    return 0
  } finally {
    await db.close()
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known = error instanceof ConfigError || error instanceof StoreError || error instanceof ApiKeyNotFoundError
    console.error(known ? error.message : error instanceof Error ? `${error.name}: ${error.message}` : 'failed')
    process.exit(1)
  },
)
