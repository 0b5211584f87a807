import type { HostBridge } from './hostBridge'
import { readFrameMessage, protocolVersion, type CheckoutEventName, type CheckoutEvents, type HostMessage } from './protocol'

export type MountOptions = {
  invoiceId: string
  token?: string
  locale?: string
  /** CSS custom properties for the pay page, e.g. `{ '--svc-accent': '#0a7' }`. */
  theme?: Record<string, string>
  mode?: 'iframe' | 'inline'
}

export type Checkout = {
  on<K extends CheckoutEventName>(event: K, listener: (detail: CheckoutEvents[K]) => void): () => void
  destroy(): void
}

/** Errors say what to do next; their name lets a host tell them apart. */
export function mountError(message: string): Error {
  const error = new Error(message)
  error.name = 'SvcCheckoutError'
  return error
}

let instances = 0

/** The pay page's URL for this mount; the token stays in the query, as in a share link. */
export function frameUrl(base: string, id: string, options: MountOptions): string {
  const url = new URL(`pay/${options.invoiceId}`, base)
  const query = url.searchParams
  if (options.token) query.set('token', options.token)
  query.set('embed', '1')
  query.set('instance', id)
  query.set('parent', location.origin)
  if (options.locale) query.set('locale', options.locale)
  if (options.theme) query.set('theme', JSON.stringify(options.theme))
  return url.href
}

/**
 * Mounts the pay page in an iframe inside `element`. `base` is where the loader came from;
 * `loadBridge` fetches the wallet bridge the first time the page asks for the host's wallets.
 */
export function mountFrame(element: HTMLElement, options: MountOptions, base: string, loadBridge: () => Promise<{ startHostBridge(post: (m: HostMessage) => void): HostBridge }>): Checkout {
  if (!/^\d+$/.test(String(options?.invoiceId))) throw mountError('SvcCheckout.mount needs { invoiceId }: the numeric id of the invoice to pay')
  const id = `svc${++instances}${Math.random().toString(36).slice(2, 8)}`
  const origin = new URL(base).origin
  const frame = document.createElement('iframe')
  frame.src = frameUrl(base, id, options)
  frame.title = 'Pay invoice'
  frame.referrerPolicy = 'no-referrer'
  frame.style.cssText = 'border:0;width:100%;min-height:480px'
  const listeners = new Map<string, Set<(detail: never) => void>>()
  const post = (message: HostMessage) => frame.contentWindow?.postMessage({ ...message, svc: protocolVersion, id }, origin)
  let bridge: Promise<HostBridge> | undefined
  let destroyed = false

  const onMessage = (event: MessageEvent) => {
    if (event.origin !== origin || event.source !== frame.contentWindow) return
    const message = readFrameMessage(event.data, id)
    if (!message) return
    if (message.type === 'resize') frame.style.height = `${Math.ceil(message.height)}px`
    else if (message.type === 'wallet:list' || message.type === 'wallet:request') {
      bridge ??= loadBridge().then((module) => module.startHostBridge(post))
      bridge.then((started) => destroyed || started.handle(message))
    } else {
      for (const listener of listeners.get(message.type) ?? []) listener(message.detail as never)
      element.dispatchEvent(new CustomEvent(`svc-checkout:${message.type}`, { detail: message.detail, bubbles: true }))
    }
  }
  addEventListener('message', onMessage)
  element.appendChild(frame)

  return {
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set.add(listener as (detail: never) => void))
      return () => set.delete(listener as (detail: never) => void)
    },
    destroy() {
      destroyed = true
      removeEventListener('message', onMessage)
      bridge?.then((started) => started.destroy())
      listeners.clear()
      frame.remove()
    },
  }
}
