import { assertDatabaseNamed, assertOperationsPrivate, ConfigError, readConfig } from './config'
import { createServer } from './createServer'
import { jsonLogger } from './http/logger'
import { stopOnSignals } from './ops/shutdown'

/** The server on its own, against any chain the environment describes (docs/configuration.md,
 * docs/production.md). `npm start` is the devnet; this is everything else. */
let config
try {
  config = readConfig(process.env)
  assertDatabaseNamed(process.env)
  assertOperationsPrivate(config)
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  console.error(error.message)
  process.exit(2)
}
const logger = jsonLogger(undefined, { level: config.LOG_LEVEL })
if (!config.DATABASE_URL) {
  logger.warn({ dataDir: config.DATA_DIR }, 'single-instance mode: PGlite in DATA_DIR keeps this instance\'s own database and HMAC nonces; run one instance only, or set DATABASE_URL')
}
const server = await createServer(config, { logger }).catch((error: unknown) => {
  // a port it cannot listen on is the operator's to fix, said as the configuration errors above are
  if (!(error instanceof ConfigError)) throw error
  console.error(error.message)
  process.exit(2)
})
// before 'listening', which is what a supervisor waits for: a SIGTERM sent right after it would
// otherwise find no handler yet and end the process at once, requests and all
stopOnSignals(() => server.close(), { timeoutMs: config.SHUTDOWN_TIMEOUT_MS, logger })
logger.info({ url: server.url, ...(server.opsUrl ? { opsUrl: server.opsUrl } : {}), chainId: config.CHAIN_ID, bundler: config.BUNDLER_URL ? 'rpc' : 'local', paymaster: config.PAYMASTER_URL ? 'erc-7677' : 'local' }, 'listening')
