import { ConfigError, readConfig } from './config'
import { createServer } from './createServer'
import { jsonLogger } from './http/logger'
import { stopOnSignals } from './ops/shutdown'

/** The server on its own, against any chain the environment describes (docs/configuration.md,
 * docs/production.md). `npm start` is the devnet; this is everything else. */
let config
try {
  config = readConfig(process.env)
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  console.error(error.message)
  process.exit(2)
}
const logger = jsonLogger(undefined, { level: config.LOG_LEVEL })
const server = await createServer(config, { logger })
logger.info({ url: server.url, chainId: config.CHAIN_ID, bundler: config.BUNDLER_URL ? 'rpc' : 'local', paymaster: config.PAYMASTER_URL ? 'erc-7677' : 'local' }, 'listening')
stopOnSignals(() => server.close(), { timeoutMs: config.SHUTDOWN_TIMEOUT_MS, logger })
