import type { Logger } from '../http/logger'
import { startPeriodicJob } from '../ops/periodicJob'
import type { WebhookOutbox } from '../store/webhookOutbox'

/** How long a finished delivery (and its event) is kept: for an operator or a merchant's support to
 * look up what was sent, and when. */
export const webhookRetentionMs = 30 * 86_400_000

export type WebhookPruningParameters = { everyMs: number; retentionMs?: number; now: () => number; logger: Logger }

/** Deletes deliveries finished over `retentionMs` ago, and their events, now and then, a batch at a
 * time (startPeriodicJob). Every instance runs it; deleting the same rows twice is harmless. Returns the stop. */
export function startWebhookPruning(outbox: Pick<WebhookOutbox, 'pruneFinished'>, { everyMs, retentionMs = webhookRetentionMs, now, logger }: WebhookPruningParameters) {
  return startPeriodicJob(
    async (stopping) => {
      const before = new Date(now() - retentionMs)
      while (!stopping() && (await outbox.pruneFinished(before)) > 0) {
        // another batch: a backlog goes in short transactions
      }
    },
    { everyMs, logger, failure: 'webhook pruning failed' },
  )
}
