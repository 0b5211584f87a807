import * as z from 'zod'
import { errorResponseSchema } from '../../src/shared/wire'
import type { ApiRoute } from './apiRoutes'

/** A JSON Schema of a wire schema, as a client sends it (`input`) or reads it (`output`). */
function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output') {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>
  return rest
}

const json = (schema: Record<string, unknown>) => ({ 'application/json': { schema } })

/** OpenAPI 3.1 for the JSON API, generated from the route table and the wire schemas themselves. */
export function openApiDocument(routes: ApiRoute[], { version }: { version: string }) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const parameters = [
      ...[...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string', pattern: '^\\d+$' } })),
      ...(route.query ?? []).map(({ name, description, required = false }) => ({ name, in: 'query', required, description, schema: { type: 'string' } })),
    ]
    const { response } = route
    ;(paths[route.path] ??= {})[route.method] = {
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(route.auth === 'merchant' ? { security: [{ hmac: [] }, { bearer: [] }] } : { security: [] }),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body ? { requestBody: { required: true, content: json(jsonSchema(route.body, 'input')) } } : {}),
      responses: {
        [response.status]: {
          description: response.description,
          content: response.schema ? json(jsonSchema(response.schema, 'output')) : { [response.contentType!]: {} },
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
    info: { title: 'svc-checkout', version, description: 'The public pay routes (SPEC 4.14) and the merchant share-link routes (SPEC 4.12).' },
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
