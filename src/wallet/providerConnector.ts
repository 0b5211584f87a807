import { createConnector, type CreateConnectorFn } from '@wagmi/core'
import { getAddress, hexToNumber, numberToHex, type Address, type Hex } from 'viem'
import { hasProviderCode, providerErrors, type Eip1193Provider } from '../../shared/eip1193'
import { WalletError } from './walletError'

/**
 * A wagmi connector over a provider the page already holds: the devnet wallet, a host page's wallet
 * reached through the bridge. Unlike `injected`, it needs no `window` (the flow's Node tests connect
 * through it too), asks for nothing but `eth_requestAccounts`, and follows the provider's events where
 * it emits any.
 */
export function providerConnector({ id, name, provider }: { id: string; name: string; provider: Eip1193Provider }): CreateConnectorFn {
  const accountsOf = async (method: 'eth_accounts' | 'eth_requestAccounts') => ((await provider.request({ method })) as string[]).map((account) => getAddress(account))
  const chainIdOf = async () => hexToNumber((await provider.request({ method: 'eth_chainId' })) as Hex)
  return createConnector((config) => {
    const onAccountsChanged = (accounts: unknown) => {
      const list = Array.isArray(accounts) ? accounts.filter((account): account is string => typeof account === 'string') : []
      if (list.length === 0) config.emitter.emit('disconnect')
      else config.emitter.emit('change', { accounts: list.map((account) => getAddress(account)) })
    }
    const onChainChanged = (chainId: unknown) => config.emitter.emit('change', { chainId: Number(chainId) })
    const listen = (on: boolean) => {
      const method = on ? provider.on : provider.removeListener
      method?.call(provider, 'accountsChanged', onAccountsChanged)
      method?.call(provider, 'chainChanged', onChainChanged)
    }
    return {
      id,
      name,
      type: 'provider',
      async connect<withCapabilities extends boolean = false>() {
        const accounts = await accountsOf('eth_requestAccounts')
        listen(true)
        return { accounts: accounts as never as withCapabilities extends true ? never : readonly Address[], chainId: await chainIdOf() }
      },
      async disconnect() {
        listen(false)
      },
      getAccounts: () => accountsOf('eth_accounts'),
      getChainId: chainIdOf,
      async getProvider() {
        return provider
      },
      async isAuthorized() {
        return (await accountsOf('eth_accounts').catch(() => [])).length > 0
      },
      async switchChain({ chainId }) {
        const chain = config.chains.find((candidate) => candidate.id === chainId)
        if (!chain) throw new WalletError('CHAIN_NOT_PINNED', `chain ${chainId} is not the chain this checkout is pinned to: switch the wallet to that chain`)
        try {
          await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: numberToHex(chainId) }] })
        } catch (error) {
          // a wallet that has never heard of the chain is offered it, with the pinned RPCs
          if (!hasProviderCode(error, providerErrors.unrecognizedChain)) throw error
          const { name: chainName, nativeCurrency, rpcUrls, blockExplorers } = chain
          await provider.request({
            method: 'wallet_addEthereumChain',
            params: [{ chainId: numberToHex(chainId), chainName, nativeCurrency, rpcUrls: rpcUrls.default.http, ...(blockExplorers ? { blockExplorerUrls: [blockExplorers.default.url] } : {}) }],
          })
        }
        return chain
      },
      onAccountsChanged,
      onChainChanged,
      onDisconnect: () => config.emitter.emit('disconnect'),
    }
  })
}
