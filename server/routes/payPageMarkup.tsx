import { renderToString } from 'preact-render-to-string'
import { createPayApi } from '../../src/api/createPayApi'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import { LocaleContext } from '../../src/ui/LocaleContext'
import { NotFoundPage, PayPage } from '../../src/ui/page/PayPage'
import { servedDocument, servedPageElementId, servedPageJson, type ServedPage } from '../../src/ui/page/servedPage'
import type { Locale } from '../../src/ui/strings'
import type { WidgetActions } from '../../src/ui/widget/PaymentWidget'
import { unconfirmedInvoice } from '../../src/verify/confirmInvoice'

// nothing on the server page can be acted on before the client takes over
const inert: WidgetActions = { choose() {}, switchNetwork() {}, pay() {}, payFromWallet() {}, sendToVault() {}, renewPermit() {}, retry() {} }
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
}

/**
 * The built index.html with the invoice in it, readable before any script runs: the page's own
 * components in the state the client starts in (the service's figures, marked unconfirmed, while the
 * chain is read), and the data they were rendered with, for the client to hydrate.
 */
export function payPageMarkup(html: string, { page, locale, deployment, invoiceId, token, now }: PayPageMarkupParameters): string {
  const document = servedDocument(page)
  const title = document ? locale.strings.invoiceTitle(document.metadata?.invoiceNumber ?? invoiceId) : locale.strings.notFoundTitle
  const body = renderToString(
    <LocaleContext.Provider value={locale}>
      {document ? (
        <PayPage
          state={{ name: 'checking', invoice: unconfirmedInvoice(document.invoice, deployment) }}
          actions={inert}
          wallets={[]}
          deployment={deployment}
          document={{ status: 'loaded', document }}
          pdfUrl={token ? pdfUrls.pdfUrl(invoiceId, token) : null}
          onReloadDocument={noop}
          now={now}
        />
      ) : (
        <NotFoundPage />
      )}
    </LocaleContext.Provider>,
  )
  const data = `<script type="application/json" id="${servedPageElementId}">${servedPageJson(page)}</script>`
  return html
    .replace(/<html lang="[^"]*"/, `<html lang="${locale.strings.lang}"`)
    .replace(/<title>[^<]*<\/title>/, `<title>${renderToString(<>{title}</>)}</title>`)
    .replace('<div id="app"></div>', `<div id="app">${body}</div>${data}`)
}
