import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'

/** Submissions wait up to SUBMIT_WAIT_MS (15 s by default) for a receipt: the buckets reach past it. */
const requestBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30]
const rpcBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/**
 * What an operator watches, in a registry of this server's own: prom-client's global one would mix
 * the figures of every server in a process (tests run several). Labels take only values from a fixed
 * set (route patterns, error codes, method names), never a path, token or id.
 */
export function createMetrics() {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const registers = [registry]
  const outcomes = (name: string, help: string) => new Counter({ name, help, labelNames: ['outcome'] as const, registers })
  return {
    registry,
    requestDuration: new Histogram({
      name: 'svc_checkout_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: requestBuckets,
      registers,
    }),
    permits: outcomes('svc_checkout_permits_total', 'POST /v1/pay/:id/permit by outcome: ok, or the error code answered'),
    prepares: outcomes('svc_checkout_prepares_total', 'Sponsorships asked for, POST /v1/pay/:id/prepare and pm_getPaymasterData on POST /v1/paymaster, by outcome: ok, or the error code answered'),
    submissions: outcomes('svc_checkout_submissions_total', 'POST /v1/pay/:id by outcome: confirmed, pending, or the error code answered'),
    pendingOperations: new Gauge({
      name: 'svc_checkout_pending_operations',
      help: 'Operations this instance is submitting or waiting on a receipt for (POST /v1/pay/:id in flight)',
      registers,
    }),
    unsettledOperations: new Gauge({
      name: 'svc_checkout_unsettled_operations',
      help: 'Operations submitted but not yet included, in the database (every instance), as the reconciler last counted',
      registers,
    }),
    resubmissions: outcomes(
      'svc_checkout_resubmissions_total',
      'The reconciler\'s checks of unsettled operations, by outcome: resubmitted (dropped, sent again), confirmed, reverted, pending (still on its way), lost (no longer valid), rejected, unavailable',
    ),
    sponsorshipErrors: new Counter({
      name: 'svc_checkout_sponsorship_errors_total',
      help: 'Paymaster sponsorship calls that failed, by step (stub, sign)',
      labelNames: ['step'] as const,
      registers,
    }),
    bundlerErrors: new Counter({
      name: 'svc_checkout_bundler_errors_total',
      help: 'Bundler calls that failed, by call (estimate, send, receipt, lookup) and kind (rejected: the operation is invalid; unavailable: retryable)',
      labelNames: ['call', 'kind'] as const,
      registers,
    }),
    rateLimitStoreErrors: new Counter({
      name: 'svc_checkout_rate_limit_store_errors_total',
      help: 'Requests whose rate limit Redis could not count: counted in this instance\'s memory instead',
      registers,
    }),
    webhookDeliveries: outcomes(
      'svc_checkout_webhook_deliveries_total',
      'Webhook delivery attempts by outcome: delivered, http_error (a non-2xx answer), timeout, unreachable, refused (the URL is refused by the address check: it resolves, in part, to an address that is not public), unresolved (its host does not resolve, or not within the lookup timeout), error (the attempt failed before a request could be made: logged as WEBHOOK_ATTEMPT_FAILED), and gave_up (an event not delivered for three days: its endpoint is marked failing)',
    ),
    webhookEvents: new Counter({
      name: 'svc_checkout_webhook_events_total',
      help: "Registry events this instance enqueued for webhooks, by type (invoice.paid, invoice.canceled, invoice.refunded); another instance's are counted there",
      labelNames: ['type'] as const,
      registers,
    }),
    webhookReorgs: new Counter({
      name: 'svc_checkout_webhook_reorgs_total',
      help: 'Blocks the webhook follower had read whose hash changed later: a reorganisation deeper than WEBHOOK_CONFIRMATIONS (events already sent may no longer be on the chain)',
      registers,
    }),
    rpcDuration: new Histogram({
      name: 'svc_checkout_rpc_duration_seconds',
      help: 'Chain JSON-RPC calls by method and outcome, retries included',
      labelNames: ['method', 'outcome'] as const,
      buckets: rpcBuckets,
      registers,
    }),
  }
}

export type Metrics = ReturnType<typeof createMetrics>
