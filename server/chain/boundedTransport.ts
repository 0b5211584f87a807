import type { Transport } from 'viem'

/** Per instance and service: enough to keep a bundler or paymaster busy, few enough that its answers
 * come back well inside their timeouts when several instances share it. */
export const upstreamCallsInFlight = 8

/**
 * The transport with at most `limit` calls in flight; the others wait their turn, and a call's
 * timeout starts only once it is sent. A service that slows down as its load grows (a bundler
 * simulating operations, a paymaster signing them) then works through a short queue at its own pace,
 * instead of every caller's timeout running out at once and payers getting a 502 for a service that
 * is merely busy.
 */
export function boundedTransport<T extends Transport>(transport: T, limit: number): T {
  let inFlight = 0
  const waiting: (() => void)[] = []
  const acquire = () =>
    inFlight < limit ? (inFlight++, Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve))
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
