import type { Logger } from '../http/logger'
import { startPeriodicJob } from '../ops/periodicJob'
import type { PaymentStore } from '../store/paymentStore'

/** How long a prepared payment that was never submitted is kept past its expiry: a payer who submits
 * it late in that hour is told its permit expired (prepare again), not that it was never prepared. */
export const preparedRetentionMs = 60 * 60_000

export type PreparedPruningParameters = { everyMs: number; retentionMs?: number; now: () => number; logger: Logger }

/**
 * Deletes prepared payments that expired over `retentionMs` ago and were never submitted, now and
 * then, a batch at a time until none is left (startPeriodicJob). Every instance runs it; the store
 * lets them share the work. Returns the stop.
 */
export function startPreparedPruning(
  payments: Pick<PaymentStore, 'prunePrepared'> & { pruneSponsorships?: (endedBefore: Date) => Promise<number> },
  { everyMs, retentionMs = preparedRetentionMs, now, logger }: PreparedPruningParameters,
) {
  return startPeriodicJob(
    async (stopping) => {
      const before = new Date(now() - retentionMs)
      while (!stopping() && (await payments.prunePrepared(before)) > 0) {
        // another batch: most of a backlog goes in one pass, a short transaction at a time
      }
      // an ended sponsorship no longer counts against any limit: kept as long, for an operator's look
      while (!stopping() && payments.pruneSponsorships && (await payments.pruneSponsorships(before)) > 0) {
        // likewise
      }
    },
    { everyMs, logger, failure: 'prepared payment pruning failed' },
  )
}
