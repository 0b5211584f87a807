import type { Logger } from '../http/logger'
import type { NonceStore } from '../store/nonceStore'

/** Deletes expired HMAC nonces now and then. Unref'd: it never keeps the process alive. Returns the stop. */
export function startNoncePruning(nonces: Pick<NonceStore, 'pruneNonces'>, { everyMs, now, logger }: { everyMs: number; now: () => number; logger: Logger }) {
  const timer = setInterval(() => {
    nonces.pruneNonces(new Date(now())).catch((error: unknown) => {
      logger.error({ error: error instanceof Error ? error.name : 'unknown' }, 'nonce pruning failed')
    })
  }, everyMs)
  timer.unref()
  return () => clearInterval(timer)
}
