import { useContext } from 'preact/hooks'
import { languageCodes, languages, type Language } from '../languages'
import { useLocale } from '../LocaleContext'
import { PageLinkContext } from './PageLinkContext'
import { queryWithLanguage } from './pageParams'

/** The page's languages, each named in itself, as plain links: the switch works before any script
 * runs, and a link keeps the token (the server remembers the pick in a cookie for the next page). */
export function LanguageSwitch() {
  const link = useContext(PageLinkContext)
  const { strings: t } = useLocale()
  if (!link) return null
  const current = t.lang as Language
  return (
    <nav class="svc-lang" aria-label={t.language}>
      <details>
        <summary>
          <span aria-hidden="true">🌐 </span>
          {languages[current]}
        </summary>
        <ul>
          {languageCodes.map((code) => (
            <li key={code}>
              <a href={queryWithLanguage(link, code)} lang={code} hreflang={code} aria-current={code === current ? 'true' : undefined}>
                {languages[code]}
              </a>
            </li>
          ))}
        </ul>
      </details>
    </nav>
  )
}
