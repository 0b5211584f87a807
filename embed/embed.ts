import type { HostKit } from './hostKit'
import { mountFrame, mountInline, type Checkout, type MountOptions } from './mount'
import { loadPinnedModule } from '../shared/pinnedModule'

declare const __EMBED_VERSION__: string
// the kit that loads the bridge and the inline widget, and its hash, fixed when the loader is built:
// nothing runs under this loader that the hash does not pin
declare const __KIT_FILE__: string
declare const __KIT_INTEGRITY__: string

export type SvcCheckout = { version: string; mount(element: HTMLElement, options: MountOptions): Checkout }

declare global {
  interface Window {
    SvcCheckout?: SvcCheckout
  }
}

/**
 * The script-tag loader. Including it twice reuses the first copy; each tag that carries
 * data-invoice-id mounts the pay page in its place. Where there is no window it does nothing.
 */
function install(script: HTMLScriptElement | null): void {
  const base = new URL('/', script?.src || location.href).href
  const kit = () => loadPinnedModule<HostKit>(`${base}embed/${__KIT_FILE__}`, __KIT_INTEGRITY__, '__svcKit')
  const api: SvcCheckout = window.SvcCheckout ?? {
    version: __EMBED_VERSION__,
    mount(element, options) {
      // a wrong argument is a TypeError, as the platform's own APIs throw; the message says what to
      // pass (one message for both: the loader's budget)
      if (!(element instanceof HTMLElement) || !/^\d+$/.test(String(options?.invoiceId))) throw new TypeError('SvcCheckout.mount: pass a DOM element and a numeric { invoiceId }')
      return (options.mode === 'inline' ? mountInline : mountFrame)(element, options, base, kit)
    },
  }
  window.SvcCheckout = api
  if (!script?.dataset.invoiceId) return
  const host = document.createElement('div')
  script.after(host)
  // data-invoice-id, data-token, data-locale, data-mode, data-layout: the mount options, spelled as attributes
  api.mount(host, { ...script.dataset } as unknown as MountOptions)
}

if (typeof window == 'object') install(document.currentScript as HTMLScriptElement | null)
