import { startNoncePruning } from './auth/startNoncePruning'
import { encryptionKeysOf, type Config } from './config'
import type { Logger } from './http/logger'
import { startPreparedPruning } from './payments/preparedPruning'
import { startReconciler } from './payments/reconcileSubmissions'
import { checkSealingKeys } from './store/checkSealingKeys'
import { defaultWebhookSchedule, startWebhookDelivery, type WebhookSchedule } from './webhooks/deliverWebhooks'
import { startRegistryFollower } from './webhooks/followRegistry'
import { startWebhookPruning } from './webhooks/startWebhookPruning'
import type { HostLookup } from './webhooks/verifyWebhookUrl'
import type { WiredServices } from './wireServices'

export type BackgroundJobsParameters = {
  logger: Logger
  now: () => number
  /** Shortens the webhooks' retry schedule (tests); the configuration's interval, timeout and lease win over it. */
  webhookSchedule?: Partial<WebhookSchedule> | undefined
  webhookLookup?: HostLookup | undefined
}

/** The jobs, started together: `stop` ends them in order and resolves once no pass is under way. */
export type BackgroundJobs = { stop(): Promise<void> }

/**
 * Starts the server's work beside the requests: the reconciler, the webhooks' registry follower and
 * delivery, and the pruning of nonces, prepared operations, sponsorships and sent webhooks
 * (each over server/ops/periodicJob.ts or a loop of its own). Every instance runs them all; the
 * stores' claims, cursors and leases share the work.
 */
export function startBackgroundJobs(
  config: Config,
  { pay, stores, sponsorships, metrics, deployment }: Pick<WiredServices, 'pay' | 'stores' | 'sponsorships' | 'metrics' | 'deployment'>,
  { logger, now, webhookSchedule, webhookLookup }: BackgroundJobsParameters,
): BackgroundJobs {
  // said at start, not first at a payer's request; in the background: it reads every sealed table
  checkSealingKeys(stores.db, [...encryptionKeysOf(config).keys.keys()]).then(
    (problems) => problems.forEach((problem) => logger.error({ code: 'ENCRYPTION_KEY_MISSING' }, problem)),
    // a database that fails here fails the readiness probe too, which says so
    () => {},
  )
  const stopPruning = startNoncePruning(stores.nonces, { everyMs: 60_000, now, logger })
  const stopPreparedPruning = startPreparedPruning(
    { prunePrepared: (before, limit) => stores.payments.prunePrepared(before, limit), pruneSponsorships: sponsorships.prune },
    { everyMs: 60_000, now, logger },
  )
  const reconciler =
    config.RECONCILE_INTERVAL_MS > 0
      ? startReconciler(pay, {
          claims: stores.reconcileClaims,
          metrics,
          logger,
          options: {
            intervalMs: config.RECONCILE_INTERVAL_MS,
            leaseMs: config.RECONCILE_LEASE_MS,
            submittedForMs: config.SUBMIT_WAIT_MS,
            fromBlock: config.REGISTRY_FROM_BLOCK,
          },
        })
      : null
  const stopWebhookPruning = startWebhookPruning(stores.webhookOutbox, { everyMs: 3_600_000, now, logger })
  const webhooks =
    config.WEBHOOK_INTERVAL_MS > 0
      ? [
          startRegistryFollower(
            { client: pay.client, deployment, outbox: stores.webhookOutbox, index: stores.invoiceIndex, logger, metrics },
            { fromBlock: config.REGISTRY_FROM_BLOCK, confirmations: config.WEBHOOK_CONFIRMATIONS, intervalMs: config.WEBHOOK_INTERVAL_MS },
          ),
          startWebhookDelivery({
            outbox: stores.webhookOutbox,
            endpoints: stores.webhookEndpoints,
            allowPrivateUrls: config.WEBHOOK_ALLOW_PRIVATE_URLS,
            ...(webhookLookup ? { lookup: webhookLookup } : {}),
            logger,
            metrics,
            now,
            schedule: {
              ...defaultWebhookSchedule,
              ...webhookSchedule,
              intervalMs: config.WEBHOOK_INTERVAL_MS,
              timeoutMs: config.WEBHOOK_TIMEOUT_MS,
              leaseMs: config.WEBHOOK_LEASE_MS,
            },
          }),
        ]
      : []
  return {
    /** The reconciler first (after its pass under way), then the webhooks' loops, then the pruning:
     * a pass under way ends before the database closes under it. */
    async stop() {
      await reconciler?.stop()
      await Promise.all(webhooks.map((loop) => loop.stop()))
      await Promise.all([stopPruning(), stopPreparedPruning(), stopWebhookPruning()])
    },
  }
}
