import { renderToString } from 'preact-render-to-string'
import { createPayApi } from '../../src/api/createPayApi'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import { LocaleContext } from '../../src/ui/LocaleContext'
import { NotFoundPage, PayPage } from '../../src/ui/page/PayPage'
import type { PageLayout } from '../../src/ui/page/pageParams'
import { BrandScope } from '../../src/ui/page/BrandScope'
import { pageBrandingOf } from '../../src/ui/page/pageBrandingOf'
import type { ServedBranding } from '../../shared/brandingWire'
import { servedDocument, servedPageElementId, servedPageJson, type ServedPage } from '../../src/ui/page/servedPage'
import type { Locale } from '../../src/ui/strings'
import { textDirection } from '../../src/ui/languages'
import { LanguageSwitch, type LanguageSwitchProps } from '../../src/ui/page/LanguageSwitch'
import type { Language } from '../../src/ui/languages'
import type { WidgetActions } from '../../src/ui/widget/PaymentWidget'
import { unconfirmedInvoice } from '../../src/verify/confirmInvoice'

// nothing on the server page can be acted on before the client takes over
const inert: WidgetActions = { choose() {}, switchNetwork() {}, pay() {}, payFromWallet() {}, sendToVault() {}, moveBack() {}, renewPermit() {}, retry() {} }
const noop = () => {}
const pdfUrls = createPayApi({ baseUrl: '' })

export type PayPageMarkupParameters = {
  page: ServedPage
  locale: Locale
  /** The deployment the page was built with: the figures are formatted as the client formats them. */
  deployment: PinnedDeployment
  invoiceId: string
  token: string | null
  now: number
  /** The embedding's layout (`?layout=compact`), rendered as the client will hydrate it. */
  layout?: PageLayout
  /** The payee's colour and logo (presentation only): rendered around the page, and written beside its
   * data so that the client hydrates the same. */
  branding?: ServedBranding | null
  /** The share link's query, for the language switch's links (which keep the token and framing). */
  link?: LanguageSwitchProps['params']
}

type Filled = { lang: string; dir: string; title: string; before: string; app: string }

/** The built index.html cut where each request's parts go, once per build: its language, its title,
 * and the app's element (with the data after it). */
export type PageTemplate = { parts: string[]; holes: ((filled: Filled) => string)[] }

const holes: { pattern: RegExp; fill: (filled: Filled) => string }[] = [
  { pattern: /<html lang="[^"]*"/, fill: ({ lang, dir }) => `<html lang="${lang}" dir="${dir}"` },
  { pattern: /<title>[^<]*<\/title>/, fill: ({ title }) => `<title>${title}</title>` },
  { pattern: /<div id="app"><\/div>/, fill: ({ before, app }) => `${before}<div id="app">${app}` },
]

export function pageTemplate(html: string): PageTemplate {
  const found = holes
    .flatMap(({ pattern, fill }) => {
      const match = pattern.exec(html)
      return match ? [{ start: match.index, end: match.index + match[0].length, fill }] : []
    })
    .sort((a, b) => a.start - b.start)
  const parts: string[] = []
  let from = 0
  for (const { start, end } of found) {
    parts.push(html.slice(from, start))
    from = end
  }
  parts.push(html.slice(from))
  return { parts, holes: found.map(({ fill }) => fill) }
}

/**
 * The built page (its template) with the invoice in it, readable before any script runs: the page's
 * own components in the state the client starts in (the service's figures, marked unconfirmed, while
 * the chain is read), and the data they were rendered with, for the client to hydrate.
 */
export function payPageMarkup(template: PageTemplate, { page, locale, deployment, invoiceId, token, now, layout = 'full', branding = null, link }: PayPageMarkupParameters): string {
  const document = servedDocument(page)
  const title = document ? locale.strings.invoiceTitle(document.metadata?.invoiceNumber ?? invoiceId) : locale.strings.notFoundTitle
  const body = renderToString(
    <LocaleContext.Provider value={locale}>
      {document ? (
        <BrandScope branding={pageBrandingOf(branding, '')}>
          <PayPage
            state={{ name: 'checking', invoice: unconfirmedInvoice(document.invoice, deployment) }}
            actions={inert}
            wallets={[]}
            deployment={deployment}
            document={{ status: 'loaded', document }}
            pdfUrl={token ? pdfUrls.pdfUrl(invoiceId, token) : null}
            onReloadDocument={noop}
            now={now}
            layout={layout}
            embedded={link?.embed ?? false}
          />
        </BrandScope>
      ) : (
        // the frame the client renders it in (App): no payee, so the house colours
        <BrandScope branding={null}>
          <NotFoundPage />
        </BrandScope>
      )}
    </LocaleContext.Provider>,
  )
  // the branding travels in the same block, beside what the page's schema reads (which ignores it):
  // read apart by src/ui/page/servedBranding.ts, as presentation only
  const served = document ? { ...page, branding } : page
  const data = `<script type="application/json" id="${servedPageElementId}">${servedPageJson(served)}</script>`
  // outside the app's element: the client hydrates the app, never this
  const languageSwitch = renderToString(<LanguageSwitch current={locale.strings.lang as Language} label={locale.strings.language} params={link ?? { token, embed: false, theme: null, locale: null, layout }} />)
  const filled = { lang: locale.strings.lang, dir: textDirection(locale.strings.lang), title: renderToString(<>{title}</>), before: languageSwitch, app: `${body}</div>${data}` }
  let html = template.parts[0]!
  template.holes.forEach((fill, i) => (html += fill(filled) + template.parts[i + 1]!))
  return html
}
