// The browser entry: load the checkout's loader from its origin, once, and mount invoices with it.
// The loader stays on the checkout's origin (a merchant's bundle never carries the pay page): this
// entry only finds or adds its script tag and types what it offers. The types mirror
// embed/mount.ts and shared/embedProtocol.ts (a test in the repository holds them equal).

/** What a mounted checkout tells the page. `paid` is the payer's browser speaking: ship nothing on
 * it, confirm on your server (`verifyWebhook`, or `readInvoice` from `@svc-checkout/js/server`). */
export type CheckoutEvents = {
  ready: { invoiceId: string }
  /** `userOpHash` is empty when the invoice was paid elsewhere; `txHash` while the checkout does not know it. */
  paid: { invoiceId: string; userOpHash: string; txHash: string }
  /** The payment is out, not yet on the chain; `userOpHash` is empty when the payer's own smart wallet sent it. */
  pending: { invoiceId: string; userOpHash: string }
  /** The payer's authorisation ran out; they can renew it in the checkout. */
  expired: { invoiceId: string }
  error: { invoiceId: string; code: string }
}

export type CheckoutEventName = keyof CheckoutEvents

export type MountOptions = {
  /** The invoice's numeric id, as a decimal string. */
  invoiceId: string
  /** The share link's access token (`svc_tk_…`): without it only the on-chain record is shown. */
  token?: string
  /** A BCP 47 tag, e.g. `de-DE`; the payer's browser languages otherwise. */
  locale?: string
  /** CSS custom properties (`--svc-*`), e.g. `{ '--svc-color-accent': '#0a7f5a' }`. */
  theme?: Record<string, string>
  /** `iframe` (default): the pay page in a frame; `inline`: the same widget in a shadow root on your page. */
  mode?: 'iframe' | 'inline'
  /** `full` (default): the whole invoice document; `compact`: the payee, the amount, its on-chain
   * confirmation and the payment steps, the document behind a disclosure. */
  layout?: 'full' | 'compact'
}

export type Checkout = {
  /** Listens to one event; returns the function that stops listening. */
  on<K extends CheckoutEventName>(event: K, listener: (detail: CheckoutEvents[K]) => void): () => void
  /** Removes the frame (or the inline widget) and every listener. */
  destroy(): void
}

/** The loader's global, `window.SvcCheckout`. */
export type SvcCheckout = { version: string; mount(element: HTMLElement, options: MountOptions): Checkout }

export type LoadCheckoutOptions = {
  /** The loader's URL; `{baseUrl}/embed.js` (always the current loader) by default. Pin a release
   * with the content-named file from `{baseUrl}/embed/manifest.json` and its `integrity`. */
  src?: string
  /** The loader's SRI hash (`sha384-…`), with `src` naming a content-named file. */
  integrity?: string
  /** How long to wait for the loader, in milliseconds (10 000 by default): a load not done by then
   * rejects, as a failed one does. */
  timeoutMs?: number
}

declare global {
  interface Window {
    SvcCheckout?: SvcCheckout
  }
}

const loads = new Map<string, Promise<SvcCheckout | null>>()

/** `data-svc-checkout` on a loader tag: `loading` while a call waits for it, then `loaded` or
 * `failed`. A merchant's own tag has none until a call has seen it finish. */
type TagState = 'loading' | 'loaded' | 'failed'
const stateOf = (script: HTMLScriptElement) => script.dataset.svcCheckout as TagState | undefined

/** A `<script>` already on the page that loads this checkout's loader: the tag a merchant wrote, or
 * one an earlier call added. A tag that failed is passed over: it never loads again. */
function existingScript(origin: string, src: string): HTMLScriptElement | null {
  for (const script of Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]'))) {
    if (stateOf(script) === 'failed') continue
    if (script.src === src) return script
    const url = new URL(script.src, location.href)
    if (url.origin === origin && /^\/embed(\.js|\/embed\.v\d+\.[\w-]+\.js)$/.test(url.pathname)) return script
  }
  return null
}

