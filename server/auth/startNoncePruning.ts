import type { Logger } from '../http/logger'
import { startPeriodicJob } from '../ops/periodicJob'
import type { NonceStore } from '../store/nonceStore'

/** Deletes expired HMAC nonces now and then (startPeriodicJob). Returns the stop. */
export function startNoncePruning(nonces: Pick<NonceStore, 'pruneNonces'>, { everyMs, now, logger }: { everyMs: number; now: () => number; logger: Logger }) {
  return startPeriodicJob(() => nonces.pruneNonces(new Date(now())), { everyMs, logger, failure: 'nonce pruning failed' })
}
