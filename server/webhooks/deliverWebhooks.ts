import { randomUUID } from 'node:crypto'
import { CodedError, hasCode } from '../../shared/codedError'
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
  /** How many deliveries an instance sends at once (and so the most one claim takes). */
  batchSize: number
  /** How many of those may go to one endpoint: a receiver that takes its whole timeout holds this
   * many slots, never the others'. */
  endpointConcurrency: number
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
  endpointConcurrency: 2,
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

type Outcome = 'delivered' | 'http_error' | 'timeout' | 'unreachable' | 'refused' | 'unresolved' | 'error'

type AttemptResult = { outcome: Outcome; status: number | null }

async function attempt(dependencies: WebhookDeliveryDependencies, delivery: ClaimedDelivery): Promise<AttemptResult | null> {
  const target = await dependencies.endpoints.getTarget(delivery.endpointId)
  // deleted meanwhile: its deliveries went with it
  if (!target) return null
  let destination
  try {
    // checked again at each attempt: what the host resolves to is its owner's to change
    destination = await verifyWebhookUrl(target.url, { allowPrivate: dependencies.allowPrivateUrls, ...(dependencies.lookup ? { lookup: dependencies.lookup } : {}) })
  } catch (error) {
    if (!hasCode(error, 'WEBHOOK_URL_REFUSED')) throw error
    // a host that does not resolve is most often the merchant's DNS, not an attack: told apart
    const unresolved = error.details?.reason === 'unresolved'
    dependencies.logger.warn(
      { code: error.code, reason: error.details?.reason, endpointId: delivery.endpointId, webhookId: delivery.webhookId, message: error.message },
      'webhooks: the endpoint\'s URL was refused at delivery; it is tried again on the schedule',
    )
    return { outcome: unresolved ? 'unresolved' : 'refused', status: null }
  }
  const { body } = delivery
  const headers = webhookHeaders({ webhookId: delivery.webhookId, timestamp: new Date(dependencies.now()), body, secrets: target.secrets })
  const answer: PostWebhookReturnType = await postWebhook({ destination, headers, body, timeoutMs: dependencies.schedule.timeoutMs })
  if ('failure' in answer) return { outcome: answer.failure, status: null }
  return { outcome: answer.status >= 200 && answer.status < 300 ? 'delivered' : 'http_error', status: answer.status }
}

/** What a log may say of a failure: its kind and message, never the object (its cause, a request or
 * a secret may hang off it). */
const failureOf = (error: unknown) =>
  error instanceof Error ? { name: error.name, ...(error instanceof CodedError ? { errorCode: error.code } : {}), message: error.message } : { name: typeof error }

