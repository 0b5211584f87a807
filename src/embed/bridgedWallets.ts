import type { RpcError, WalletInfo } from '../../embed/protocol'
import type { FrameChannel } from './frameChannel'

export type BridgedProvider = {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>
  on(event: string, listener: (data: unknown) => void): void
  removeListener(event: string, listener: (data: unknown) => void): void
}

export type BridgedWallet = { info: WalletInfo; hostOrigin: string; provider: BridgedProvider }

/**
 * The host page's wallets, offered inside the iframe as EIP-1193 providers whose requests travel
 * to the host over the channel. `onWallets` is called whenever the host's list changes.
 */
export function bridgedWallets(channel: FrameChannel, onWallets: (wallets: BridgedWallet[]) => void): () => void {
  let nextRid = 1
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>()
  const listeners = new Map<string, Set<(data: unknown) => void>>()
  const providers = new Map<string, BridgedProvider>()

  const providerFor = (uuid: string): BridgedProvider => {
    let provider = providers.get(uuid)
    if (!provider) {
      provider = {
        request({ method, params }) {
          const rid = nextRid++
          return new Promise((resolve, reject) => {
            pending.set(rid, { resolve, reject })
            channel.send({ type: 'wallet:request', rid, uuid, method, params: Array.isArray(params) ? params : params ? [params] : [] })
          })
        },
        on(event, listener) {
          const key = `${uuid}:${event}`
          listeners.set(key, (listeners.get(key) ?? new Set()).add(listener))
        },
        removeListener(event, listener) {
          listeners.get(`${uuid}:${event}`)?.delete(listener)
        },
      }
      providers.set(uuid, provider)
    }
    return provider
  }

  const stop = channel.onMessage((message) => {
    if (message.type === 'wallet:providers') {
      onWallets(message.providers.map((info) => ({ info, hostOrigin: message.hostOrigin, provider: providerFor(info.uuid) })))
    } else if (message.type === 'wallet:response') {
      const waiting = pending.get(message.rid)
      if (!waiting) return
      pending.delete(message.rid)
      if (message.error) waiting.reject(Object.assign(new Error(message.error.message), { code: (message.error as RpcError).code }))
      else waiting.resolve(message.result)
    } else if (message.type === 'wallet:event') {
      for (const listener of listeners.get(`${message.uuid}:${message.event}`) ?? []) listener(message.data)
    }
  })
  channel.send({ type: 'wallet:list' })
  return stop
}
