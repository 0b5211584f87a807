import * as z from 'zod'
import { errorResponseSchema } from '../../shared/wire'
import { invoiceCanceledEventSchema, invoicePaidEventSchema, invoiceRefundedEventSchema } from '../../shared/webhookWire'
import type { RouteDescription } from '../routes/apiRoute'
import { idempotencyKeyHeader } from '../merchant/idempotency/idempotencyKey'

/** A JSON Schema of a wire schema, as a client sends it (`input`) or reads it (`output`). */
function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output') {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>
  return rest
}

/** Hono's `/v1/pay/:id` is OpenAPI's `/v1/pay/{id}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}')

/** Path or query parameters, one per property of the route's params or query schema. */
function parametersOf(schema: z.core.$ZodType | undefined, place: 'path' | 'query') {
  if (!schema) return []
  const { properties = {}, required = [] } = jsonSchema(schema, 'input') as { properties?: Record<string, { description?: string }>; required?: string[] }
  return Object.entries(properties).map(([name, { description, ...property }]) => ({
    name,
    in: place,
    required: place === 'path' || required.includes(name),
    ...(description ? { description } : {}),
    schema: property,
  }))
}

const json = (schema: Record<string, unknown>) => ({ 'application/json': { schema } })

/** SPEC 7.4.1's header, on every route that answers its codes. Whether it is required is the
 * deployment's (IDEMPOTENCY_KEY_REQUIRED): the document says so rather than guess. */
const idempotencyKeyParameter = {
  name: idempotencyKeyHeader,
  in: 'header',
  required: false,
  description:
    'Names the operation: a new random value (a UUID) per new invoice, the same value with the same body to retry it or follow a 202. 1 to 128 visible ASCII characters, no spaces. Required unless the deployment sets IDEMPOTENCY_KEY_REQUIRED=false (unset: required outside production).',
  schema: { type: 'string', pattern: '^[!-~]{1,128}$' },
}

/** What the server POSTs to a merchant's webhook endpoint (docs/webhooks.md), as OpenAPI 3.1 webhooks. */
function webhooks() {
  const headers = [
    { name: 'webhook-id', description: 'The event\'s id, the same on every retry: deduplicate on it.' },
    { name: 'webhook-timestamp', description: "This attempt's time, Unix seconds." },
    { name: 'webhook-signature', description: 'Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` under the endpoint secret; two, space-separated, for 24 h after a rotation.' },
  ].map((header) => ({ ...header, in: 'header', required: true, schema: { type: 'string' } }))
  const event = (summary: string, schema: z.core.$ZodType) => ({
    post: {
      summary,
      parameters: headers,
      requestBody: { required: true, content: json(jsonSchema(schema, 'output')) },
      responses: { '2XX': { description: 'Received. Anything else (a redirect too) is retried with the same webhook-id, for up to three days.' } },
    },
  })
  return {
    'invoice.paid': event("The registry's InvoicePaid for an invoice of the endpoint's studio, once its block has WEBHOOK_CONFIRMATIONS", invoicePaidEventSchema),
    'invoice.canceled': event("The registry's InvoiceCanceled for an invoice of the endpoint's studio", invoiceCanceledEventSchema),
    'invoice.refunded': event("The registry's InvoiceRefunded for an invoice of the endpoint's studio: sent only to endpoints that list it in their events", invoiceRefundedEventSchema),
  }
}

/** OpenAPI 3.1 for the JSON API, generated from the route table and the wire schemas themselves. */
export function openApiDocument(routes: readonly RouteDescription[], { version }: { version: string }) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const parameters = [
      ...parametersOf(route.params, 'path'),
      ...parametersOf(route.query, 'query'),
      ...(route.errors.includes('IDEMPOTENCY_KEY_INVALID') ? [idempotencyKeyParameter] : []),
    ]
    const { response } = route
    ;(paths[openApiPath(route.path)] ??= {})[route.method] = {
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(route.signedInOnly ? { security: [{ bearer: [] }] } : route.auth === 'merchant' ? { security: [{ hmac: [] }, { bearer: [] }] } : { security: [] }),
      ...(route.scope ? { 'x-required-scope': route.scope } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body ? { requestBody: { required: !route.bodyOptional, content: json(jsonSchema(route.body, 'input')) } } : {}),
      responses: {
        [response.status]: {
          description: response.description,
          ...('schema' in response
            ? { content: json(jsonSchema(response.schema, 'output')) }
            : 'contentType' in response
              ? { content: { [response.contentType]: {} } }
              : {}),
        },
        '4XX': {
          description: `An error (SPEC 7): ${['VALIDATION_ERROR', 'RATE_LIMITED', ...route.errors].join(', ')}.`,
          content: json({ $ref: '#/components/schemas/Error' }),
        },
      },
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'svc-checkout', version, description: "The public pay routes (SPEC 4.14), the merchant share-link routes (SPEC 4.12) and, beside them, the webhook endpoints with the events they receive and a studio's branding." },
    paths,
    webhooks: webhooks(),
    components: {
      schemas: { Error: jsonSchema(errorResponseSchema, 'output') },
      securitySchemes: {
        hmac: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'SPEC 5.2: `x-svc-key` (the svc_pk_ key id), `x-svc-ts` (Unix ms), `x-svc-nonce`, and `Authorization: SVC-HMAC <signature>` over the request.',
        },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
    },
  }
}
