type Listener = (data: unknown) => void

/** The one interface every wallet here is reached through (EIP-1193), on the page, in the frame and
 * on the host page: injected, WalletConnect, the devnet wallet, a host page's wallet through the
 * bridge. Events are optional: the devnet wallet emits none. */
export type Eip1193Provider = {
  request(args: { method: string; params?: readonly unknown[] }): Promise<unknown>
  on?(event: string, listener: Listener): void
  removeListener?(event: string, listener: Listener): void
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
