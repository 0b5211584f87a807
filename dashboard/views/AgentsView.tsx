import { useEffect, useState } from 'preact/hooks'
import type { Api } from '../dashboardApi'
import type { DashboardStrings } from '../strings'
import { errorText, Field, Notice, Problem } from './Field'
import { ownStudioPath } from './ownStudio'
import { ScopeChoices } from './ScopeChoices'
import { SecretOnce } from './SecretOnce'

type Agent = { id: string; name: string; description: string | null; icon: string; scopes: string[]; status: 'active' | 'disabled'; linked_keys: number; created_at: string }
type AgentKey = { key_id: string; name: string; scopes: string[]; secret_hint: string; status: string; write_status: string; expires_at: string | null }
type NewKey = { api_key: { key_id: string; name: string; secret: string }; activation_required: boolean }
type Shown = { heading: string; keyId: string; secret: string; activationRequired: boolean }

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
  const [shown, setShown] = useState<Shown | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const base = async () => `${await ownStudioPath(api)}/agents`
  const load = async () => setAgents((await api.json<{ agents: Agent[] }>('GET', await base())).agents)
  const loadKeys = async (agent: Agent) => setOpen({ agent, keys: (await api.json<{ keys: AgentKey[] }>('GET', `${await base()}/${agent.id}/keys`)).keys })
  useEffect(() => void load().catch((error: unknown) => setProblem(errorText(error))), [])

  async function act(work: () => Promise<string | null>) {
    setBusy(true)
    setProblem(null)
    setNotice(null)
    try {
      setNotice(await work())
      await load()
    } catch (error) {
      setProblem(errorText(error))
    } finally {
      setBusy(false)
    }
  }
  const reveal = (heading: string, created: NewKey) =>
    setShown({ heading, keyId: created.api_key.key_id, secret: created.api_key.secret, activationRequired: created.activation_required })

  function create(event: SubmitEvent) {
    event.preventDefault()
    const formElement = event.currentTarget as HTMLFormElement
    const form = new FormData(formElement)
    void act(async () => {
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
    void act(async () => {
      await api.json('PATCH', `${await base()}/${agent.id}`, { status })
      return status === 'disabled' ? words.disabled(agent.name) : words.enabled(agent.name)
    })
  }
  function remove(agent: Agent) {
    if (!confirm(words.confirmRemove(agent.name))) return
    setShown(null)
    if (open?.agent.id === agent.id) setOpen(null)
    void act(async () => {
      const { keys_revoked } = await api.json<{ keys_revoked: number }>('DELETE', `${await base()}/${agent.id}`)
      return words.removed(agent.name, keys_revoked)
    })
  }
  function newKey(event: SubmitEvent, agent: Agent) {
    event.preventDefault()
    const formElement = event.currentTarget as HTMLFormElement
    const form = new FormData(formElement)
    void act(async () => {
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
      <Problem message={problem} />
      <Notice message={notice} />
      {shown ? (
        <SecretOnce heading={shown.heading} secret={shown.secret} t={t} onDone={() => setShown(null)}>
          <p>
            {t.settings.keyId}: <code data-key-id>{shown.keyId}</code>
          </p>
          {shown.activationRequired ? <p class="alert">{t.settings.activationRequired}</p> : null}
        </SecretOnce>
      ) : null}
      {agents === null ? (
        <p>{t.loading}</p>
      ) : agents.length === 0 ? (
        <p>{words.noAgents}</p>
      ) : (
        <div class="table" role="region" aria-label={t.table(t.agents)} tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t.settings.keyName}</th>
                <th scope="col">{words.icon}</th>
                <th scope="col">{t.status}</th>
                <th scope="col">{words.keysHeld}</th>
                <th scope="col">{t.actions}</th>
              </tr>
            </thead>
            <tbody>
              {agents.map((agent) => (
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
                      <button type="button" class="secondary" disabled={busy} onClick={() => void loadKeys(agent).catch((error: unknown) => setProblem(errorText(error)))}>
                        {words.showKeys(agent.name)}
                      </button>
                      <button type="button" class="secondary" disabled={busy} onClick={() => setStatus(agent, agent.status === 'active' ? 'disabled' : 'active')}>
                        {agent.status === 'active' ? words.disable(agent.name) : words.enable(agent.name)}
                      </button>
                      <button type="button" class="secondary" disabled={busy} onClick={() => remove(agent)}>
                        {words.remove(agent.name)}
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {open ? (
        <section aria-labelledby="agent-keys">
          <h2 id="agent-keys">{words.keysOf(open.agent.name)}</h2>
          <div class="table" role="region" aria-label={t.table(words.keysOf(open.agent.name))} tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t.settings.keyId}</th>
                  <th scope="col">{t.settings.keyScopes}</th>
                  <th scope="col">{t.settings.keyHint}</th>
                  <th scope="col">{t.status}</th>
                </tr>
              </thead>
              <tbody>
                {open.keys.map((key) => (
                  <tr key={key.key_id}>
                    <td>
                      <code>{key.key_id}</code>
                    </td>
                    <td>{key.scopes.join(', ')}</td>
                    <td>
                      <code>{key.secret_hint}</code>
                    </td>
                    <td>{t.settings.keyFilters[key.write_status] ?? key.write_status}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
