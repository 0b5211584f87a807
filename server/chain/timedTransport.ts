import type { Transport } from 'viem'

/** Starts timing one call by its JSON-RPC method; the function it returns ends it with the outcome. */
export type CallTimer = (method: string) => (outcome: 'ok' | 'error') => void

/** The transport with every call timed, retries included: how long the server waits on the chain. */
export function timedTransport<T extends Transport>(transport: T, time: CallTimer): T {
  const timed: Transport = (parameters) => {
    const inner = transport(parameters)
    const request = async (args: Parameters<typeof inner.request>[0], options?: Parameters<typeof inner.request>[1]) => {
      const done = time(args.method)
      try {
        const result = await inner.request(args, options)
        done('ok')
        return result
      } catch (error) {
        done('error')
        throw error
      }
    }
    return { ...inner, request: request as typeof inner.request }
  }
  return timed as T
}
