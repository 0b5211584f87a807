import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import { devnetChainId } from '../config/devnet'
import type { WalletChoice } from './walletChoice'

// the URL of the devnet wallet's separate build (vite.config.ts, separateBundles)
declare const __SVC_DEVNET_WALLET_URL__: string

/**
 * The ways to pay that the pinned deployment itself names, so known before the wallet stack has loaded:
 * WalletConnect where the build has a project id, and the devnet wallet on the devnet. `tag` is the
 * tag the page formats with, handed to the devnet wallet the page opens.
 */
export function knownChoices(deployment: Pick<PinnedDeployment, 'chainId' | 'walletConnectProjectId'>, baseUrl: string, tag: string): WalletChoice[] {
  const known: WalletChoice[] = []
  if (deployment.walletConnectProjectId) known.push({ id: 'walletconnect', kind: 'walletConnect', name: 'WalletConnect', icon: '' })
  if (deployment.chainId === devnetChainId) {
    known.push({
      id: 'devnet',
      kind: 'devnet',
      name: '',
      icon: '',
      open: async () => {
        const { openDevnetWallet } = (await import(/* @vite-ignore */ __SVC_DEVNET_WALLET_URL__)) as typeof import('./devnetWallet')
        return openDevnetWallet(baseUrl, tag)
      },
    })
  }
  return known
}