/** Records the attempt's outcome: delivered, retried after the schedule's wait, or given up on. */
async function settle(dependencies: WebhookDeliveryDependencies & { instance: string }, delivery: ClaimedDelivery, { outcome, status }: AttemptResult) {
  const { outbox, schedule, instance, metrics, logger } = dependencies
  if (outcome === 'delivered') {
    await outbox.markDelivered(delivery, instance, status!)
    return
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
}

/**
 * Tries one claimed delivery once and records the outcome. It never throws: an attempt that fails
 * before any answer (a bug, a secret that will not open) is an `error`, retried on the schedule like
 * any other failure, and one that cannot be recorded is left to its lease.
 */
async function deliverOne(dependencies: WebhookDeliveryDependencies & { instance: string }, delivery: ClaimedDelivery): Promise<Outcome | null> {
  const { metrics, logger } = dependencies
  const about = { endpointId: delivery.endpointId, webhookId: delivery.webhookId }
  let result: AttemptResult | null
  try {
    result = await attempt(dependencies, delivery)
  } catch (error) {
    logger.warn({ code: 'WEBHOOK_ATTEMPT_FAILED', ...about, error: failureOf(error) }, 'webhooks: an attempt failed before the receiver could answer; it is tried again on the schedule')
    result = { outcome: 'error', status: null }
  }
  if (!result) return null
  metrics.webhookDeliveries.inc({ outcome: result.outcome })
  try {
    await settle(dependencies, delivery, result)
  } catch (error) {
    logger.warn({ code: 'WEBHOOK_SETTLE_FAILED', ...about, outcome: result.outcome, error: failureOf(error) }, 'webhooks: an attempt could not be recorded; the delivery is tried again once its lease runs out')
  }
  return result.outcome
}

/** Claims the due deliveries and tries each once, all at once; one that fails does not stop the
 * others. Returns the outcomes, in the order claimed, for tests. */
export async function deliverWebhooksOnce(dependencies: WebhookDeliveryDependencies & { instance: string }): Promise<Outcome[]> {
  const { outbox, schedule, instance } = dependencies
  const claimed = await outbox.claim({ instance, leaseMs: schedule.leaseMs, limit: schedule.batchSize, perEndpoint: schedule.endpointConcurrency })
  const settled = await Promise.allSettled(claimed.map((delivery) => deliverOne(dependencies, delivery)))
  return settled.flatMap((result) => (result.status === 'fulfilled' && result.value !== null ? [result.value] : []))
}

/**
 * One sender per instance. Each claimed delivery is sent at once, beside the others, and a slot that
 * frees up is claimed again at once: a receiver that takes its whole timeout holds only its own
 * slots (`endpointConcurrency`), never another endpoint's deliveries. A delivery is claimed only when
 * a slot is free to send it, so its lease runs from when it is sent; the leases make it one
 * instance's at a time. `stop` waits for the deliveries under way (at most `timeoutMs` of sending).
 */
export function startWebhookDelivery(dependencies: WebhookDeliveryDependencies) {
  const worker = { ...dependencies, instance: dependencies.instance ?? randomUUID() }
  const { outbox, schedule, logger } = dependencies
  const sending = new Set<Promise<unknown>>()
  const perEndpoint = new Map<string, number>()
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let claiming: Promise<void> | undefined
  let claimAgain = false
  // the last claim may have left due deliveries behind (it was full, or an endpoint was at its
  // share): a freed slot then claims at once rather than at the next interval
  let more = false

  const send = (delivery: ClaimedDelivery) => {
    const { endpointId } = delivery
    perEndpoint.set(endpointId, (perEndpoint.get(endpointId) ?? 0) + 1)
    const sent: Promise<unknown> = deliverOne(worker, delivery).finally(() => {
      sending.delete(sent)
      const left = perEndpoint.get(endpointId)! - 1
      if (left > 0) perEndpoint.set(endpointId, left)
      else perEndpoint.delete(endpointId)
      if (more) claim()
    })
    sending.add(sent)
  }
  const claimFreeSlots = async () => {
    const free = schedule.batchSize - sending.size
    if (free <= 0) {
      more = true
      return
    }
    const claimed = await outbox.claim({ instance: worker.instance, leaseMs: schedule.leaseMs, limit: free, perEndpoint: schedule.endpointConcurrency, inFlight: perEndpoint })
    // leased now: sent even if stop() came meanwhile, which waits for them
    for (const delivery of claimed) send(delivery)
    more = claimed.length === free || [...perEndpoint.values()].some((count) => count >= schedule.endpointConcurrency)
  }
  const claim = () => {
    if (stopped) return
    if (claiming) {
      claimAgain = true
      return
    }
    claiming = claimFreeSlots()
      .catch((error: unknown) => logger.warn({ error: error instanceof Error ? error.name : 'unknown' }, 'webhooks: claiming due deliveries failed, tried again shortly'))
      .finally(() => {
        claiming = undefined
        if (claimAgain) {
          claimAgain = false
          claim()
        }
      })
  }
  const tick = () => {
    timer = setTimeout(() => {
      claim()
      if (!stopped) tick()
    }, schedule.intervalMs)
  }
  tick()
  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await claiming
      await Promise.allSettled([...sending])
    },
  }
}
