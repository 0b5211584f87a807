import type { DashboardStrings } from '../strings'

/** The scopes a new key may hold, each a checkbox named by its scope and said in plain words; the
 * form reads them as its `scope` values. `prefix` keeps the ids apart where two forms share a page. */
export function ScopeChoices({ t, prefix }: { t: DashboardStrings; prefix: string }) {
  return (
    <fieldset>
      <legend>{t.settings.scopesLegend}</legend>
      {Object.entries(t.settings.scopeText).map(([scope, text]) => (
        <div class="check" key={scope}>
          <input type="checkbox" id={`${prefix}-${scope}`} name="scope" value={scope} />
          <label for={`${prefix}-${scope}`}>
            <code>{scope}</code>: {text}
          </label>
        </div>
      ))}
    </fieldset>
  )
}
