import { useEffect, useState } from 'preact/hooks'
import type { Api } from '../dashboardApi'
import type { DashboardStrings } from '../strings'
import { Field, Outcome } from './Field'
import { KeyCells } from './KeyCells'
import { KeySecretOnce, type ShownKey } from './KeySecretOnce'
import { ListTable, RowAction } from './ListTable'
import { ownStudioPath } from './ownStudio'
import { Pager, usePages } from './Pager'
import { ScopeChoices } from './ScopeChoices'
import { useAction } from './useAction'
import { localDate, localMoment } from '../localFormat'

type ApiKey = { key_id: string; name: string; scopes: string[]; secret_hint: string; status: 'active' | 'revoked'; write_status: string; created_at: string; expires_at: string | null }
type AuditEvent = { id: string; key_id: string; event: string; method: string | null; path: string | null; client_name?: string | null; summary?: string | null; created_at: string }

const filters = ['all', 'active', 'pending_activation', 'revoked'] as const
const auditPageSize = 20

/**
 * The studio's API keys (SPEC 4.4): the list by status, a new key with its scopes said in plain
 * words, its secret shown once, a new secret (rotate) and revocation, each confirmed; and the audit
 * log, whose sampling of key uses is said as plainly as the API says it.
 */
export function ApiKeysView({ api, t }: { api: Api; t: DashboardStrings }) {
  const words = t.settings
  const [keys, setKeys] = useState<ApiKey[] | null>(null)
  const [filter, setFilter] = useState<(typeof filters)[number]>('all')
  const [shown, setShown] = useState<ShownKey | null>(null)

  const loadKeys = async (status = filter) => {
    const studio = await ownStudioPath(api)
    const answer = await api.json<{ keys: ApiKey[] }>('GET', `${studio}/api-keys${status === 'all' ? '' : `?status=${status}`}`)
    setKeys(answer.keys)
  }
  const audit = usePages(async (cursor) => {
    const studio = await ownStudioPath(api)
    const answer = await api.json<{ events: AuditEvent[]; next_cursor: string | null }>('GET', `${studio}/api-keys/audit-log?limit=${auditPageSize}${cursor ? `&cursor=${cursor}` : ''}`)
    return { items: answer.events, next: answer.next_cursor }
  })
  // after an action, the newest events first again: the one just caused is on the first page
  const action = useAction(() => Promise.all([loadKeys(), audit.show(true)]))
  const { act, busy, showProblem } = action
  useEffect(() => {
    Promise.all([loadKeys(), audit.show(true)]).catch(showProblem)
  }, [])

  function create(event: SubmitEvent) {
    event.preventDefault()
    const formElement = event.currentTarget as HTMLFormElement
    const form = new FormData(formElement)
    const days = String(form.get('expiresInDays') ?? '').trim()
    act(async () => {
      const studio = await ownStudioPath(api)
      const created = await api.json<ApiKey & { secret: string; activation_required: boolean }>('POST', `${studio}/api-keys`, {
        name: String(form.get('keyName') ?? '').trim(),
        scopes: form.getAll('scope').map(String),
        ...(days ? { expires_in_days: Number(days) } : {}),
      })
      formElement.reset()
      setShown({ heading: words.secretHeading(created.name), keyId: created.key_id, secret: created.secret, activationRequired: created.activation_required })
      return null
    })
  }
  function rotate(key: ApiKey) {
    act(
      async () => {
        const studio = await ownStudioPath(api)
        const rotated = await api.json<{ secret: string }>('POST', `${studio}/api-keys/${key.key_id}/rotate`)
        setShown({ heading: words.secretHeading(key.name), keyId: key.key_id, secret: rotated.secret, activationRequired: false })
        return null
      },
      { confirm: words.confirmRotate(key.name) },
    )
  }
  function revoke(key: ApiKey) {
    act(
      async () => {
        setShown(null)
        const studio = await ownStudioPath(api)
        await api.json('DELETE', `${studio}/api-keys/${key.key_id}`)
        return words.keyRevoked(key.name)
      },
      { confirm: words.confirmRevoke(key.name) },
    )
  }
  const keyName = (keyId: string) => keys?.find((key) => key.key_id === keyId)?.name ?? keyId
  const when = (iso: string) => localMoment(iso, t.lang)

  return (
    <>
      <h1>{t.keys}</h1>
      <p>{words.keysIntro}</p>
      <Outcome action={action} />
      {shown ? <KeySecretOnce shown={shown} t={t} onDone={() => setShown(null)} /> : null}
      <label for="key-filter">{words.keyFilter}</label>
      <select
        id="key-filter"
        class="narrow"
        value={filter}
        onChange={(event) => {
          const next = (event.currentTarget as HTMLSelectElement).value as (typeof filters)[number]
          setFilter(next)
          loadKeys(next).catch(showProblem)
        }}
      >
        {filters.map((name) => (
          <option key={name} value={name}>
            {words.keyFilters[name]}
          </option>
        ))}
      </select>
      <ListTable
        items={keys}
        empty={words.noKeys}
        label={t.keys}
        columns={[words.keyName, words.keyId, words.keyScopes, words.keyHint, t.status, words.keyExpires, t.actions]}
        t={t}
        row={(key) => (
          <tr key={key.key_id}>
            <td>{key.name}</td>
            <KeyCells apiKey={key} t={t} />
            <td>{key.expires_at ? localDate(key.expires_at, t.lang) : words.never}</td>
            <td>
              {key.status === 'active' ? (
                <div class="actions">
                  <RowAction busy={busy} onClick={() => rotate(key)}>
                    {words.rotateKey(key.name)}
                  </RowAction>
                  <RowAction busy={busy} onClick={() => revoke(key)}>
                    {words.revokeKey(key.name)}
                  </RowAction>
                </div>
              ) : null}
            </td>
          </tr>
        )}
      />

      <h2>{words.newKey}</h2>
      <form onSubmit={create}>
        <Field id="keyName" label={words.keyName} required maxLength={100} />
        <ScopeChoices t={t} prefix="scope" />
        <Field id="expiresInDays" label={words.expiresIn} type="number" min={1} max={365} inputMode="numeric" />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {words.createKey}
          </button>
        </div>
      </form>

      <h2>{words.auditHeading}</h2>
      <p>{words.auditSampling}</p>
      <ListTable
        items={audit.items}
        empty={words.noAudit}
        label={words.auditHeading}
        columns={[words.auditWhen, words.auditEvent, words.auditKey, words.auditRequest]}
        t={t}
        row={(event) => (
          <tr key={event.id}>
            <td>{when(event.created_at)}</td>
            <td>{words.auditEvents[event.event] ?? event.event}</td>
            <td>{event.client_name ?? keyName(event.key_id)}</td>
            <td class="share">{event.summary ?? (event.method ? `${event.method} ${event.path ?? ''}` : '')}</td>
          </tr>
        )}
      />
      <Pager label={words.auditHeading} pager={audit.pager} onProblem={showProblem} t={t} />
    </>
  )
}
