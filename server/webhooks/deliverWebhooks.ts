import { randomUUID } from 'node:crypto'
import { hasCode } from '../../shared/codedError'
import type { Logger } from '../http/logger'
import type { Metrics } from '../ops/metrics'
import type { WebhookEndpointStore } from '../store/webhookEndpointStore'
import type { ClaimedDelivery, WebhookOutbox } from '../store/webhookOutbox'
import { postWebhook, type PostWebhookReturnType } from './postWebhook'
import { verifyWebhookUrl, type HostLookup } from './verifyWebhookUrl'
import { webhookHeaders } from './webhookHeaders'

/** When deliveries are tried, and for how long. Tests shorten it; production keeps the defaults. */
export type WebhookSchedule = {
  /** How often each instance looks for due deliveries. */
  intervalMs: number
  /** How long a claimed delivery is one instance's: one killed while sending leaves it to the others
   * after this. Longer than `timeoutMs`. */
  leaseMs: number
  /** How long a receiver has to answer. */
  timeoutMs: number
  /** The waits after the first, second, … failed attempt; the last repeats. */
  retryDelaysMs: readonly number[]
  /** No attempt is made later than this after the event was enqueued: the delivery fails, and its
   * endpoint is marked failing. */
  giveUpAfterMs: number
  batchSize: number
}

/** Standard Webhooks' suggested schedule, stretched to three days: 5 s, 5 min, 30 min, 2 h, 5 h,
 * then every 10 h, the last wait shortened so the final attempt is at three days. */
export const defaultWebhookSchedule: WebhookSchedule = {
  intervalMs: 1_000,
  leaseMs: 60_000,
  timeoutMs: 10_000,
  retryDelaysMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000],
  giveUpAfterMs: 3 * 86_400_000,
  batchSize: 10,
}

export type WebhookDeliveryDependencies = {
  outbox: Pick<WebhookOutbox, 'claim' | 'markDelivered' | 'scheduleRetry' | 'markFailed'>
  endpoints: Pick<WebhookEndpointStore, 'getTarget'>
  /** WEBHOOK_ALLOW_PRIVATE_URLS. */
  allowPrivateUrls: boolean
  lookup?: HostLookup
  logger: Logger
  metrics: Pick<Metrics, 'webhookDeliveries'>
  now: () => number
  schedule: WebhookSchedule
  /** This instance's name on its leases. */
  instance?: string
}

type Outcome = 'delivered' | 'http_error' | 'timeout' | 'unreachable' | 'refused'

async function attempt(dependencies: WebhookDeliveryDependencies, delivery: ClaimedDelivery): Promise<{ outcome: Outcome; status: number | null } | null> {
  const target = await dependencies.endpoints.getTarget(delivery.endpointId)
  // deleted meanwhile: its deliveries went with it
  if (!target) return null
  let destination
  try {
    // checked again at each attempt: what the host resolves to is its owner's to change
    destination = await verifyWebhookUrl(target.url, { allowPrivate: dependencies.allowPrivateUrls, ...(dependencies.lookup ? { lookup: dependencies.lookup } : {}) })
  } catch (error) {
    if (hasCode(error, 'WEBHOOK_URL_REFUSED')) return { outcome: 'refused', status: null }
    throw error
  }
  const { body } = delivery
  const headers = webhookHeaders({ webhookId: delivery.webhookId, timestamp: new Date(dependencies.now()), body, secrets: target.secrets })
  const answer: PostWebhookReturnType = await postWebhook({ destination, headers, body, timeoutMs: dependencies.schedule.timeoutMs })
  if ('failure' in answer) return { outcome: answer.failure, status: null }
  return { outcome: answer.status >= 200 && answer.status < 300 ? 'delivered' : 'http_error', status: answer.status }
}

/** Claims the due deliveries and tries each once. Returns the outcomes, for tests. */
export async function deliverWebhooksOnce(dependencies: WebhookDeliveryDependencies & { instance: string }): Promise<Outcome[]> {
  const { outbox, schedule, instance, metrics, logger } = dependencies
  const claimed = await outbox.claim({ instance, leaseMs: schedule.leaseMs, limit: schedule.batchSize })
  const outcomes = await Promise.all(
    claimed.map(async (delivery) => {
      const result = await attempt(dependencies, delivery)
      if (!result) return null
      const { outcome, status } = result
      metrics.webhookDeliveries.inc({ outcome })
      if (outcome === 'delivered') {
        await outbox.markDelivered(delivery, instance, status!)
        return outcome
      }
      const nextDelayMs = schedule.retryDelaysMs[Math.min(delivery.attempts, schedule.retryDelaysMs.length - 1)] ?? schedule.giveUpAfterMs
      // The last wait is cut short to land the final attempt at giveUpAfterMs itself, so a receiver
      // down for less than the promised window still gets the event.
      const delayMs = Math.min(nextDelayMs, schedule.giveUpAfterMs - delivery.ageMs)
      if (delayMs <= 0) {
        metrics.webhookDeliveries.inc({ outcome: 'gave_up' })
        logger.warn({ code: 'WEBHOOK_GAVE_UP', endpointId: delivery.endpointId, webhookId: delivery.webhookId, attempts: delivery.attempts + 1 }, 'webhooks: an event was not received in time; its endpoint is marked failing')
        await outbox.markFailed(delivery, instance, status)
      } else {
        await outbox.scheduleRetry(delivery, instance, delayMs, status)
      }
      return outcome
    }),
  )
  return outcomes.filter((outcome): outcome is Outcome => outcome !== null)
}

/** One loop per instance; the leases make each delivery one instance's at a time. `stop` waits for
 * the pass under way (at most `timeoutMs` of sending). */
export function startWebhookDelivery(dependencies: WebhookDeliveryDependencies) {
  const worker = { ...dependencies, instance: dependencies.instance ?? randomUUID() }
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let pass: Promise<unknown> = Promise.resolve()
  const schedule = () => {
    timer = setTimeout(() => {
      pass = deliverWebhooksOnce(worker)
        .catch((error: unknown) => dependencies.logger.warn({ error: error instanceof Error ? error.name : 'unknown' }, 'webhooks: a delivery pass failed, tried again shortly'))
        .finally(() => {
          if (!stopped) schedule()
        })
    }, dependencies.schedule.intervalMs)
  }
  schedule()
  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await pass
    },
  }
}
