import { useEffect, useState } from 'preact/hooks'
import type { Api } from '../dashboardApi'
import type { DashboardStrings } from '../strings'
import { Field, Outcome } from './Field'
import { KeyCells } from './KeyCells'
import { KeySecretOnce, type ShownKey } from './KeySecretOnce'
import { ListTable, RowAction } from './ListTable'
import { ownStudioPath } from './ownStudio'
import { ScopeChoices } from './ScopeChoices'
import { useAction } from './useAction'

type Agent = { id: string; name: string; description: string | null; icon: string; scopes: string[]; status: 'active' | 'disabled'; linked_keys: number; created_at: string }
type AgentKey = { key_id: string; name: string; scopes: string[]; secret_hint: string; status: string; write_status: string; expires_at: string | null }
type NewKey = { api_key: { key_id: string; name: string; secret: string }; activation_required: boolean }

/** A scope list and an expiry as the agent and key routes take them, from a form. */
function keyRequest(form: FormData) {
  const days = String(form.get('expiresInDays') ?? '').trim()
  return { scopes: form.getAll('scope').map(String), ...(days ? { expires_in_days: Number(days) } : {}) }
}

/**
 * The studio's agents (SPEC 4.6): each named, with an icon, holding keys of its own. Created with
 * its first key (the secret shown once), disabled and enabled as a whole, deleted with its keys
 * revoked (the page says how many), and its keys listed, with another made on demand.
 */
export function AgentsView({ api, t }: { api: Api; t: DashboardStrings }) {
  const words = t.agentsPage
  const [agents, setAgents] = useState<Agent[] | null>(null)
  const [open, setOpen] = useState<{ agent: Agent; keys: AgentKey[] } | null>(null)
  const [shown, setShown] = useState<ShownKey | null>(null)
  const base = async () => `${await ownStudioPath(api)}/agents`
  const load = async () => setAgents((await api.json<{ agents: Agent[] }>('GET', await base())).agents)
  const loadKeys = async (agent: Agent) => setOpen({ agent, keys: (await api.json<{ keys: AgentKey[] }>('GET', `${await base()}/${agent.id}/keys`)).keys })
  const action = useAction(load)
  const { act, busy } = action
  useEffect(() => void load().catch(action.showProblem), [])

  const reveal = (heading: string, created: NewKey) =>
    setShown({ heading, keyId: created.api_key.key_id, secret: created.api_key.secret, activationRequired: created.activation_required })

  function create(event: SubmitEvent) {
    event.preventDefault()
    const formElement = event.currentTarget as HTMLFormElement
    const form = new FormData(formElement)
    act(async () => {
      const description = String(form.get('agentDescription') ?? '').trim()
      const created = await api.json<NewKey & { agent: Agent }>('POST', await base(), {
        name: String(form.get('agentName') ?? '').trim(),
        icon: String(form.get('agentIcon') ?? 'bot'),
        ...(description ? { description } : {}),
        ...keyRequest(form),
      })
      formElement.reset()
      reveal(t.settings.secretHeading(created.agent.name), created)
      return words.agentCreated(created.agent.name)
    })
  }
  function setStatus(agent: Agent, status: Agent['status']) {
    act(async () => {
      await api.json('PATCH', `${await base()}/${agent.id}`, { status })
      return status === 'disabled' ? words.disabled(agent.name) : words.enabled(agent.name)
    })
  }
  function remove(agent: Agent) {
    act(
      async () => {
        setShown(null)
        if (open?.agent.id === agent.id) setOpen(null)
        const { keys_revoked } = await api.json<{ keys_revoked: number }>('DELETE', `${await base()}/${agent.id}`)
        return words.removed(agent.name, keys_revoked)
      },
      { confirm: words.confirmRemove(agent.name) },
    )
  }
  function newKey(event: SubmitEvent, agent: Agent) {
    event.preventDefault()
    const formElement = event.currentTarget as HTMLFormElement
    const form = new FormData(formElement)
    act(async () => {
      const created = await api.json<NewKey>('POST', `${await base()}/${agent.id}/keys`, keyRequest(form))
      formElement.reset()
      reveal(t.settings.secretHeading(agent.name), created)
      await loadKeys(agent)
      return null
    })
  }

  return (
    <>
      <h1>{t.agents}</h1>
      <p>{words.intro}</p>
      <Outcome action={action} />
      {shown ? <KeySecretOnce shown={shown} t={t} onDone={() => setShown(null)} /> : null}
      <ListTable
        items={agents}
        empty={words.noAgents}
        label={t.agents}
        columns={[t.settings.keyName, words.icon, t.status, words.keysHeld, t.actions]}
        t={t}
        row={(agent) => (
          <tr key={agent.id}>
            <td>
              {agent.name}
              {agent.description ? <div>{agent.description}</div> : null}
            </td>
            <td>{words.icons[agent.icon] ?? agent.icon}</td>
            <td>{words.statuses[agent.status] ?? agent.status}</td>
            <td>{agent.linked_keys}</td>
            <td>
              <div class="actions">
                <RowAction busy={busy} onClick={() => void loadKeys(agent).catch(action.showProblem)}>
                  {words.showKeys(agent.name)}
                </RowAction>
                <RowAction busy={busy} onClick={() => setStatus(agent, agent.status === 'active' ? 'disabled' : 'active')}>
                  {agent.status === 'active' ? words.disable(agent.name) : words.enable(agent.name)}
                </RowAction>
                <RowAction busy={busy} onClick={() => remove(agent)}>
                  {words.remove(agent.name)}
                </RowAction>
              </div>
            </td>
          </tr>
        )}
      />

      {open ? (
        <section aria-labelledby="agent-keys">
          <h2 id="agent-keys">{words.keysOf(open.agent.name)}</h2>
          <ListTable
            items={open.keys}
            label={words.keysOf(open.agent.name)}
            columns={[t.settings.keyId, t.settings.keyScopes, t.settings.keyHint, t.status]}
            t={t}
            row={(key) => (
              <tr key={key.key_id}>
                <KeyCells apiKey={key} t={t} />
              </tr>
            )}
          />
          <form onSubmit={(event) => newKey(event, open.agent)}>
            <h3>{words.newKeyHeading(open.agent.name)}</h3>
            <ScopeChoices t={t} prefix="agent-key-scope" />
            <Field id="agentKeyExpiresInDays" name="expiresInDays" label={t.settings.expiresIn} type="number" min={1} max={365} inputMode="numeric" />
            <div class="actions">
              <button type="submit" disabled={busy}>
                {words.newKeyFor(open.agent.name)}
              </button>
            </div>
          </form>
        </section>
      ) : null}

      <h2>{words.newAgent}</h2>
      <form onSubmit={create}>
        <Field id="agentName" label={t.settings.keyName} required maxLength={64} />
        <Field id="agentDescription" label={words.description} maxLength={256} />
        <label for="agentIcon">{words.icon}</label>
        <select id="agentIcon" name="agentIcon" class="narrow">
          {Object.entries(words.icons).map(([icon, label]) => (
            <option key={icon} value={icon}>
              {label}
            </option>
          ))}
        </select>
        <ScopeChoices t={t} prefix="agent-scope" />
        <Field id="expiresInDays" label={t.settings.expiresIn} type="number" min={1} max={365} inputMode="numeric" />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {words.createAgent}
          </button>
        </div>
      </form>
    </>
  )
}
