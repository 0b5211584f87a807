import { createWalletBridge } from './walletBridge'
import type { FrameMessage, HostMessage } from './protocol'

type WalletMessage = Extract<FrameMessage, { type: 'wallet:list' | 'wallet:request' }>

/** Loaded by the loader only when the pay page asks for wallets: most payers never need it. */
export function startHostBridge(post: (message: HostMessage) => void) {
  const hostOrigin = location.origin
  const bridge = createWalletBridge(
    (providers) => post({ type: 'wallet:providers', providers, hostOrigin }),
    (uuid, event, data) => post({ type: 'wallet:event', uuid, event, data }),
  )
  return {
    handle(message: WalletMessage) {
      if (message.type === 'wallet:list') return post({ type: 'wallet:providers', providers: bridge.list(), hostOrigin })
      const { rid } = message
      bridge.request(message.uuid, message.method, message.params).then(
        (result) => post({ type: 'wallet:response', rid, result }),
        (error: { code?: unknown; message?: unknown }) =>
          post({
            type: 'wallet:response',
            rid,
            error: { code: typeof error?.code === 'number' ? error.code : -32603, message: String(error?.message ?? 'wallet error') },
          }),
      )
    },
    destroy: bridge.destroy,
  }
}

export type HostBridge = ReturnType<typeof startHostBridge>
