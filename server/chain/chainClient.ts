import { createPublicClient, http, type Chain, type PublicClient } from 'viem'

export function chainFor(chainId: number, rpcUrl: string): Chain {
  return {
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  }
}

export function createChainClient(chainId: number, rpcUrl: string): PublicClient {
  return createPublicClient({
    chain: chainFor(chainId, rpcUrl),
    transport: http(rpcUrl, { retryCount: 1, timeout: 10_000 }),
    pollingInterval: 100,
  })
}
