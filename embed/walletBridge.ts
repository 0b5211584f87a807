import { numberToHex } from 'viem'
import type { Eip1193Provider } from '../shared/eip1193'
import type { PinnedDeployment } from '../shared/pinnedDeployment'
import { createHostSigning } from './hostSigning'
import { createHostCalls } from './hostCalls'
import { bridgedMethods, bridgedSignUserOperation, type RpcError, type WalletInfo } from '../shared/embedProtocol'

type Announced = { info: WalletInfo; provider: Eip1193Provider }

export type WalletBridge = {
  list(): WalletInfo[]
  request(uuid: string, method: string, params: unknown[]): Promise<unknown>
  destroy(): void
}

const relayedEvents = ['accountsChanged', 'chainChanged', 'disconnect'] as const

export type CreateWalletBridgeParameters = {
  deployment: PinnedDeployment
  /** The invoice the host mounted: the only one its wallets sign for. */
  invoiceId: string
  /** The checkout's paymaster service, its origin's /v1/paymaster: the only one a batch is sponsored by. */
  paymasterServiceUrl: string
  onChange(wallets: WalletInfo[]): void
  onEvent(uuid: string, event: (typeof relayedEvents)[number], data: unknown): void
  now?: () => number
}

/**
 * Many wallet extensions inject only into the top window, so the pay page in an iframe would see
 * none. The host page's wallets, found by EIP-6963, are offered to the frame instead: it names one
 * by uuid and the host relays the few methods a payment needs to it, nothing else, and signs only
 * this payment, after verifying it itself (hostSigning.ts).
 */
export function createWalletBridge({ deployment, invoiceId, paymasterServiceUrl, onChange, onEvent, now }: CreateWalletBridgeParameters): WalletBridge {
  const signing = createHostSigning({ deployment, invoiceId, ...(now ? { now } : {}) })
  const calls = createHostCalls({ deployment, invoiceId, paymasterServiceUrl })
  const wallets = new Map<string, Announced>()
  const unsubscribe: (() => void)[] = []

  const onAnnounce = (event: Event) => {
    const detail = (event as CustomEvent<Announced>).detail
    if (!detail?.info?.uuid || typeof detail.provider?.request !== 'function' || wallets.has(detail.info.uuid)) return
    const { uuid, name, icon, rdns } = detail.info
    wallets.set(uuid, { info: { uuid, name: String(name), icon: String(icon), rdns: String(rdns) }, provider: detail.provider })
    for (const name of relayedEvents) {
      const listener = (data: unknown) => onEvent(uuid, name, data)
      detail.provider.on?.(name, listener)
      unsubscribe.push(() => detail.provider.removeListener?.(name, listener))
    }
    onChange(list())
  }
  const list = () => [...wallets.values()].map((wallet) => wallet.info)
  window.addEventListener('eip6963:announceProvider', onAnnounce)
  window.dispatchEvent(new Event('eip6963:requestProvider'))

  return {
    list,
    async request(uuid, method, params) {
      const wallet = wallets.get(uuid)
      if (!wallet) throw { code: 4100, message: 'unknown wallet' } satisfies RpcError
      if (!(bridgedMethods as readonly string[]).includes(method)) throw { code: 4200, message: `${method} is not relayed` } satisfies RpcError
      const { provider } = wallet
      if (method === 'eth_signTypedData_v4') return signing.signPermit(provider, params)
      if (method === bridgedSignUserOperation) return signing.signUserOperation(provider, params)
      if (method === 'wallet_sendCalls') return calls.sendCalls(provider, params)
      if (method === 'wallet_getCallsStatus') return calls.callsStatus(provider, params)
      if (method === 'wallet_switchEthereumChain' && (params[0] as { chainId?: unknown } | undefined)?.chainId !== numberToHex(deployment.chainId)) {
        throw { code: 4100, message: 'the wallet is only asked to switch to the checkout\'s chain' } satisfies RpcError
      }
      return provider.request({ method, params })
    },
    destroy() {
      window.removeEventListener('eip6963:announceProvider', onAnnounce)
      for (const stop of unsubscribe.splice(0)) stop()
      wallets.clear()
    },
  }
}
