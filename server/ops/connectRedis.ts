import { Redis } from 'ioredis'

/**
 * A Redis client that never holds a request back: while disconnected, commands fail at once (no
 * offline queue) and callers fall back, while the client keeps reconnecting in the background.
 */
export function connectRedis(url: string): Redis {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000 })
  // an outage is logged once by whoever falls back; without a listener ioredis prints every reconnect
  redis.on('error', () => {})
  return redis
}
