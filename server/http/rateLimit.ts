import type { Context, MiddlewareHandler } from 'hono'
import { HttpError } from './httpError'

/** Counts one request of a client; `retryAfterMs` is set once the client is over its limit. */
export type RateCounter = { consume(key: string): Promise<{ retryAfterMs: number | null }> }

export type RateLimitParameters = {
  /** Requests allowed per client per window. */
  limit: number
  windowMs: number
  clientKey: (c: Context) => string
  now?: () => number
  /** Where requests are counted: this instance's memory unless given (REDIS_URL: sharedRateCounter). */
  counter?: RateCounter
}

const maxClients = 100_000

/**
 * Per-client fixed windows, in memory: each instance limits on its own, which bounds abuse without a
 * shared store on the hot path.
 */
export function memoryRateCounter({ limit, windowMs, now = Date.now }: { limit: number; windowMs: number; now?: () => number }): RateCounter {
  const windows = new Map<string, { start: number; count: number }>()
  let lastSweep = now()
  return {
    async consume(key) {
      const at = now()
      if (at - lastSweep > windowMs) {
        for (const [client, window] of windows) if (at - window.start >= windowMs) windows.delete(client)
        lastSweep = at
      }
      let window = windows.get(key)
      // a flood of distinct clients must not grow memory without bound: the oldest windows go first
      if (!window && windows.size >= maxClients) windows.delete(windows.keys().next().value!)
      if (!window || at - window.start >= windowMs) {
        window = { start: at, count: 0 }
        windows.set(key, window)
      }
      window.count += 1
      return { retryAfterMs: window.count > limit ? window.start + windowMs - at : null }
    },
  }
}

/** Answers 429 with Retry-After in whole seconds (SPEC 7.2) once a client is over its limit. */
export function rateLimit({ limit, windowMs, clientKey, now, counter }: RateLimitParameters): MiddlewareHandler {
  const counted = counter ?? memoryRateCounter({ limit, windowMs, ...(now ? { now } : {}) })
  return async function rateLimited(c, next) {
    const { retryAfterMs } = await counted.consume(clientKey(c))
    if (retryAfterMs !== null) {
      const retryAfter = Math.max(1, Math.ceil(retryAfterMs / 1000))
      throw new HttpError(429, 'RATE_LIMITED', `too many requests: retry after ${retryAfter} s`, {}, { 'Retry-After': String(retryAfter) })
    }
    await next()
  }
}
