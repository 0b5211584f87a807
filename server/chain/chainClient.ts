import { createPublicClient, http, type Chain, type PublicClient } from 'viem'
import { timedTransport, type CallTimer } from './timedTransport'

export function chainFor(chainId: number, rpcUrl: string): Chain {
  return {
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  }
}

export function createChainClient(chainId: number, rpcUrl: string, time: CallTimer): PublicClient {
  return createPublicClient({
    chain: chainFor(chainId, rpcUrl),
    transport: timedTransport(http(rpcUrl, { retryCount: 1, timeout: 10_000 }), time),
    pollingInterval: 100,
  })
}
