import type { Env, Hono } from 'hono'
import { METHOD_NAME_ALL } from 'hono/router'
import { HttpError } from './httpError'

/** 405: the path is a route, the method is not one of its own. Allow lists them (RFC 9110 15.5.6). */
export class MethodNotAllowedError extends HttpError {
  override name = 'MethodNotAllowedError'
  constructor(allowed: string[]) {
    super(405, 'METHOD_NOT_ALLOWED', `this route answers ${allowed.join(', ')} only`, {}, { Allow: allowed.join(', ') })
  }
}

/**
 * The methods `app` has a route for at `path`, asked of its own router, so a new route needs nothing
 * here; middleware (registered for every method) is no route. HEAD goes with GET: Hono answers it
 * with the GET route.
 */
export function allowedMethods<E extends Env>(app: Hono<E>, path: string): string[] {
  const methods = new Set(app.routes.map((route) => route.method).filter((method) => method !== METHOD_NAME_ALL))
  const allowed = [...methods].filter((method) => app.router.match(method, path)[0].some(([[, route]]) => route.method === method))
  return allowed.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method]))
}
