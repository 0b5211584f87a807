import { numberToHex, type Address } from 'viem'
import type { Eip1193Provider } from '../../shared/eip1193'

/** What the payer's wallet says it can do for one account on one chain (EIP-5792), reduced to what a
 * one-prompt payment needs. `atomic`: `supported`, or `ready` for an account that upgrades itself
 * (EIP-7702) on its first batch; null when the wallet cannot run the calls atomically. */
export type WalletCapabilities = { atomic: 'supported' | 'ready' | null; paymasterService: boolean }

export const noCapabilities: WalletCapabilities = { atomic: null, paymasterService: false }

type ChainCapabilities = { atomic?: { status?: unknown }; paymasterService?: { supported?: unknown } }

/**
 * `wallet_getCapabilities` for `account` and the pinned chain. The answer is keyed by chain id in hex;
 * `0x0` holds what applies to every chain, which a chain's own entry overrides. A wallet that does not
 * know the method (an EOA extension, the devnet wallet) has none of them: the vault flow is its way.
 */
export async function readWalletCapabilities(provider: Eip1193Provider, account: Address, chainId: number): Promise<WalletCapabilities> {
  let answer: unknown
  try {
    answer = await provider.request({ method: 'wallet_getCapabilities', params: [account, [numberToHex(chainId)]] })
  } catch {
    return noCapabilities
  }
  if (typeof answer !== 'object' || answer === null) return noCapabilities
  const byChain = answer as Record<string, ChainCapabilities | undefined>
  // keys are hex without leading zeros (EIP-5792)
  const merged: ChainCapabilities = { ...byChain['0x0'], ...byChain[numberToHex(chainId)] }
  const status = merged.atomic?.status
  return {
    atomic: status === 'supported' || status === 'ready' ? status : null,
    paymasterService: merged.paymasterService?.supported === true,
  }
}

/** Whether the wallet can pay this invoice in one prompt with the checkout's paymaster service. */
export function paysInOnePrompt(capabilities: WalletCapabilities): boolean {
  return capabilities.atomic !== null && capabilities.paymasterService
}
