import { numberToHex } from 'viem'
import type { PinnedDeployment } from '../config/pinnedDeployment'
import { hasProviderCode, providerErrors, type Eip1193Provider } from './eip1193'

/** Asks the wallet to move to the pinned chain; a wallet that has never heard of it (4902) is offered
 * it with the pinned RPCs. The flow reads the chain id again afterwards. */
export async function switchChain(provider: Eip1193Provider, deployment: PinnedDeployment): Promise<void> {
  const chainId = numberToHex(deployment.chainId)
  try {
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId }] })
  } catch (error) {
    if (!hasProviderCode(error, providerErrors.unrecognizedChain)) throw error
    await provider.request({
      method: 'wallet_addEthereumChain',
      params: [
        {
          chainId,
          chainName: deployment.chainName ?? `Chain ${deployment.chainId}`,
          nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
          rpcUrls: deployment.rpcUrls,
          ...(deployment.explorerUrl ? { blockExplorerUrls: [deployment.explorerUrl] } : {}),
        },
      ],
    })
  }
}
