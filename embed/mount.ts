import type { HostBridge } from './hostBridge'
import type { HostKit } from './hostKit'
import { hostEvents } from './hostEvents'
import { maxFrameHeight, readFrameMessage, protocolVersion, type CheckoutEventName, type CheckoutEvents, type FrameMessage, type HostMessage } from '../shared/embedProtocol'

export type MountOptions = {
  invoiceId: string
  token?: string
  locale?: string
  /** CSS custom properties for the pay page, e.g. `{ '--svc-accent': '#0a7' }`. */
  theme?: Record<string, string>
  mode?: 'iframe' | 'inline'
  /** `compact` (default, set by the pay page for any embed that names no layout): the payee, the
   * amount, its on-chain confirmation and the payment, the invoice document behind a disclosure, for a
   * storefront that shows its own order. `full`: the whole document, as the share link shows it. */
  layout?: 'full' | 'compact'
}

export type Checkout = {
  on<K extends CheckoutEventName>(event: K, listener: (detail: CheckoutEvents[K]) => void): () => void
  destroy(): void
}

let instances = 0

const isWalletMessage = (message: FrameMessage): message is Extract<FrameMessage, { type: `wallet:${string}` }> => message.type.startsWith('wallet:')

/** The pay page's URL for this mount; the token stays in the query, as in a share link. */
function frameUrl(base: string, id: string, options: MountOptions): string {
  const url = new URL(`pay/${options.invoiceId}`, base)
  const { token, locale, theme, layout } = options
  // one loop, not a set() per option (the loader's size budget); unset options stay out of the query
  for (const [name, value] of Object.entries({ token, embed: '1', instance: id, parent: location.origin, locale, theme: theme && JSON.stringify(theme), layout }))
    if (value) url.searchParams.set(name, value)
  return url.href
}

/**
 * Mounts the pay page in an iframe inside `element`. `base` is where the loader came from; `kit`
 * loads the pinned kit, for the wallet bridge the first time the page asks for the host's wallets and
 * for the chain's word on a `paid`.
 */
export function mountFrame(element: HTMLElement, options: MountOptions, base: string, kit: () => Promise<HostKit>): Checkout {
  // unique on the page (one loader per page); messages are told apart by origin and source window first
  const id = `svc${++instances}`
  const origin = new URL(base).origin
  const frame = document.createElement('iframe')
  frame.src = frameUrl(base, id, options)
  frame.title = 'Pay invoice'
  frame.referrerPolicy = 'no-referrer'
  frame.style.cssText = 'border:0;width:100%;min-height:480px'
  const events = hostEvents(element)
  const post = (message: HostMessage) => frame.contentWindow?.postMessage({ ...message, svc: protocolVersion, id }, origin)
  let bridge: Promise<HostBridge> | undefined
  let destroyed = false

  const onMessage = (event: MessageEvent) => {
    if (event.origin !== origin || event.source !== frame.contentWindow) return
    const message = readFrameMessage(event.data, id)
    if (!message) return
    if (message.type === 'resize') frame.style.height = `${Math.min(Math.ceil(message.height), maxFrameHeight)}px`
    else if (isWalletMessage(message)) {
      ;(bridge ??= kit().then((loaded) => loaded.bridge(post, { invoiceId: options.invoiceId }))).then(
        (started) => destroyed || started.handle(message),
        // a bridge that could not load (offline, say) is fetched again at the frame's next ask
        () => (bridge = undefined),
      )
      // only this mount's invoice: a frame naming another (a forged `paid`, say) is not heard
    } else if (message.detail.invoiceId === options.invoiceId) {
      // The frame is the checkout server's page, not code this loader pins: `paid`, the one event a
      // host acts on (an order shipped), is heard only once the pinned chain shows it (embed/hostPaid.ts)
      if (message.type === 'paid') kit().then((loaded) => loaded.paid(message.detail, events.emit))
      else events.emit(message.type, message.detail)
    }
  }
  addEventListener('message', onMessage)
  element.appendChild(frame)

  return {
    on: events.on,
    destroy() {
      destroyed = true
      removeEventListener('message', onMessage)
      bridge?.then((started) => started.destroy())
      events.clear()
      frame.remove()
    },
  }
}

/**
 * Mounts the widget itself on this page, in a shadow root inside `element` (`mode: 'inline'`), so that
 * the page's wallets are the widget's. The pinned `kit` imports it from the checkout's origin: the
 * loader never carries it. The widget is pinned code that reads the chain itself: its events are
 * passed on as it emits them.
 */
export function mountInline(element: HTMLElement, options: MountOptions, base: string, kit: () => Promise<HostKit>): Checkout {
  const events = hostEvents(element)
  const box = element.appendChild(document.createElement('div'))
  // a widget that cannot load (a CSP without the checkout in script-src, say) fails in the console,
  // with its URL, as a blocked iframe does
  const widget = kit()
    .then((loaded) => loaded.inline())
    .then((module) => module.mountInline(box, options, base, events.emit))
  return {
    on: events.on,
    destroy() {
      events.clear()
      box.remove()
      widget.then((mounted) => mounted.destroy(), () => {})
    },
  }
}
