import { languageCodes, languageNames, type Language } from '../languages'
import { queryWithLanguage, type PageParams } from './pageParams'

export type LanguageSwitchProps = {
  /** The page's language, in its own words. */
  current: Language
  /** Its label ("Language"), in the page's language. */
  label: string
  /** What each link keeps of the share link: the token above all, and how the page is framed. */
  params: Pick<PageParams, 'token' | 'embed' | 'theme' | 'locale'>
}

/** The page's languages, each named in itself, as plain links: the server renders it outside the
 * app's element, so it works with no script at all and costs the page's scripts nothing. A link
 * keeps the token; the server remembers the pick in a cookie for the payer's next share link. */
export function LanguageSwitch({ current, label, params }: LanguageSwitchProps) {
  return (
    <nav class="svc-lang" aria-label={label}>
      <details>
        <summary>
          <span aria-hidden="true">🌐 </span>
          {languageNames[current]}
        </summary>
        <ul>
          {languageCodes.map((code) => (
            <li key={code}>
              <a href={queryWithLanguage(params, code)} lang={code} hreflang={code} aria-current={code === current ? 'true' : undefined}>
                {languageNames[code]}
              </a>
            </li>
          ))}
        </ul>
      </details>
    </nav>
  )
}
