import { createApiKeyStore } from '../server/store/apiKeyStore'
import { createSealingCiphers } from '../server/store/metadataCipher'
import { createStudioStore } from '../server/store/studioStore'
import { CodedError } from '../shared/codedError'
import { openKeysDatabase } from './keysDatabase'
import { keysUsage, parseKeysCommand, runKeysCommand, runRotateEncryptionKeyCommand } from './keysCommand'
import { asksForHelp, commandOrUsage } from './usageError'

/** `npm run keys -- …`: studios and their API keys (SPEC 2.8), against the server's own database and
 * encryption keys (DATABASE_URL or DATA_DIR, METADATA_ENCRYPTION_KEY or METADATA_ENCRYPTION_KEYS), or
 * the devnet's; and the rotation of those keys. */
async function main(): Promise<number> {
  const argv = process.argv.slice(2)
  if (asksForHelp(argv)) {
    console.log(keysUsage)
    return 0
  }
  const command = commandOrUsage(() => parseKeysCommand(argv), keysUsage)
  if (!command) return 2
  const { db, encryptionKeys, where } = await openKeysDatabase()
  console.error(`database: ${where}`)
  try {
    const ciphers = createSealingCiphers(encryptionKeys)
    if (command.command === 'rotate-encryption-key') {
      const { done, answer, message } = await runRotateEncryptionKeyCommand(command, { db, ciphers, log: (line) => console.error(line) })
      console.log(JSON.stringify(answer, null, 2))
      console.error(message)
      return done ? 0 : 1
    }
    const answer = await runKeysCommand(command, { studios: createStudioStore(db), apiKeys: createApiKeyStore(db, ciphers['api-key-secret']) })
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
    // ours say what to do and carry no secret; anything else is named, never traced
    console.error(error instanceof CodedError ? error.message : error instanceof Error ? `${error.name}: ${error.message}` : 'failed')
    process.exit(1)
  },
)
