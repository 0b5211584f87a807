import type { MiddlewareHandler } from 'hono'
import { routePath } from 'hono/route'
import { pino, stdTimeFunctions, type Level, type Logger } from 'pino'

export type { Logger }

export type LogLevel = Level | 'silent'

/** One JSON line per event, on stdout unless `write` takes the lines (tests read them). */
export function jsonLogger(write?: (line: string) => void, { level = 'info' }: { level?: LogLevel } = {}): Logger {
  const options = {
    level,
    timestamp: stdTimeFunctions.isoTime,
    // a word an operator can filter on without pino's number table
    formatters: { level: (label: string) => ({ level: label }) },
  }
  return write ? pino(options, { write }) : pino(options)
}

export const silentLogger: Logger = pino({ level: 'silent' })

/** Probes and scrapes come every few seconds: at info they would drown the requests that matter. */
const quietPaths = new Set(['/healthz', '/readyz', '/metrics'])

/** Logs the path without its query: share links carry a bearer token there, and it must never reach a
 * log. The route pattern groups requests by handler; the request id ties the line to the client's. */
export function accessLog(logger: Logger): MiddlewareHandler {
  return async function logged(c, next) {
    const started = performance.now()
    await next()
    const path = c.req.path
    const level = quietPaths.has(path) ? 'debug' : 'info'
    // a line below the logger's level is not written: its fields need not be gathered either
    if (!logger.isLevelEnabled(level)) return
    logger[level](
      {
        requestId: c.get('requestId'),
        method: c.req.method,
        path,
        route: routePath(c),
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    )
  }
}
