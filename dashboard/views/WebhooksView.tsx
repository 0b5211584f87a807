import { useEffect, useState } from 'preact/hooks'
import { defaultWebhookEventTypes, webhookEventTypes } from '../../shared/webhookWire'
import type { Api } from '../dashboardApi'
import type { DashboardStrings } from '../strings'
import { errorText, Field, Notice, Problem } from './Field'
import { SecretOnce } from './SecretOnce'
import { localMoment } from '../localFormat'

type Endpoint = { id: string; url: string; events: string[]; status: 'active' | 'failing'; failingSince: string | null; createdAt: string }

/**
 * The studio's webhook endpoints through the API's own webhook routes (docs/webhooks.md), which take
 * the owner's token as they take a key: the list with each endpoint's state, a new one with the
 * events it receives, its signing secret shown once, a new secret, and deletion, confirmed.
 */
export function WebhooksView({ api, t }: { api: Api; t: DashboardStrings }) {
  const words = t.settings
  const [endpoints, setEndpoints] = useState<Endpoint[] | null>(null)
  const [shown, setShown] = useState<{ heading: string; secret: string; note?: string } | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const load = () => api.json<{ endpoints: Endpoint[] }>('GET', '/v1/webhook-endpoints').then((answer) => setEndpoints(answer.endpoints))
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
  function add(event: SubmitEvent) {
    event.preventDefault()
    const formElement = event.currentTarget as HTMLFormElement
    const form = new FormData(formElement)
    void act(async () => {
      const created = await api.json<{ url: string; secret: string }>('POST', '/v1/webhook-endpoints', {
        url: String(form.get('endpointUrl') ?? '').trim(),
        events: form.getAll('event').map(String),
      })
      formElement.reset()
      setShown({ heading: words.endpointSecretHeading(created.url), secret: created.secret })
      return words.endpointAdded(created.url)
    })
  }
  function rotate(endpoint: Endpoint) {
    void act(async () => {
      const rotated = await api.json<{ secret: string; previousSecretExpiresAt: string }>('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`)
      setShown({ heading: words.endpointSecretHeading(endpoint.url), secret: rotated.secret, note: words.endpointRotated(localMoment(rotated.previousSecretExpiresAt, t.lang)) })
      return null
    })
  }
  function remove(endpoint: Endpoint) {
    if (!confirm(words.confirmDeleteEndpoint(endpoint.url))) return
    setShown(null)
    void act(async () => {
      await api.json('DELETE', `/v1/webhook-endpoints/${endpoint.id}`)
      return words.endpointDeleted(endpoint.url)
    })
  }

  return (
    <>
      <h1>{t.webhooks}</h1>
      <p>{words.webhooksIntro}</p>
      <Problem message={problem} />
      <Notice message={notice} />
      {shown ? (
        <SecretOnce heading={shown.heading} secret={shown.secret} t={t} onDone={() => setShown(null)}>
          {shown.note ? <p>{shown.note}</p> : null}
        </SecretOnce>
      ) : null}
      {endpoints === null ? (
        <p>{t.loading}</p>
      ) : endpoints.length === 0 ? (
        <p>{words.noEndpoints}</p>
      ) : (
        <div class="table" role="region" aria-label={t.table(t.webhooks)} tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{words.endpointUrl}</th>
                <th scope="col">{words.endpointEvents}</th>
                <th scope="col">{words.endpointState}</th>
                <th scope="col">{t.actions}</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map((endpoint) => (
                <tr key={endpoint.id}>
                  <td class="share">{endpoint.url}</td>
                  <td>{endpoint.events.join(', ')}</td>
                  <td>
                    {endpoint.status === 'failing' && endpoint.failingSince
                      ? `${words.endpointStates.failing} ${localMoment(endpoint.failingSince, t.lang)}`
                      : words.endpointStates.active}
                  </td>
                  <td>
                    <div class="actions">
                      <button type="button" class="secondary" disabled={busy} onClick={() => rotate(endpoint)}>
                        {words.rotateEndpoint(endpoint.url)}
                      </button>
                      <button type="button" class="secondary" disabled={busy} onClick={() => remove(endpoint)}>
                        {words.deleteEndpoint(endpoint.url)}
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2>{words.newEndpoint}</h2>
      <form onSubmit={add}>
        <Field id="endpointUrl" label={words.endpointUrlLabel} type="url" required maxLength={2048} placeholder="https://" />
        <fieldset>
          <legend>{words.eventsLegend}</legend>
          {webhookEventTypes.map((type) => (
            <div class="check" key={type}>
              <input type="checkbox" id={`event-${type}`} name="event" value={type} defaultChecked={(defaultWebhookEventTypes as readonly string[]).includes(type)} />
              <label for={`event-${type}`}>
                <code>{type}</code>: {words.eventText[type]}
              </label>
            </div>
          ))}
        </fieldset>
        <div class="actions">
          <button type="submit" disabled={busy}>
            {words.addEndpoint}
          </button>
        </div>
      </form>
    </>
  )
}
