import type { MiddlewareHandler } from 'hono'
import { routePath } from 'hono/route'
import type { Metrics } from './metrics'
import { errorCode } from '../http/errorHandler'

/** Times every request, labelled by the route pattern that answered it (`/v1/pay/:id`, never the
 * path itself: ids and tokens would make a series per payer). */
export function requestMetrics(duration: Metrics['requestDuration']): MiddlewareHandler {
  return async function measured(c, next) {
    const end = duration.startTimer()
    await next()
    end({ method: c.req.method, route: routePath(c), status: c.res.status })
  }
}

/** Counts what each call of a route came to: the error code it was answered with, else the name
 * `successes` gives its status. */
export function countOutcomes(counter: Metrics['permits'], successes: Record<number, string> = { 200: 'ok' }): MiddlewareHandler {
  return async function counted(c, next) {
    await next()
    // the error handler has answered by now; the error is kept on the context
    counter.inc({ outcome: c.error ? errorCode(c.error) : (successes[c.res.status] ?? String(c.res.status)) })
  }
}

/** Counts the requests in flight through a route. */
export function inFlight(gauge: Metrics['pendingOperations']): MiddlewareHandler {
  return async function tracked(_c, next) {
    gauge.inc()
    try {
      await next()
    } finally {
      gauge.dec()
    }
  }
}
