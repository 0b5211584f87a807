import { languageCodes, languageNames, type Language } from '../../src/ui/languages'
import type { DashboardStrings } from '../strings'

/** The visible language switch: each language named in itself, so a merchant who landed in a language
 * they cannot read still finds their own; the choice is kept for the next visit. */
export function LanguageSwitch({ t, onChoose }: { t: DashboardStrings; onChoose: (language: Language) => void }) {
  return (
    <div class="language">
      <label for="dashboard-language">{t.language}</label>
      <select id="dashboard-language" value={t.lang} onChange={(event) => onChoose((event.currentTarget as HTMLSelectElement).value as Language)}>
        {languageCodes.map((code) => (
          <option key={code} value={code} lang={code}>
            {languageNames[code]}
          </option>
        ))}
      </select>
    </div>
  )
}
