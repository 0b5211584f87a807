import * as z from 'zod'
import { errorResponseSchema } from '../../shared/wire'
import type { RouteDescription } from '../routes/apiRoute'

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

/** OpenAPI 3.1 for the JSON API, generated from the route table and the wire schemas themselves. */
export function openApiDocument(routes: readonly RouteDescription[], { version }: { version: string }) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const parameters = [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')]
    const { response } = route
    ;(paths[openApiPath(route.path)] ??= {})[route.method] = {
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(route.auth === 'merchant' ? { security: [{ hmac: [] }, { bearer: [] }] } : { security: [] }),
      ...(route.scope ? { 'x-required-scope': route.scope } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body ? { requestBody: { required: !route.bodyOptional, content: json(jsonSchema(route.body, 'input')) } } : {}),
      responses: {
        [response.status]: {
          description: response.description,
          content: 'schema' in response ? json(jsonSchema(response.schema, 'output')) : { [response.contentType]: {} },
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
    info: { title: 'svc-checkout', version, description: "The public pay routes (SPEC 4.14), the merchant share-link routes (SPEC 4.12) and a studio's branding." },
    paths,
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
