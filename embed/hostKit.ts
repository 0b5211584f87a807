import type { InlineWidgetModule } from '../src/inline/mountInline'
import type { CheckoutEvents } from '../shared/embedProtocol'
import type { HostBridge, HostBridgeModule } from './hostBridge'
import type { HostPaidModule } from './hostPaid'
import { announceModule, loadPinnedModule } from '../shared/pinnedModule'

// fixed by embed/build.ts: the files this kit loads and their SRI hashes
declare const __BRIDGE_FILE__: string
declare const __BRIDGE_INTEGRITY__: string
declare const __INLINE_FILE__: string
declare const __INLINE_INTEGRITY__: string
declare const __PAID_FILE__: string
declare const __PAID_INTEGRITY__: string

/**
 * What the loader loads on demand, behind one integrity hash: the wallet bridge, the inline widget
 * and the check of a frame's `paid`, each pinned by a hash fixed here. The loader pins this file, this
 * file pins them, so a loader pinned with SRI pins everything it runs, and carries one file name and
 * hash, not three.
 */
export type HostKit = {
  /** Starts the wallet bridge for the mounted invoice (embed/hostBridge.ts). */
  bridge(...parameters: Parameters<HostBridgeModule['startHostBridge']>): Promise<HostBridge>
  inline(): Promise<InlineWidgetModule>
  /** Passes the frame's `paid` to `emit` once the pinned chain shows it (embed/hostPaid.ts). */
  paid(claimed: CheckoutEvents['paid'], emit: (type: 'paid', detail: CheckoutEvents['paid']) => void): Promise<void>
}

// the checkout's origin: the loader loaded this kit from it
const base = new URL('/', import.meta.url).href

announceModule('__svcKit', {
  bridge: (post, mounted) => loadPinnedModule<HostBridgeModule>(`${base}embed/${__BRIDGE_FILE__}`, __BRIDGE_INTEGRITY__, '__svcBridge').then((module) => module.startHostBridge(post, mounted)),
  inline: () => loadPinnedModule(`${base}${__INLINE_FILE__}`, __INLINE_INTEGRITY__, '__svcInline'),
  paid: (claimed, emit) => loadPinnedModule<HostPaidModule>(`${base}embed/${__PAID_FILE__}`, __PAID_INTEGRITY__, '__svcPaid').then((module) => module.hostPaid(claimed, emit)),
} satisfies HostKit)
