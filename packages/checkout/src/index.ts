// The browser entry: load the checkout's loader from its origin, once, and mount invoices with it.
// The loader stays on the checkout's origin (a merchant's bundle never carries the pay page): this
// entry only finds or adds its script tag and types what it offers. The types mirror
// embed/mount.ts and shared/embedProtocol.ts (a test in the repository holds them equal).

/** What a mounted checkout tells the page. `paid` is the payer's browser speaking: ship nothing on
 * it, confirm on your server (`verifyWebhook`, or `readInvoice` from `@svc-checkout/js/server`). */
export type CheckoutEvents = {
  ready: { invoiceId: string }
  /** Heard once the page has read it on the checkout's pinned chain (iframe mode: the frame's word is
   * not taken); `txHash` is the registry's payment transaction (inline, empty while the widget does not
   * know it yet); `userOpHash` is empty when the invoice was paid elsewhere or by a smart wallet. */
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
  /** `compact` (default): the payee, the amount, its on-chain confirmation and the payment steps, the
   * document behind a disclosure; `full`: the whole invoice document. */
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
  /** The loader's SRI hash (`sha384-…`), with `src` naming a content-named file. Only a loader tag
   * with exactly this `src` and `integrity` answers then: a `window.SvcCheckout` another script
   * defined, or the checkout's tag without it, is refused. */
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

/** A page runs one loader: it defines one `window.SvcCheckout`, whose frames show the checkout it was
 * loaded from. So the first call's loader (its URL and integrity) is the page's, and a call that asks
 * for another is refused rather than answered with it. Forgotten when the load fails. */
let current: { key: string; loading: Promise<SvcCheckout | null> } | undefined

/** `data-svc-checkout` on a loader tag: `loading` while a call waits for it, then `loaded` or
 * `failed`. A merchant's own tag has none until a call has seen it finish. */
type TagState = 'loading' | 'loaded' | 'failed'
const stateOf = (script: HTMLScriptElement) => script.dataset.svcCheckout as TagState | undefined

/**
 * Loads the checkout's loader from `baseUrl` (the checkout's origin) and resolves with its API, as
 * `loadStripe` does: one promise per loader (its URL and integrity), whoever calls; a script tag
 * already on the page is reused, not added twice; `null` where there is no window (server-side
 * rendering), so the call can sit in shared code. A load that fails rejects with an Error that says
 * what to check, and is forgotten, so that calling again tries again (with a tag of its own). That
 * covers a tag already on the page that failed before this call (the page finished loading without
 * it defining the loader), or fails after it, and a load that takes longer than `timeoutMs`.
 *
 * With `integrity`, only a tag with exactly that `src` and `integrity` (one this call adds, or the
 * merchant's own) may answer: never a `window.SvcCheckout` some other script defined, nor a loader
 * tag without the pin (whichever loader runs first defines the global the others reuse). A call for
 * another checkout, `src` or `integrity` than the page's loader is refused with what to do.
 */
export function loadCheckout(baseUrl: string, options: LoadCheckoutOptions = {}): Promise<SvcCheckout | null> {
  if (typeof window === 'undefined' || typeof document === 'undefined') return Promise.resolve(null)
  const origin = new URL(baseUrl, location.href).origin
  const src = new URL(options.src ?? '/embed.js', `${origin}/`).href
  const { integrity } = options
  const key = integrity ? `${src} with integrity ${integrity}` : src
  if (current?.key === key) return current.loading
  // the loader tags on the page: `src`, one an earlier call added, or a merchant's `/embed.js` or
  // content-named `/embed/embed.v1.<hash>.js` of any checkout; one that failed never loads again
  const tags = Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]')).filter((script) =>
    stateOf(script) ? stateOf(script) !== 'failed' : script.src === src || /^\/embed(\.js|\/embed\.v\d+\.[\w-]+\.js)$/.test(new URL(script.src).pathname),
  )
  const ours = tags.filter((script) => script.src === src || new URL(script.src).origin === origin)
  // with integrity, only the tag that pins exactly this loader may answer
  const found = ours.find((script) => !integrity || (script.src === src && script.integrity === integrity))
  const foreign = tags.find((script) => !ours.includes(script))
  // Whichever loader runs first defines the page's window.SvcCheckout, and the others reuse it: this
  // call is refused (not cached) where that could be another loader than the one it asks for: another
  // call's, a tag of this checkout without the pin, or a global some other script defined (answered
  // without integrity where no other checkout's tag is on the page).
  const other = current?.key || (integrity && ours.find((script) => script !== found)?.src) || (window.SvcCheckout && !found && (integrity || foreign) && (foreign?.src || 'window.SvcCheckout, defined by a script'))
  if (other) {
    return Promise.reject(
      new Error(
        `svc-checkout: the page already has another loader (${other}), and a page runs one (one window.SvcCheckout): ${current ? 'pass the same baseUrl, src and integrity to every loadCheckout call on the page' : `remove it, so that ${key} is the one that loads`}.`,
      ),
    )
  }
  let resolve!: (checkout: SvcCheckout) => void
  let reject!: (error: Error) => void
  const loading = new Promise<SvcCheckout | null>((yes, no) => {
    resolve = yes
    reject = no
  })
  // cached before anything can settle it, so that a failure always finds it to forget
  current = { key, loading }
  if (window.SvcCheckout && !integrity) {
    resolve(window.SvcCheckout)
    return loading
  }
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
    if (current?.loading === loading) current = undefined
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
