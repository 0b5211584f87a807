import { useEffect, useState } from 'preact/hooks'
import type { PinnedDeployment } from '../config/pinnedDeployment'
import { discoverWallets } from '../wallet/discoverWallets'
import type { WalletChoice } from '../wallet/walletChoice'
import { walletChoices } from '../wallet/walletChoices'

/** The wallets the payer can pick, updated as extensions announce themselves. */
export function useWalletChoices(deployment: PinnedDeployment, baseUrl: string): WalletChoice[] {
  const [choices, setChoices] = useState<WalletChoice[]>(() => walletChoices([], deployment, baseUrl))
  useEffect(() => discoverWallets(window, (found) => setChoices(walletChoices(found, deployment, baseUrl))), [deployment, baseUrl])
  return choices
}
