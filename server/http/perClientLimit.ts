import type { Context, MiddlewareHandler } from 'hono'
import { memoryRateCounter, rateLimit, type RateCounter } from './rateLimit'

/** The figures the operator configures: RATE_LIMIT_PER_MINUTE and the per-route ones on top of it. */
export type RateLimitSettings = {
  perMinute: number
  permitPerMinute?: number | undefined
  preparePerMinute?: number | undefined
  paymasterPerMinute?: number | undefined
}

/**
 * A per-client limit, by name, and its figure per minute under the operator's settings. Every route
 * that names a limit counts in the one count of that name: `pay` guards /v1/pay/* and /v1/paymaster
 * both, and a client has that one limit across them, in memory as in Redis.
 */
export type PerClientLimit = { name: string; perMinute: (settings: RateLimitSettings) => number }

export function perClientLimit(name: string, perMinute: (settings: RateLimitSettings) => number): PerClientLimit {
  return { name, perMinute }
}

/** A part of the general limit, never below one a minute: the default of a costlier route's own limit. */
export const partOf = (settings: RateLimitSettings, part: number) => Math.max(1, Math.floor(settings.perMinute / part))

export type PerClientLimitsParameters = {
  settings: RateLimitSettings
  clientKey: (c: Context) => string
  /** Where a limit is counted when every instance shares the count; absent, in this instance's memory. */
  sharedRateCounter?: ((name: string, window: { limit: number; windowMs: number }) => RateCounter) | undefined
}

/** Turns a declared limit into its middleware, one count per name however often it is mounted. */
export function perClientLimits({ settings, clientKey, sharedRateCounter }: PerClientLimitsParameters) {
  const counters = new Map<string, { limit: number; counter: RateCounter }>()
  return function limited(declared: PerClientLimit): MiddlewareHandler {
    const limit = declared.perMinute(settings)
    const window = { limit, windowMs: 60_000 }
    let counted = counters.get(declared.name)
    if (!counted) {
      counted = { limit, counter: sharedRateCounter?.(declared.name, window) ?? memoryRateCounter(window) }
      counters.set(declared.name, counted)
    }
    if (counted.limit !== limit) throw new Error(`the rate limit ${declared.name} is declared with two limits, ${counted.limit} and ${limit}`)
    return rateLimit({ ...window, clientKey, counter: counted.counter })
  }
}
