import { connect, createConfig, disconnect, getConnection, switchChain, watchConnection, watchConnectors, type Connector, type CreateConnectorFn } from '@wagmi/core'
import { walletConnect } from '@wagmi/connectors'
import { custom, defineChain, getAddress, type Address } from 'viem'
import { pinnedRpcProvider } from '../chain/rpcProvider'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import type { Eip1193Provider } from '../../shared/eip1193'
import { knownChoices } from './knownChoices'
import { providerConnector } from './providerConnector'
import type { WalletChoice } from './walletChoice'
import { WalletError } from './walletError'

/** Where the payer's wallet is: its account and chain as the wallet reports them now. */
export type WalletConnection = { owner: Address; chainId: number } | null

/**
 * The payer's wallets on @wagmi/core: EIP-6963 discovery (wagmi's multi-injected provider discovery),
 * WalletConnect when the build has a project id (its SDK fetched only once picked), the devnet wallet
 * on the devnet, and whatever providers the page adds (a host page's wallets). wagmi follows the
 * connected wallet's account and chain; the flow is told of every change. `tag` is the page's
 * formatting tag: the devnet wallet, the page's stand-in for a payer's own, writes as the page does.
 */
export function createWagmiWallets(deployment: PinnedDeployment, baseUrl: string, tag = 'en') {
  const chain = defineChain({
    id: deployment.chainId,
    name: deployment.chainName ?? `Chain ${deployment.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: deployment.rpcUrls } },
    ...(deployment.explorerUrl ? { blockExplorers: { default: { name: 'Explorer', url: deployment.explorerUrl } } } : {}),
  })
  const config = createConfig({
    chains: [chain],
    // reads go through the pinned RPCs, never through a URL any other party supplies
    transports: { [chain.id]: custom(pinnedRpcProvider({ urls: deployment.rpcUrls, chainId: deployment.chainId })) },
    connectors: [] as CreateConnectorFn[],
    // a payment is one visit: nothing is remembered for the next page
    storage: null,
  })

  /** The wallets wagmi discovered in the browser, then WalletConnect and the devnet wallet. */
  function ownChoices(): WalletChoice[] {
    const discovered: WalletChoice[] = config.connectors
      .filter((connector) => connector.type === 'injected')
      .map((connector) => ({ id: connector.uid, kind: 'injected', name: connector.name, icon: connector.icon ?? '' }))
    discovered.push(...knownChoices(deployment, baseUrl, tag))
    return discovered
  }

  /** The connector for a choice: wagmi's own where it has one, else one over the choice's provider. */
  async function connectorFor(choice: WalletChoice): Promise<Connector | CreateConnectorFn> {
    if (choice.kind === 'walletConnect') return walletConnect({ projectId: deployment.walletConnectProjectId!, showQrModal: true })
    const discovered = config.connectors.find((connector) => connector.uid === choice.id)
    if (discovered) return discovered
    if (!choice.open) throw new WalletError('WALLET_GONE', `the wallet ${choice.name} is no longer on this page: reload it, or choose another wallet`)
    return providerConnector({ id: choice.id, name: choice.name || choice.id, provider: await choice.open() })
  }

  let connected: { choice: string; connector: Connector } | null = null

  return {
    config,
    /** Calls `onChange` with the wallets to offer now and whenever wagmi discovers another. */
    watchChoices(onChange: (choices: WalletChoice[]) => void): () => void {
      onChange(ownChoices())
      return watchConnectors(config, { onChange: () => onChange(ownChoices()) })
    },
    /** Connects the chosen wallet; the one already connected (after a network switch, or an account
     * change in it) is asked for its account as it is now, not connected twice. */
    async connect(choice: WalletChoice): Promise<Address> {
      const current = getConnection(config)
      if (connected && connected.choice !== choice.id) await disconnect(config, { connector: connected.connector })
      else if (connected && current.status === 'connected' && current.address) return getAddress(current.address)
      const { accounts } = await connect(config, { connector: await connectorFor(choice) })
      const connector = getConnection(config).connector
      connected = connector ? { choice: choice.id, connector } : null
      const [owner] = accounts
      if (!owner) throw new WalletError('WALLET_NO_ACCOUNT', 'the wallet shared no account: unlock it, allow this page an account, and connect again')
      return getAddress(owner)
    },
    /** The connected wallet's provider, for requests made as the wallet itself (signatures, reads). */
    async provider(): Promise<Eip1193Provider> {
      if (!connected) throw new WalletError('WALLET_NOT_CONNECTED', 'no wallet connected: connect a wallet first')
      return (await connected.connector.getProvider()) as Eip1193Provider
    },
    connection(): WalletConnection {
      const { address, chainId, status } = getConnection(config)
      return status === 'connected' && address && chainId !== undefined ? { owner: getAddress(address), chainId } : null
    },
    /** Adds the pinned chain to a wallet that lacks it (4902), from the pinned RPCs. */
    switchToPinnedChain: async () => {
      await switchChain(config, { chainId: deployment.chainId })
    },
    watchConnection(onChange: (connection: WalletConnection) => void): () => void {
      return watchConnection(config, {
        onChange: ({ address, chainId, status }) => onChange(status === 'connected' && address ? { owner: getAddress(address), chainId } : null),
      })
    },
  }
}

export type WagmiWallets = ReturnType<typeof createWagmiWallets>
