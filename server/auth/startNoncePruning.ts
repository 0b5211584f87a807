import type { Logger } from '../http/logger'
import type { NonceStore } from '../store/nonceStore'

/** Deletes expired HMAC nonces now and then. Unref'd: it never keeps the process alive. Returns the
 * stop, which resolves once the deletion under way has ended: a server closes its database after it. */
export function startNoncePruning(nonces: Pick<NonceStore, 'pruneNonces'>, { everyMs, now, logger }: { everyMs: number; now: () => number; logger: Logger }) {
  let pass: Promise<void> | undefined
  const timer = setInterval(() => {
    if (pass) return
    pass = nonces
      .pruneNonces(new Date(now()))
      .then(
        () => {},
        (error: unknown) => logger.error({ error: error instanceof Error ? error.name : 'unknown' }, 'nonce pruning failed'),
      )
      .finally(() => (pass = undefined))
  }, everyMs)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await pass
  }
}