/**
 * Loads the checkout's loader from `baseUrl` (the checkout's origin) and resolves with its API, as
 * `loadStripe` does: one promise per origin, whoever calls; a script tag already on the page is
 * reused, not added twice; `null` where there is no window (server-side rendering), so the call can
 * sit in shared code. A load that fails rejects with an Error that says what to check, and is
 * forgotten, so that calling again tries again (with a tag of its own). That covers a tag already on
 * the page that failed before this call (the page finished loading without it defining the loader),
 * or fails after it, and a load that takes longer than `timeoutMs`.
 */
export function loadCheckout(baseUrl: string, options: LoadCheckoutOptions = {}): Promise<SvcCheckout | null> {
  if (typeof window === 'undefined' || typeof document === 'undefined') return Promise.resolve(null)
  const origin = new URL(baseUrl, location.href).origin
  const cached = loads.get(origin)
  if (cached) return cached
  const src = new URL(options.src ?? '/embed.js', `${origin}/`).href
  let resolve!: (checkout: SvcCheckout) => void
  let reject!: (error: Error) => void
  const loading = new Promise<SvcCheckout | null>((yes, no) => {
    resolve = yes
    reject = no
  })
  // cached before anything can settle it, so that a failure always finds it to forget
  loads.set(origin, loading)
  if (window.SvcCheckout) {
    resolve(window.SvcCheckout)
    return loading
  }
  const found = existingScript(origin, src)
  const tag = found ?? document.createElement('script')
  let settled = false
  const finish = (state: Exclude<TagState, 'loading'>) => {
    settled = true
    clearTimeout(timer)
    window.removeEventListener('load', pageLoaded)
    tag.dataset.svcCheckout = state
  }
  const fail = (what: string) => {
    if (settled) return
    finish('failed')
    // a tag that failed never loads again: ours goes, a merchant's stays marked, and the next call adds a fresh one
    if (!found) tag.remove()
    if (loads.get(origin) === loading) loads.delete(origin)
    reject(
      new Error(
        `svc-checkout: ${what} (${tag.src}). Check that ${origin} is reachable, that your page's Content-Security-Policy allows it in script-src and frame-src, and that an integrity hash matches the file; then call loadCheckout again to retry.`,
      ),
    )
  }
  const loaded = () => {
    if (settled) return
    if (!window.SvcCheckout) return fail('the script loaded but defined no SvcCheckout: is this a svc-checkout server?')
    finish('loaded')
    resolve(window.SvcCheckout)
  }
  // The page's load event waits for every script on it: once it has passed, a tag that was there has
  // loaded or failed, and its event will not come again.
  const pageLoaded = () => (window.SvcCheckout ? loaded() : fail("the loader's script tag on the page failed to load"))
  const timeoutMs = options.timeoutMs ?? 10_000
  const timer = setTimeout(() => fail(`the loader did not load within ${timeoutMs} ms`), timeoutMs)
  tag.addEventListener('load', loaded)
  tag.addEventListener('error', () => fail('the loader could not be loaded'))
  if (!found) {
    tag.src = src
    tag.async = true
    if (options.integrity) {
      tag.integrity = options.integrity
      tag.crossOrigin = 'anonymous'
    }
    tag.dataset.svcCheckout = 'loading'
    document.head.appendChild(tag)
  } else if (stateOf(tag) === 'loaded') {
    // loaded before, yet its SvcCheckout is gone
    loaded()
  } else if (!stateOf(tag)) {
    // The merchant's own tag, which may have finished before this call. (One another script added
    // after the page loaded, and still loading, is taken for failed: the next call adds its own.)
    if (document.readyState === 'complete') pageLoaded()
    else window.addEventListener('load', pageLoaded)
  }
  return loading
}

/**
 * Loads the checkout and mounts one invoice in `element`: `loadCheckout` then `mount`. Resolves
 * `null` without a window.
 */
export async function mountCheckout(element: HTMLElement, baseUrl: string, options: MountOptions & LoadCheckoutOptions): Promise<Checkout | null> {
  const { src, integrity, timeoutMs, ...mount } = options
  const checkout = await loadCheckout(baseUrl, { ...(src ? { src } : {}), ...(integrity ? { integrity } : {}), ...(timeoutMs ? { timeoutMs } : {}) })
  return checkout ? checkout.mount(element, mount) : null
}
