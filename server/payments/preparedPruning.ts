import type { Logger } from '../http/logger'
import type { PaymentStore } from '../store/paymentStore'

/** How long a prepared payment that was never submitted is kept past its expiry: a payer who submits
 * it late in that hour is told its permit expired (prepare again), not that it was never prepared. */
export const preparedRetentionMs = 60 * 60_000

export type PreparedPruningParameters = { everyMs: number; retentionMs?: number; now: () => number; logger: Logger }

/**
 * Deletes prepared payments that expired over `retentionMs` ago and were never submitted, now and
 * then, a batch at a time until none is left. Every instance runs it; the store lets them share the
 * work. Unref'd: it never keeps the process alive. Returns the stop, which starts no further batch
 * and resolves once the batch under way has ended: a server closes its database after it.
 */
export function startPreparedPruning(
  payments: Pick<PaymentStore, 'prunePrepared'> & { pruneSponsorships?: (endedBefore: Date) => Promise<number> },
  { everyMs, retentionMs = preparedRetentionMs, now, logger }: PreparedPruningParameters,
) {
  let stopped = false
  let pass: Promise<void> | undefined
  const timer = setInterval(() => {
    // a pass still deleting (a backlog after a long outage) is not joined by a second one
    if (pass) return
    pass = (async () => {
      try {
        const before = new Date(now() - retentionMs)
        while (!stopped && (await payments.prunePrepared(before)) > 0) {
          // another batch: most of a backlog goes in one pass, a short transaction at a time
        }
        // an ended sponsorship no longer counts against any limit: kept as long, for an operator's look
        while (!stopped && payments.pruneSponsorships && (await payments.pruneSponsorships(before)) > 0) {
          // likewise
        }
      } catch (error) {
        logger.error({ error: error instanceof Error ? error.name : 'unknown' }, 'prepared payment pruning failed')
      } finally {
        pass = undefined
      }
    })()
  }, everyMs)
  timer.unref()
  return async () => {
    stopped = true
    clearInterval(timer)
    await pass
  }
}
