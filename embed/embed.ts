import { mountError, mountFrame, mountInline, type Checkout, type MountOptions } from './mount'

declare const __EMBED_VERSION__: string
declare const __BRIDGE_FILE__: string
// the inline widget's bundle, as the page's build named it: `assets/inline-<hash>.js`
declare const __INLINE_FILE__: string

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
  const api: SvcCheckout = window.SvcCheckout ?? {
    version: __EMBED_VERSION__,
    mount(element, options) {
      if (!(element instanceof HTMLElement)) throw mountError('SvcCheckout.mount(element, options): pass a DOM element of this page')
      if (!/^\d+$/.test(String(options?.invoiceId))) throw mountError('SvcCheckout.mount needs { invoiceId }: the numeric id of the invoice to pay')
      return options.mode === 'inline'
        ? mountInline(element, options, base, () => import(/* @vite-ignore */ `${base}${__INLINE_FILE__}`))
        : mountFrame(element, options, base, () => import(/* @vite-ignore */ `${base}embed/${__BRIDGE_FILE__}`))
    },
  }
  window.SvcCheckout = api
  const invoiceId = script?.dataset.invoiceId
  if (!invoiceId) return
  const host = document.createElement('div')
  script!.after(host)
  const { token, locale } = script!.dataset
  api.mount(host, { invoiceId, ...(token && { token }), ...(locale && { locale }) })
}

if (typeof window == 'object' && typeof document == 'object') install(document.currentScript as HTMLScriptElement | null)
