import type { PinnedDeployment } from '../config/pinnedDeployment'
import type { Eip1193Provider } from './eip1193'

// the URL of WalletConnect's separate build (vite.config.ts, separateBundles), or its source in development
declare const __SVC_WALLETCONNECT_URL__: string

/** WalletConnect is hundreds of kilobytes: it is fetched only once the payer picks it, never with the page. */
export async function openWalletConnect(deployment: PinnedDeployment, projectId: string): Promise<Eip1193Provider> {
  const { EthereumProvider } = (await import(/* @vite-ignore */ __SVC_WALLETCONNECT_URL__)) as typeof import('./walletConnectEntry')
  const provider = await EthereumProvider.init({
    projectId,
    chains: [deployment.chainId],
    showQrModal: true,
    rpcMap: { [deployment.chainId]: deployment.rpcUrls[0]! },
    metadata: { name: 'svc-checkout', description: 'Pay an invoice', url: location.origin, icons: [] },
  })
  await provider.enable()
  return provider
}
