import type { MiddlewareHandler } from 'hono'

export type Logger = {
  info(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

/** One JSON line per event. */
export function jsonLogger(write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Logger {
  const log = (level: string) => (message: string, fields: Record<string, unknown> = {}) =>
    write(JSON.stringify({ time: new Date().toISOString(), level, message, ...fields }))
  return { info: log('info'), error: log('error') }
}

export const silentLogger: Logger = { info() {}, error() {} }

/** Logs the path without its query: share links carry a bearer token there, and it must never reach a log. */
export function accessLog(logger: Logger): MiddlewareHandler {
  return async function logged(c, next) {
    const started = performance.now()
    await next()
    logger.info('request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    })
  }
}
