import type { Redis } from 'ioredis'
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible'
import type { Logger } from './logger'
import type { RateCounter } from './rateLimit'

/**
 * Counts in Redis, so every instance behind the load balancer counts the same window for a client.
 *
 * When Redis cannot be reached the count falls back to this instance's memory (`fallback`), logged
 * and counted: the API keeps answering, and a client stays limited per instance as it was before
 * Redis, rather than not at all exactly when something is already wrong.
 */
export function sharedRateCounter({
  redis,
  limit,
  windowMs,
  prefix,
  fallback,
  logger,
  onStoreError,
}: {
  redis: Redis
  limit: number
  windowMs: number
  /** Keeps the counts of different limits (or deployments on one Redis) apart. */
  prefix: string
  fallback: RateCounter
  logger: Logger
  onStoreError: () => void
}): RateCounter {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    points: limit,
    duration: Math.ceil(windowMs / 1000),
    keyPrefix: prefix,
    // a disconnected client fails at once instead of queueing the request behind its reconnects
    rejectIfRedisNotReady: true,
  })
  let warned = false
  return {
    async consume(key) {
      try {
        await limiter.consume(key)
        warned = false
        return { retryAfterMs: null }
      } catch (outcome) {
        if (outcome instanceof RateLimiterRes) return { retryAfterMs: outcome.msBeforeNext }
        onStoreError()
        // once per outage, not once per request
        if (!warned) logger.warn({ error: outcome instanceof Error ? outcome.message : 'unknown' }, 'rate limits: Redis unreachable, counting in memory')
        warned = true
        return fallback.consume(key)
      }
    },
  }
}
