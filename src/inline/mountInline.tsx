// Built on its own (vite.config.ts, separateBundles) and imported by URL by the merchant loader in
// `mode: 'inline'`: the pay page's initial JavaScript does not carry it, nor the loader.
import { render } from 'preact'
import { announceModule } from '../../shared/pinnedModule'
import { createPayApi } from '../api/createPayApi'
import { pinned } from '../config/pinned'
import { applyEmbedTheme } from '../frame/applyEmbedTheme'
import type { FrameChannel } from '../frame/frameChannel'
import { LocaleContext } from '../ui/LocaleContext'
import { App } from '../ui/page/App'
import { loadLocale } from '../ui/strings'
import css from '../ui/theme.css?inline'
import brandingCss from '../ui/branding.css?inline'

export type InlineOptions = { invoiceId: string; token?: string; locale?: string; theme?: Record<string, string>; layout?: 'full' | 'compact' }
export type InlineCheckout = { destroy(): void }

// parsed once for every widget on the page
let sheet: CSSStyleSheet | undefined

/**
 * The pay page's own App in an open shadow root on the merchant's page, where the page's wallet
 * extensions are (many never inject into iframes). Its styles are a constructed sheet: kept apart
 * from the page's, and not an inline `<style>` that the page's CSP `style-src` would block. It calls
 * the checkout's origin (`base`), and tells the loader what happens through `emit`.
 */
export function mountInline(host: HTMLElement, options: InlineOptions, base: string, emit: FrameChannel['emit']): InlineCheckout {
  const shadow = host.attachShadow({ mode: 'open' })
  if (!sheet) {
    sheet = new CSSStyleSheet()
    sheet.replaceSync(css + brandingCss)
  }
  shadow.adoptedStyleSheets = [sheet]
  applyEmbedTheme(host, shadow, options.theme ? JSON.stringify(options.theme) : null)

  const baseUrl = new URL(base).origin
  const api = createPayApi({ baseUrl })
  const inlineHost = { emit }
  let destroyed = false
  void loadLocale(options.locale ? [options.locale, ...navigator.languages] : navigator.languages).then((locale) => {
    if (destroyed) return
    host.lang = locale.strings.lang
    render(
      <LocaleContext.Provider value={locale}>
        <App invoiceId={options.invoiceId} token={options.token ?? null} deployment={pinned} api={api} baseUrl={baseUrl} inlineHost={inlineHost} layout={options.layout === 'full' ? 'full' : 'compact'} />
      </LocaleContext.Provider>,
      shadow,
    )
  })
  return {
    destroy() {
      destroyed = true
      // unmounting stops the flow, its timers and the wallet discovery
      render(null, shadow)
    },
  }
}

export type InlineWidgetModule = { mountInline: typeof mountInline }

// the merchant loader loads this file by integrity and takes its API from the announcement
announceModule('__svcInline', { mountInline } satisfies InlineWidgetModule)
