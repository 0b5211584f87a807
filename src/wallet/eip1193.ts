/** The one interface every wallet here is reached through (EIP-1193): injected, WalletConnect or the devnet wallet. */
export type Eip1193Provider = {
  request(args: { method: string; params?: readonly unknown[] }): Promise<unknown>
}

/** EIP-1193 (and, for a reverted eth_call, EIP-1474) error codes the page acts on. */
export const providerErrors = { userRejected: 4001, unrecognizedChain: 4902, executionReverted: 3 } as const

/** Some wallets put the provider's code under data.originalError (MetaMask mobile) or in a cause. */
export function hasProviderCode(error: unknown, code: number): boolean {
  for (let depth = 0; depth < 6 && typeof error === 'object' && error !== null; depth++) {
    const { code: found, data, cause } = error as { code?: unknown; data?: { originalError?: unknown }; cause?: unknown }
    if (found === code) return true
    error = data?.originalError ?? cause
  }
  return false
}
