import { renderToString } from 'preact-render-to-string'
import { LocaleContext } from '../../src/ui/LocaleContext'
import { BrandScope } from '../../src/ui/page/BrandScope'
import { LanguageSwitch, type LanguageSwitchProps } from '../../src/ui/page/LanguageSwitch'
import { PayErrorPage, type PayErrorKind } from '../../src/ui/page/PayErrorPage'
import type { Locale } from '../../src/ui/strings'
import { textDirection, type Language } from '../../src/ui/languages'
import { pageTemplate } from './payPageMarkup'

/**
 * The error page a payer gets at a share-link address that shows no invoice: the built page's own
 * head (its inline styles, which its CSP allows by hash) with its scripts taken out, so nothing starts
 * an app for an invoice that is not there; or, with no build at all, a bare page in the same words.
 * Framed as every page is: the language switch above (its links keep the address's query), the card
 * in the page's brand scope (the house colours: no payee is known here).
 */
export function payPageError(builtHtml: string | null, locale: Locale, kind: PayErrorKind, link: LanguageSwitchProps['params'] = { token: null, embed: false, theme: null, locale: null }): string {
  const app = renderToString(
    <LocaleContext.Provider value={locale}>
      <BrandScope branding={null}>
        <PayErrorPage kind={kind} />
      </BrandScope>
    </LocaleContext.Provider>,
  )
  const t = locale.strings
  const languageSwitch = renderToString(<LanguageSwitch current={t.lang as Language} label={t.language} params={link} />)
  const title = renderToString(<>{{ badLink: t.errorPageBadLinkTitle, unavailable: t.errorPageUnavailableTitle }[kind]}</>)
  if (!builtHtml) return `<!doctype html><html lang="${t.lang}" dir="${textDirection(t.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body>${languageSwitch}${app}</body></html>`
  const template = pageTemplate(builtHtml.replace(/<script\b[^>]*>[\s\S]*?<\/script>\s*/g, ''))
  const filled = { lang: t.lang, dir: textDirection(t.lang), title, before: languageSwitch, app: `${app}</div>` }
  let html = template.parts[0]!
  template.holes.forEach((fill, i) => (html += fill(filled) + template.parts[i + 1]!))
  return html
}
