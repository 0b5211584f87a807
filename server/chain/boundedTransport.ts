import type { Transport } from 'viem'
import { CodedError, hasCode, walkCauses } from '../../shared/codedError'

/** Per instance and service: enough to keep a bundler or paymaster busy, few enough that its answers
 * come back well inside their timeouts when several instances share it. */
export const upstreamCallsInFlight = 8

/** Calls that may wait for a slot, per instance and service, unless configured (UPSTREAM_QUEUE_LIMIT). */
export const upstreamQueueLimit = 64

/** How long a refused caller is told to wait: about what the queue takes to move on at 8 calls at a
 * time of a second or two each. */
export const upstreamBusyRetryAfterSeconds = 5

/** The queue in front of a service is full: nothing was sent, so the same request may simply be made
 * again after `details.retryAfterSeconds`. */
export class UpstreamBusyError extends CodedError<{ retryAfterSeconds: number }> {
  override name = 'UpstreamBusyError'
  readonly code = 'UPSTREAM_BUSY'
}

/** The refusal inside `error` (viem wraps what a transport throws), if the full queue was its cause:
 * never sent, so it is answered as such (503 with Retry-After) and not as the service's failure. */
export const upstreamBusy = (error: unknown): UpstreamBusyError | undefined =>
  walkCauses(error, (cause): cause is UpstreamBusyError => hasCode(cause, 'UPSTREAM_BUSY'))

/** The refusal of a call that found `waiting` calls queued for `service` already. */
export function upstreamBusyError(service: string, waiting: number): UpstreamBusyError {
  return new UpstreamBusyError(`${service} has ${waiting} calls waiting already: nothing was sent; try again in ${upstreamBusyRetryAfterSeconds} s`, {
    details: { retryAfterSeconds: upstreamBusyRetryAfterSeconds },
  })
}

export type BoundedTransportParameters = {
  /** Calls in flight at most. */
  limit: number
  /** Calls waiting for a slot at most; the next is refused with UpstreamBusyError. */
  queueLimit?: number
  /** Names the service in the refusal. */
  service?: string
}

/**
 * The transport with at most `limit` calls in flight; the others wait their turn, and a call's
 * timeout starts only once it is sent. A service that slows down as its load grows (a bundler
 * simulating operations, a paymaster signing them) then works through a short queue at its own pace,
 * instead of every caller's timeout running out at once and payers getting a 502 for a service that
 * is merely busy. The queue itself is bounded: past `queueLimit` waiting, a call is refused at once
 * rather than held (and its request's memory with it) for as long as a flood lasts.
 */
export function boundedTransport<T extends Transport>(transport: T, bounds: number | BoundedTransportParameters): T {
  const { limit, queueLimit = Number.POSITIVE_INFINITY, service = 'the upstream service' } = typeof bounds === 'number' ? { limit: bounds } : bounds
  let inFlight = 0
  const waiting: (() => void)[] = []
  const acquire = () => {
    if (inFlight < limit) {
      inFlight++
      return Promise.resolve()
    }
    if (waiting.length >= queueLimit) return Promise.reject(upstreamBusyError(service, waiting.length))
    return new Promise<void>((resolve) => waiting.push(resolve))
  }
  const release = () => {
    const next = waiting.shift()
    // the slot passes straight to the next in line
    if (next) next()
    else inFlight--
  }
  const bounded: Transport = (parameters) => {
    const inner = transport(parameters)
    const request = async (args: Parameters<typeof inner.request>[0], options?: Parameters<typeof inner.request>[1]) => {
      await acquire()
      try {
        return await inner.request(args, options)
      } finally {
        release()
      }
    }
    return { ...inner, request: request as typeof inner.request }
  }
  return bounded as T
}
