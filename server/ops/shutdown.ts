import type { ServerType } from '@hono/node-server'
import type { Logger } from '../http/logger'

/** How often connections that fell idle are closed while a server drains. */
const idleSweepMs = 50

/**
 * Stops accepting connections and resolves once every request in flight has been answered. A
 * kept-alive connection is closed as soon as it falls idle: server.close() alone closes only those
 * idle when it is called, and would wait out the keep-alive timeout of the rest.
 */
export function closeHttpServer(server: ServerType): Promise<void> {
  const closeIdle = () => ('closeIdleConnections' in server ? server.closeIdleConnections() : undefined)
  return new Promise((resolve, reject) => {
    const sweep = setInterval(closeIdle, idleSweepMs)
    server.close((error) => {
      clearInterval(sweep)
      if (error) reject(error)
      else resolve()
    })
    closeIdle()
  })
}

/**
 * On SIGTERM (a platform stopping the instance) or SIGINT (Ctrl-C): runs `stop` once, then exits 0.
 * A stop that fails, or takes longer than `timeoutMs`, exits 1: the platform's kill would come anyway,
 * and this way the reason is logged. Repeated signals change nothing (`npm start` forwards Ctrl-C to a
 * process that also receives it from the terminal).
 */
export function stopOnSignals(stop: () => Promise<void>, { timeoutMs, logger }: { timeoutMs: number; logger: Logger }) {
  let stopping = false
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    logger.info({ signal, timeoutMs }, 'stopping: finishing requests in flight')
    setTimeout(() => {
      logger.error({ timeoutMs }, 'stopping took too long: exiting with requests unfinished')
      process.exit(1)
    }, timeoutMs).unref()
    stop().then(
      () => {
        logger.info('stopped')
        process.exit(0)
      },
      (error: unknown) => {
        logger.error({ error: error instanceof Error ? error.name : 'unknown' }, 'stopping failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', onSignal)
  process.on('SIGINT', onSignal)
}
