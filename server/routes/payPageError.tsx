import { renderToString } from 'preact-render-to-string'
import { LocaleContext } from '../../src/ui/LocaleContext'
import { PayErrorPage, type PayErrorKind } from '../../src/ui/page/PayErrorPage'
import type { Locale } from '../../src/ui/strings'
import { textDirection } from '../../src/ui/languages'
import { pageTemplate } from './payPageMarkup'

/**
 * The error page a payer gets at a share-link address that shows no invoice: the built page's own
 * head (its inline styles, which its CSP allows by hash) with its scripts taken out, so nothing starts
 * an app for an invoice that is not there; or, with no build at all, a bare page in the same words.
 */
export function payPageError(builtHtml: string | null, locale: Locale, kind: PayErrorKind): string {
  const app = renderToString(
    <LocaleContext.Provider value={locale}>
      <PayErrorPage kind={kind} />
    </LocaleContext.Provider>,
  )
  const t = locale.strings
  const title = renderToString(<>{{ badLink: t.errorPageBadLinkTitle, revoked: t.errorPageRevokedTitle, unavailable: t.errorPageUnavailableTitle }[kind]}</>)
  if (!builtHtml) return `<!doctype html><html lang="${t.lang}" dir="${textDirection(t.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body>${app}</body></html>`
  const template = pageTemplate(builtHtml.replace(/<script\b[^>]*>[\s\S]*?<\/script>\s*/g, ''))
  const filled = { lang: t.lang, dir: textDirection(t.lang), title, before: '', app: `${app}</div>` }
  let html = template.parts[0]!
  template.holes.forEach((fill, i) => (html += fill(filled) + template.parts[i + 1]!))
  return html
}
