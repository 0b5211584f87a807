import { bridgedMethods, type RpcError, type WalletInfo } from './protocol'
import { signingParams } from './signingPolicy'

type Provider = {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>
  on?(event: string, listener: (data: unknown) => void): void
  removeListener?(event: string, listener: (data: unknown) => void): void
}
type Announced = { info: WalletInfo; provider: Provider }

export type WalletBridge = {
  list(): WalletInfo[]
  request(uuid: string, method: string, params: unknown[]): Promise<unknown>
  destroy(): void
}

const relayedEvents = ['accountsChanged', 'chainChanged', 'disconnect'] as const

/**
 * Many wallet extensions inject only into the top window, so the pay page in an iframe would see
 * none. The host page's wallets, found by EIP-6963, are offered to the frame instead: it names one
 * by uuid and the host relays the few methods a payment needs to it, nothing else, and signs only
 * what a payment signs (signingPolicy.ts).
 */
export function createWalletBridge(
  onChange: (wallets: WalletInfo[]) => void,
  onEvent: (uuid: string, event: (typeof relayedEvents)[number], data: unknown) => void,
): WalletBridge {
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
      return provider.request({ method, params: await signingParams(method, params, () => provider.request({ method: 'eth_chainId' })) })
    },
    destroy() {
      window.removeEventListener('eip6963:announceProvider', onAnnounce)
      for (const stop of unsubscribe.splice(0)) stop()
      wallets.clear()
    },
  }
}
