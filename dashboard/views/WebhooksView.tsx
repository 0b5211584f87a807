import { useEffect, useState } from 'preact/hooks'
import { defaultWebhookEventTypes, webhookEventTypes } from '../../shared/webhookWire'
import type { Api } from '../dashboardApi'
import type { DashboardStrings } from '../strings'
import { Field, Outcome } from './Field'
import { ListTable, RowAction } from './ListTable'
import { SecretOnce } from './SecretOnce'
import { useAction } from './useAction'
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
  const load = () => api.json<{ endpoints: Endpoint[] }>('GET', '/v1/webhook-endpoints').then((answer) => setEndpoints(answer.endpoints))
  const action = useAction(load)
  const { act, busy } = action
  useEffect(() => void load().catch(action.showProblem), [])

  function add(event: SubmitEvent) {
    event.preventDefault()
    const formElement = event.currentTarget as HTMLFormElement
    const form = new FormData(formElement)
    act(async () => {
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
    act(async () => {
      const rotated = await api.json<{ secret: string; previousSecretExpiresAt: string }>('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`)
      setShown({ heading: words.endpointSecretHeading(endpoint.url), secret: rotated.secret, note: words.endpointRotated(localMoment(rotated.previousSecretExpiresAt, t.lang)) })
      return null
    })
  }
  function remove(endpoint: Endpoint) {
    act(
      async () => {
        setShown(null)
        await api.json('DELETE', `/v1/webhook-endpoints/${endpoint.id}`)
        return words.endpointDeleted(endpoint.url)
      },
      { confirm: words.confirmDeleteEndpoint(endpoint.url) },
    )
  }

  return (
    <>
      <h1>{t.webhooks}</h1>
      <p>{words.webhooksIntro}</p>
      <Outcome action={action} />
      {shown ? (
        <SecretOnce heading={shown.heading} secret={shown.secret} t={t} onDone={() => setShown(null)}>
          {shown.note ? <p>{shown.note}</p> : null}
        </SecretOnce>
      ) : null}
      <ListTable
        items={endpoints}
        empty={words.noEndpoints}
        label={t.webhooks}
        columns={[words.endpointUrl, words.endpointEvents, words.endpointState, t.actions]}
        t={t}
        row={(endpoint) => (
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
                <RowAction busy={busy} onClick={() => rotate(endpoint)}>
                  {words.rotateEndpoint(endpoint.url)}
                </RowAction>
                <RowAction busy={busy} onClick={() => remove(endpoint)}>
                  {words.deleteEndpoint(endpoint.url)}
                </RowAction>
              </div>
            </td>
          </tr>
        )}
      />

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
