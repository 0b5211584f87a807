import { useEffect, useState } from 'preact/hooks'
import type { Api } from '../dashboardApi'
import type { DashboardStrings } from '../strings'
import { errorText, Notice, Problem } from './Field'
import { ownStudioPath } from './ownStudio'
import { localMoment, localMoney } from '../localFormat'
import { pinned } from '../../src/config/pinned'

type Connection = { id: string; client_name: string; door: 'mcp' | 'cli'; scopes: string[]; limits: { max_invoice: string; invoices_per_day: number } | null; created_at: string }

/** The largest invoice, base units in the API, read in the deployment token's amounts, as it was typed at consent. */
const largestInvoice = (baseUnits: string, lang: string) => localMoney(baseUnits, lang, { decimals: pinned.tokenDecimals, symbol: pinned.tokenSymbol })

/**
 * The CLIs and AI agents the owner allowed to act for the studio (issue 36, the OAuth connections):
 * who, through which door, with which scopes and consent-time limits, and Revoke, after which the
 * app's next request is refused.
 */
export function ConnectionsView({ api, t }: { api: Api; t: DashboardStrings }) {
  const words = t.settings
  const [connections, setConnections] = useState<Connection[] | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const load = async () => {
    const studio = await ownStudioPath(api)
    setConnections((await api.json<{ connections: Connection[] }>('GET', `${studio}/oauth-connections`)).connections)
  }
  useEffect(() => void load().catch((error: unknown) => setProblem(errorText(error))), [])

  async function revoke(connection: Connection) {
    if (!confirm(words.confirmRevokeConnection(connection.client_name))) return
    setBusy(true)
    setProblem(null)
    setNotice(null)
    try {
      const studio = await ownStudioPath(api)
      await api.json('DELETE', `${studio}/oauth-connections/${connection.id}`)
      setNotice(words.connectionRevoked(connection.client_name))
      await load()
    } catch (error) {
      setProblem(errorText(error))
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <h1>{t.connections}</h1>
      <p>{words.connectionsIntro}</p>
      <Problem message={problem} />
      <Notice message={notice} />
      {connections === null ? (
        <p>{t.loading}</p>
      ) : connections.length === 0 ? (
        <p>{words.noConnections}</p>
      ) : (
        <div class="table" role="region" aria-label={t.table(t.connections)} tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{words.client}</th>
                <th scope="col">{words.door}</th>
                <th scope="col">{words.keyScopes}</th>
                <th scope="col">{words.limits}</th>
                <th scope="col">{words.connected}</th>
                <th scope="col">{t.actions}</th>
              </tr>
            </thead>
            <tbody>
              {connections.map((connection) => (
                <tr key={connection.id}>
                  <td>{connection.client_name}</td>
                  <td>{words.doors[connection.door] ?? connection.door}</td>
                  <td>{connection.scopes.join(', ')}</td>
                  <td>{connection.limits ? words.limitText(largestInvoice(connection.limits.max_invoice, t.lang), connection.limits.invoices_per_day) : words.noLimits}</td>
                  <td>{localMoment(connection.created_at, t.lang)}</td>
                  <td>
                    <button type="button" class="secondary" disabled={busy} onClick={() => void revoke(connection)}>
                      {words.revokeConnection(connection.client_name)}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  )
}
