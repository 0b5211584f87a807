import { languageCodes, languageNames, type Language } from '../languages'
import { queryWithLanguage, type PageParams } from './pageParams'

export type LanguageSwitchProps = {
  /** The page's language, in its own words. */
  current: Language
  /** Its label ("Language"), in the page's language. */
  label: string
  /** What each link keeps of the share link: the token above all, and how the page is framed. */
  params: Pick<PageParams, 'token' | 'embed' | 'theme' | 'locale'> & { layout?: PageParams['layout'] | undefined }
}

/** The page's languages, each named in itself, as plain links: the server renders it outside the
 * app's element, so it works with no script at all and costs the page's scripts nothing. A link
 * keeps the token; the server remembers the pick in a cookie for the payer's next share link. */
export function LanguageSwitch({ current, label, params }: LanguageSwitchProps) {
  return (
    <nav class="svc-lang" aria-label={label}>
      <details>
        <summary>
          {/* a globe drawn in the page: no emoji font is needed to see what the switch is */}
          <svg class="svc-globe" aria-hidden="true" viewBox="0 0 16 16" width="16" height="16">
            <circle cx="8" cy="8" r="7" />
            <path d="M1 8h14M8 1c-3 3-3 11 0 14M8 1c3 3 3 11 0 14" />
          </svg>{' '}
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
