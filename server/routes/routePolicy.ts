import type { Context, Env, MiddlewareHandler } from 'hono'
import type { BodyLimit } from '../http/limitBody'
import type { PerClientLimit } from '../http/perClientLimit'
import type { Metrics } from '../ops/metrics'
import { countOutcomes, inFlight } from '../ops/requestMetrics'

/** The metrics that count what each call of a route came to (server/ops/metrics.ts). */
export type OutcomeMetric = 'permits' | 'prepares' | 'submissions'

/**
 * What a route declares about how it is reached, besides what it reads and answers: with its path,
 * schemas and handler in one declaration (server/routes/apiRoute.ts), a reader finds the route's
 * whole policy there. The app mounts it; nothing else names the route's path.
 */
export type RoutePolicy = {
  /** `anyOrigin`: a browser on any origin reads the answers, its preflight is answered, and a 413 or
   * 429 is readable too (server/http/publicCors.ts). Only for a route that takes no credentials. */
  cors: 'anyOrigin' | 'none'
  /** The per-client limits a request is counted in, in this order, before authentication: a flood of
   * forged signatures must not reach the database unchecked. Routes naming one limit share its count. */
  rateLimits: readonly PerClientLimit[]
  /** The largest body it reads; unset, the API's 64 KiB (server/http/limitBody.ts). */
  bodyLimit?: BodyLimit
  /** The metric that counts what each call came to: its error code, else the name `successes` gives
   * its status (200 `ok` unless given). `inFlight` also counts the calls under way. */
  outcomes?: { metric: OutcomeMetric; successes?: Record<number, string>; inFlight?: 'pendingOperations' }
}

/** What the app makes a declared policy of: the parts every route shares (server/app.ts). */
export type PolicyMiddleware = {
  anyOrigin: MiddlewareHandler
  /** One count per limit's name, however many routes name it. */
  limited(limit: PerClientLimit): MiddlewareHandler
  /** `undefined`: the API's own limit. */
  bodyLimited(limit: BodyLimit | undefined): MiddlewareHandler
  metrics: Pick<Metrics, OutcomeMetric | 'pendingOperations'>
}

type Declared = RoutePolicy & { method: string; path: string }

/** What stands in front of a route's handler, in order: CORS, the body limit, the rate limits, the
 * outcome counters. */
export function policyOf(route: RoutePolicy, made: PolicyMiddleware): MiddlewareHandler[] {
  const { outcomes } = route
  return [
    ...(route.cors === 'anyOrigin' ? [made.anyOrigin] : []),
    made.bodyLimited(route.bodyLimit),
    ...route.rateLimits.map((limit) => made.limited(limit)),
    ...(outcomes?.inFlight ? [inFlight(made.metrics[outcomes.inFlight])] : []),
    ...(outcomes ? [countOutcomes(made.metrics[outcomes.metric], outcomes.successes)] : []),
  ]
}

/**
 * What a request to a declared path by a method none of its routes answers (a preflight, a 405)
 * passes through: the path's CORS and body limit, on which its routes must agree, and the limit its
 * routes name first, so that such a request is counted with the routes beside it.
 */
export function pathPolicyOf(routes: readonly Declared[], made: PolicyMiddleware): MiddlewareHandler[] {
  const [first, ...others] = routes
  if (!first) return []
  for (const route of others) {
    const disagree = (what: string) => new Error(`the routes at ${first.path} declare two ${what}: ${first.method} and ${route.method} must agree`)
    if (route.cors !== first.cors) throw disagree('CORS policies')
    if (route.bodyLimit?.maxBytes !== first.bodyLimit?.maxBytes) throw disagree('body limits')
    if (route.rateLimits[0]?.name !== first.rateLimits[0]?.name) throw disagree('first rate limits')
  }
  const family = first.rateLimits[0]
  return [...(first.cors === 'anyOrigin' ? [made.anyOrigin] : []), made.bodyLimited(first.bodyLimit), ...(family ? [made.limited(family)] : [])]
}

/** Whether one of `methods` (lower case, as declared) answers the request: HEAD is answered by GET. */
export function answeredBy(methods: ReadonlySet<string>, c: Context<Env>): boolean {
  const method = c.req.method.toLowerCase()
  return methods.has(method) || (method === 'head' && methods.has('get'))
}
