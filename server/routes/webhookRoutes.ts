import * as z from 'zod/mini'
import {
  createdWebhookEndpointResponseSchema,
  createWebhookEndpointRequestSchema,
  deletedWebhookEndpointResponseSchema,
  rotatedWebhookSecretResponseSchema,
  webhookEndpointListResponseSchema,
  defaultWebhookEventTypes,
} from '../../shared/webhookWire'
import { hasCode } from '../../shared/codedError'
import { HttpError, ValidationError } from '../http/httpError'
import type { WebhookEndpoint, WebhookEndpointStore } from '../store/webhookEndpointStore'
import { verifyWebhookUrl, type HostLookup } from '../webhooks/verifyWebhookUrl'
import { perClientLimit } from '../http/perClientLimit'
import { apiRoute } from './apiRoute'

export type WebhookEndpointsDependencies = {
  endpoints: WebhookEndpointStore
  /** WEBHOOK_ALLOW_PRIVATE_URLS. */
  allowPrivateUrls: boolean
  lookup?: HostLookup
}

/** Absent only where no route runs (a document of the routes). */
export type WebhookRoutesDependencies = { webhooks?: WebhookEndpointsDependencies }

/** Enough for a merchant's environments and services; a bound on what one studio makes us send. */
export const maxEndpointsPerStudio = 16

/** A secret is a bearer credential: no cache may keep an answer that carries one. */
const noStore = { 'Cache-Control': 'no-store' }
const merchantErrors = ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'] as const
const endpointParams = z.object({ id: z.string().check(z.maxLength(64)) })

function webhooksOf(dependencies: WebhookRoutesDependencies): WebhookEndpointsDependencies {
  if (!dependencies.webhooks) throw new Error('the webhook routes are mounted without their store')
  return dependencies.webhooks
}

function toWire(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    status: endpoint.failingSince ? ('failing' as const) : ('active' as const),
    failingSince: endpoint.failingSince?.toISOString() ?? null,
    createdAt: endpoint.createdAt.toISOString(),
  }
}

const notFound = () => new HttpError(404, 'NOT_FOUND', 'no webhook endpoint with this id in your studio')

const webhookRoute = apiRoute<WebhookRoutesDependencies>()

/** The webhook endpoints' routes', one count per client across them. */
const webhooksLimit = perClientLimit('webhooks', (settings) => settings.perMinute)

/**
 * Webhook endpoints, an extension of SPEC 4.12 beside it: the caller's studio's receivers of the
 * registry's events for its vault (docs/webhooks.md). Another studio's endpoint is a 404 like a
 * missing one.
 */
export const webhookRoutes = [
  webhookRoute({
    method: 'post',
    path: '/v1/webhook-endpoints',
    summary: 'Register a webhook endpoint',
    description:
      "Events from the chain (invoice.paid, invoice.canceled, and invoice.refunded when asked for by name) for invoices whose merchant is the studio's vault, signed as Standard Webhooks specifies with the secret in this answer, which is shown once. The URL must be https and resolve to public addresses only (http and private addresses where WEBHOOK_ALLOW_PRIVATE_URLS allows them, as on the devnet).",
    auth: 'merchant',
    cors: 'none',
    rateLimits: [webhooksLimit],
    scope: 'invoice:write',
    body: createWebhookEndpointRequestSchema,
    response: { status: 201, schema: createdWebhookEndpointResponseSchema, description: 'The endpoint and its signing secret, shown once.', headers: noStore },
    errors: merchantErrors,
    async handle({ body }, dependencies, c) {
      const webhooks = webhooksOf(dependencies)
      const { studio } = c.get('principal')
      try {
        await verifyWebhookUrl(body.url, { allowPrivate: webhooks.allowPrivateUrls, ...(webhooks.lookup ? { lookup: webhooks.lookup } : {}) })
      } catch (error) {
        if (hasCode(error, 'WEBHOOK_URL_REFUSED')) throw new ValidationError([{ path: 'body.url', message: error.message }])
        throw error
      }
      // an event says which invoice was paid, by whom and how much: it crosses the internet encrypted.
      // Plain http is for the loopback and private receivers a devnet allows, never on the way out.
      if (!webhooks.allowPrivateUrls && new URL(body.url).protocol !== 'https:') {
        throw new ValidationError([{ path: 'body.url', message: 'the webhook URL must be https: events say who paid what, and are not sent over the internet in the clear' }])
      }
      const events = body.events ?? [...defaultWebhookEventTypes]
      let created
      try {
        created = await webhooks.endpoints.createEndpoint({ studioId: studio.id, url: body.url, events, limit: maxEndpointsPerStudio })
      } catch (error) {
        if (hasCode(error, 'WEBHOOK_ENDPOINT_LIMIT')) throw new ValidationError([{ path: 'body.url', message: error.message }])
        throw error
      }
      const { endpoint, secret } = created
      return { id: endpoint.id, url: endpoint.url, events: endpoint.events, secret, createdAt: endpoint.createdAt.toISOString() }
    },
  }),
  webhookRoute({
    method: 'get',
    path: '/v1/webhook-endpoints',
    summary: "The studio's webhook endpoints, without their secrets",
    auth: 'merchant',
    cors: 'none',
    rateLimits: [webhooksLimit],
    scope: 'invoice:read',
    response: { status: 200, schema: webhookEndpointListResponseSchema, description: 'Every endpoint, oldest first, with whether it is failing.' },
    errors: merchantErrors,
    async handle(_, dependencies, c) {
      const endpoints = await webhooksOf(dependencies).endpoints.listEndpoints(c.get('principal').studio.id)
      return { endpoints: endpoints.map(toWire) }
    },
  }),
  webhookRoute({
    method: 'delete',
    path: '/v1/webhook-endpoints/:id',
    summary: 'Delete a webhook endpoint',
    description: 'Its secrets are erased and what it had still to receive is not sent.',
    auth: 'merchant',
    cors: 'none',
    rateLimits: [webhooksLimit],
    scope: 'invoice:write',
    params: endpointParams,
    response: { status: 200, schema: deletedWebhookEndpointResponseSchema, description: 'Deleted.' },
    errors: merchantErrors,
    async handle({ params: { id } }, dependencies, c) {
      if (!(await webhooksOf(dependencies).endpoints.deleteEndpoint(c.get('principal').studio.id, id))) throw notFound()
      return { id, deleted: true as const }
    },
  }),
  webhookRoute({
    method: 'post',
    path: '/v1/webhook-endpoints/:id/rotate-secret',
    summary: "Replace a webhook endpoint's signing secret",
    description:
      'The new secret is in this answer, shown once. For 24 hours deliveries carry a v1 signature under the secret it replaces as well as under the new one, so a receiver can switch without missing an event. At most these two sign: rotating again within the 24 hours erases the older of them at once.',
    auth: 'merchant',
    cors: 'none',
    rateLimits: [webhooksLimit],
    scope: 'invoice:write',
    params: endpointParams,
    response: { status: 200, schema: rotatedWebhookSecretResponseSchema, description: 'The new secret, shown once.', headers: noStore },
    errors: merchantErrors,
    async handle({ params: { id } }, dependencies, c) {
      const rotated = await webhooksOf(dependencies).endpoints.rotateSecret(c.get('principal').studio.id, id)
      if (!rotated) throw notFound()
      return { id, secret: rotated.secret, previousSecretExpiresAt: rotated.previousExpiresAt.toISOString() }
    },
  }),
]
