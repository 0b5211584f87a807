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

/** Clients one in-memory count keeps a window for at most: a bound on its memory. */
export const memoryRateCounterCapacity = 100_000

export type MemoryRateCounterParameters = { limit: number; windowMs: number; now?: () => number; capacity?: number }

/**
 * Per-client fixed windows, in memory: each instance limits on its own, which bounds abuse without a
 * shared store on the hot path.
 *
 * At `capacity` live windows a new client is refused (until the oldest window ends) rather than
 * making room: forgetting a live window would hand its client a fresh limit, and a client with many
 * addresses (an IPv6 /47 holds 131,072 /64s) could so reset its own or anyone's at will.
 */
export function memoryRateCounter({ limit, windowMs, now = Date.now, capacity = memoryRateCounterCapacity }: MemoryRateCounterParameters): RateCounter {
  // in the order the windows started, so the ones that ended are always first: each consume drops
  // them from the front, a few at a time, instead of sweeping the whole table
  const windows = new Map<string, { start: number; count: number }>()
  return {
    async consume(key) {
      const at = now()
      for (const [client, window] of windows) {
        if (at - window.start < windowMs) break
        windows.delete(client)
      }
      let window = windows.get(key)
      // ended but kept behind a later one (the clock stepped back): a new window, at the end
      if (window && at - window.start >= windowMs) {
        windows.delete(key)
        window = undefined
      }
      if (!window) {
        const oldest = windows.values().next().value
        if (oldest && windows.size >= capacity) return { retryAfterMs: Math.max(1, oldest.start + windowMs - at) }
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
