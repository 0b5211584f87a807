import { ConfigError, readConfig } from './config'
import { createServer } from './createServer'
import { jsonLogger } from './http/logger'

/** The server on its own, against any chain the environment describes (README: the companion
 * server). `npm start` is the devnet; this is everything else. */
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

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    void server.close().then(() => process.exit(0))
  })
}
