import { useEffect, useState } from 'preact/hooks'
import type { PinnedDeployment } from '../config/pinnedDeployment'
import { bridgedWallets, type BridgedWallet } from '../embed/bridgedWallets'
import type { FrameChannel } from '../embed/frameChannel'
import { discoverWallets, type DiscoveredWallet } from '../wallet/discoverWallets'
import type { WalletChoice } from '../wallet/walletChoice'
import { walletChoices } from '../wallet/walletChoices'

/** The host page's wallets, named with the host's origin so the payer knows where they live. */
function bridgedChoices(wallets: BridgedWallet[]): WalletChoice[] {
  return wallets.map(({ info, hostOrigin, provider }) => ({
    id: `bridged:${info.uuid}`,
    kind: 'bridged',
    name: `${info.name} · via ${new URL(hostOrigin).host}`,
    icon: info.icon,
    open: async () => provider,
  }))
}

/** The wallets the payer can pick, updated as extensions announce themselves; when embedded, the
 * host page's wallets too (many extensions do not inject into iframes). */
export function useWalletChoices(deployment: PinnedDeployment, baseUrl: string, channel: FrameChannel | null = null): WalletChoice[] {
  const [found, setFound] = useState<DiscoveredWallet[]>([])
  const [bridged, setBridged] = useState<BridgedWallet[]>([])
  useEffect(() => discoverWallets(window, setFound), [])
  useEffect(() => (channel ? bridgedWallets(channel, setBridged) : undefined), [channel])
  return [...bridgedChoices(bridged), ...walletChoices(found, deployment, baseUrl)]
}
