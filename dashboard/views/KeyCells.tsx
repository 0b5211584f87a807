import type { DashboardStrings } from '../strings'

type ListedKey = { key_id: string; scopes: string[]; secret_hint: string; write_status: string }

/** A key's id, scopes, secret hint and whether it can write, as every list of keys shows them in a
 * row (the studio's keys, an agent's). */
export function KeyCells({ apiKey, t }: { apiKey: ListedKey; t: DashboardStrings }) {
  return (
    <>
      <td>
        <code>{apiKey.key_id}</code>
      </td>
      <td>{apiKey.scopes.join(', ')}</td>
      <td>
        <code>{apiKey.secret_hint}</code>
      </td>
      <td>{t.settings.keyFilters[apiKey.write_status] ?? apiKey.write_status}</td>
    </>
  )
}
