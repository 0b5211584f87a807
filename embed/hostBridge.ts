import type { PinnedDeployment } from '../shared/pinnedDeployment'
import { announceModule } from '../shared/pinnedModule'
import { readWalletRequest, type FrameMessage, type HostMessage } from '../shared/embedProtocol'
import { createWalletBridge } from './walletBridge'

// the pay page's pinned deployment (embed/build.ts defines it from the page's build)
declare const __SVC_DEPLOYMENT__: PinnedDeployment

type WalletMessage = Extract<FrameMessage, { type: 'wallet:list' | 'wallet:request' }>

/** Loaded by the loader only when the pay page asks for wallets: most payers never need it.
 * `invoiceId` is the host's own mount option: the only invoice its wallets sign for. */
export function startHostBridge(post: (message: HostMessage) => void, { invoiceId }: { invoiceId: string }) {
  const hostOrigin = location.origin
  const bridge = createWalletBridge({
    deployment: __SVC_DEPLOYMENT__,
    invoiceId,
    // this module is served by the checkout (a pinned module script): its origin is the checkout's
    paymasterServiceUrl: new URL('/v1/paymaster', import.meta.url).href,
    onChange: (providers) => post({ type: 'wallet:providers', providers, hostOrigin }),
    onEvent: (uuid, event, data) => post({ type: 'wallet:event', uuid, event, data }),
  })
  return {
    handle(message: WalletMessage) {
      if (message.type === 'wallet:list') return post({ type: 'wallet:providers', providers: bridge.list(), hostOrigin })
      const request = readWalletRequest(message)
      if (!request) return
      const { rid } = request
      bridge.request(request.uuid, request.method, request.params).then(
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
export type HostBridgeModule = { startHostBridge: typeof startHostBridge }

announceModule('__svcBridge', { startHostBridge } satisfies HostBridgeModule)
