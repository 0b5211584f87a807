import type { InlineWidgetModule } from '../src/inline/mountInline'
import type { HostBridgeModule } from './hostBridge'
import { announceModule, loadPinnedModule } from '../shared/pinnedModule'

// fixed by embed/build.ts: the files this kit loads and their SRI hashes
declare const __BRIDGE_FILE__: string
declare const __BRIDGE_INTEGRITY__: string
declare const __INLINE_FILE__: string
declare const __INLINE_INTEGRITY__: string

/**
 * What the loader loads on demand, behind one integrity hash: the wallet bridge and the inline
 * widget, each pinned by a hash fixed here. The loader pins this file, this file pins them, so a
 * loader pinned with SRI pins everything it runs, and carries one file name and hash, not two.
 * `base` is the checkout's origin, as the loader saw it.
 */
export type HostKit = {
  bridge(base: string): Promise<HostBridgeModule>
  inline(base: string): Promise<InlineWidgetModule>
}

announceModule('__svcKit', {
  bridge: (base) => loadPinnedModule(`${base}embed/${__BRIDGE_FILE__}`, __BRIDGE_INTEGRITY__, '__svcBridge'),
  inline: (base) => loadPinnedModule(`${base}${__INLINE_FILE__}`, __INLINE_INTEGRITY__, '__svcInline'),
} satisfies HostKit)
