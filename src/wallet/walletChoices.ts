import { devnetChainId } from '../config/devnet'
import type { PinnedDeployment } from '../config/pinnedDeployment'
import type { DiscoveredWallet } from './discoverWallets'
import type { WalletChoice } from './walletChoice'
import { openWalletConnect } from './walletConnect'

// the URL of the devnet wallet's separate build (vite.config.ts, separateBundles)
declare const __SVC_DEVNET_WALLET_URL__: string

/** What the payer can pick: the browser's wallets, WalletConnect when the build has a project id, and
 * on the devnet the built-in devnet wallet. */
export function walletChoices(discovered: DiscoveredWallet[], deployment: PinnedDeployment, baseUrl: string): WalletChoice[] {
  const choices: WalletChoice[] = discovered.map(({ info, provider }) => ({
    id: info.uuid,
    kind: 'injected',
    name: info.name,
    icon: info.icon,
    open: async () => provider,
  }))
  const { walletConnectProjectId } = deployment
  if (walletConnectProjectId) {
    choices.push({ id: 'walletconnect', kind: 'walletConnect', name: 'WalletConnect', icon: '', open: () => openWalletConnect(deployment, walletConnectProjectId) })
  }
  if (deployment.chainId === devnetChainId) {
    choices.push({
      id: 'devnet',
      kind: 'devnet',
      name: '',
      icon: '',
      open: async () => {
        const { openDevnetWallet } = (await import(/* @vite-ignore */ __SVC_DEVNET_WALLET_URL__)) as typeof import('./devnetWallet')
        return openDevnetWallet(baseUrl)
      },
    })
  }
  return choices
}
