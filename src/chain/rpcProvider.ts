import { hexToNumber, type Hex } from 'viem'
import { hasProviderCode, providerErrors, type Eip1193Provider } from '../../shared/eip1193'

export type PinnedRpcProviderParameters = {
  /** The build's pinned endpoints, tried in order. */
  urls: readonly string[]
  /** An endpoint that reports another chain is never asked again. */
  chainId: number
  fetch?: typeof globalThis.fetch
  timeoutMs?: number
}

type RpcAnswer = { result?: unknown; error?: { code: number; message: string; data?: unknown } }

function rpcError({ code, message, data }: { code: number; message: string; data?: unknown }) {
  return Object.assign(new Error(message), { code, data })
}

/** A revert is the chain's answer, the same from every endpoint; anything else (unreachable, rate
 * limited, an internal error) is the endpoint's problem, and the next one is asked. */
function isChainAnswer(error: unknown): boolean {
  return hasProviderCode(error, providerErrors.executionReverted)
}

/**
 * The widget's own view of the chain: JSON-RPC over fetch to the endpoints pinned in the build, never
 * through the payment service. Each endpoint must first say it serves the pinned chain. No cookies, no
 * Referer (the page's URL carries a share token).
 */
export function pinnedRpcProvider({ urls, chainId, fetch = globalThis.fetch.bind(globalThis), timeoutMs = 10_000 }: PinnedRpcProviderParameters): Eip1193Provider {
  let id = 0
  const onChain = new Map<string, Promise<boolean>>()

  async function post(url: string, method: string, params: readonly unknown[]): Promise<unknown> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
      cache: 'no-store',
    })
    if (!response.ok) throw rpcError({ code: -32603, message: `${new URL(url).host} answered HTTP ${response.status}` })
    const answer = (await response.json()) as RpcAnswer
    if (answer.error) throw rpcError(answer.error)
    return answer.result
  }

  function servesPinnedChain(url: string): Promise<boolean> {
    let check = onChain.get(url)
    if (!check) {
      check = post(url, 'eth_chainId', []).then((answer) => hexToNumber(answer as Hex) === chainId)
      // an endpoint that could not be asked is asked again next time; one on another chain is not
      check.catch(() => onChain.delete(url))
      onChain.set(url, check)
    }
    return check
  }

  return {
    async request({ method, params = [] }) {
      let failure: unknown = rpcError({ code: -32603, message: `no pinned RPC endpoint serves chain ${chainId}` })
      for (const url of urls) {
        try {
          if (!(await servesPinnedChain(url))) continue
          return await post(url, method, params)
        } catch (error) {
          if (isChainAnswer(error)) throw error
          failure = error
        }
      }
      throw failure
    },
  }
}
