// The React entry: the checkout as a component. Written with createElement, not JSX, so that the
// package builds without a JSX setup of its own and works with any React 18 or later.
import { createElement, useEffect, useRef, type CSSProperties, type ReactElement } from 'react'
import { loadCheckout, type Checkout as MountedCheckout, type CheckoutEvents, type LoadCheckoutOptions, type MountOptions } from './index.js'

export type { CheckoutEventName, CheckoutEvents, LoadCheckoutOptions, MountOptions } from './index.js'

export type CheckoutProps = MountOptions &
  LoadCheckoutOptions & {
    /** The checkout's origin, e.g. `https://pay.example.com`. */
    baseUrl: string
    onReady?: (detail: CheckoutEvents['ready']) => void
    /** The payer's browser says the invoice is paid: show it, but ship on your server's word. */
    onPaid?: (detail: CheckoutEvents['paid']) => void
    onPending?: (detail: CheckoutEvents['pending']) => void
    onExpired?: (detail: CheckoutEvents['expired']) => void
    /** The checkout's own error (`{ code }`), or `LOAD_FAILED` when the loader could not be loaded
     * (its Error's message says what to check). */
    onError?: (detail: CheckoutEvents['error'] & { cause?: Error }) => void
    className?: string
    style?: CSSProperties
  }

type Handlers = Pick<CheckoutProps, 'onReady' | 'onPaid' | 'onPending' | 'onExpired' | 'onError'>

/**
 * Mounts the checkout for one invoice in a `<div>` of its own, and destroys it on unmount or when a
 * mount option changes (then mounts anew). The callbacks are read at each event, so passing new
 * functions on each render neither remounts nor loses an event.
 */
export function Checkout(props: CheckoutProps): ReactElement {
  const { baseUrl, src, integrity, timeoutMs, invoiceId, token, locale, theme, mode, layout, className, style } = props
  const element = useRef<HTMLDivElement>(null)
  const handlers = useRef<Handlers>(props)
  handlers.current = props
  const themeKey = theme ? JSON.stringify(theme) : ''

  useEffect(() => {
    let mounted: MountedCheckout | null = null
    let gone = false
    const options: MountOptions = { invoiceId }
    if (token) options.token = token
    if (locale) options.locale = locale
    if (themeKey) options.theme = JSON.parse(themeKey) as Record<string, string>
    if (mode) options.mode = mode
    if (layout) options.layout = layout
    loadCheckout(baseUrl, { ...(src ? { src } : {}), ...(integrity ? { integrity } : {}), ...(timeoutMs ? { timeoutMs } : {}) }).then(
      (api) => {
        if (gone || !api || !element.current) return
        mounted = api.mount(element.current, options)
        mounted.on('ready', (detail) => handlers.current.onReady?.(detail))
        mounted.on('paid', (detail) => handlers.current.onPaid?.(detail))
        mounted.on('pending', (detail) => handlers.current.onPending?.(detail))
        mounted.on('expired', (detail) => handlers.current.onExpired?.(detail))
        mounted.on('error', (detail) => handlers.current.onError?.(detail))
      },
      (error: Error) => gone || handlers.current.onError?.({ invoiceId, code: 'LOAD_FAILED', cause: error }),
    )
    return () => {
      gone = true
      mounted?.destroy()
    }
  }, [baseUrl, src, integrity, timeoutMs, invoiceId, token, locale, themeKey, mode, layout])

  return createElement('div', { ref: element, className, style })
}
