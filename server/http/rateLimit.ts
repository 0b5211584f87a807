import type { Context, MiddlewareHandler } from 'hono'
import { HttpError } from './httpError'

export type RateLimitOptions = {
  /** Requests allowed per client per window. */
  limit: number
  windowMs: number
  clientKey: (c: Context) => string
  now?: () => number
}

/**
 * Per-client fixed windows, in memory: each instance limits on its own, which bounds abuse without a
 * shared store on the hot path. Answers 429 with Retry-After in whole seconds (SPEC 7.2).
 */
const maxClients = 100_000

export function rateLimit({ limit, windowMs, clientKey, now = Date.now }: RateLimitOptions): MiddlewareHandler {
  const windows = new Map<string, { start: number; count: number }>()
  let lastSweep = now()
  return async function rateLimited(c, next) {
    const at = now()
    if (at - lastSweep > windowMs) {
      for (const [key, window] of windows) if (at - window.start >= windowMs) windows.delete(key)
      lastSweep = at
    }
    const key = clientKey(c)
    let window = windows.get(key)
    // a flood of distinct clients must not grow memory without bound: the oldest windows go first
    if (!window && windows.size >= maxClients) windows.delete(windows.keys().next().value!)
    if (!window || at - window.start >= windowMs) {
      window = { start: at, count: 0 }
      windows.set(key, window)
    }
    window.count += 1
    if (window.count > limit) {
      const retryAfter = Math.max(1, Math.ceil((window.start + windowMs - at) / 1000))
      throw new HttpError(429, 'RATE_LIMITED', `too many requests: retry after ${retryAfter} s`, {}, { 'Retry-After': String(retryAfter) })
    }
    await next()
  }
}
