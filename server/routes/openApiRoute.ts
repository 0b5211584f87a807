import { Hono } from 'hono'
import type { openApiDocument } from '../openapi/openApiDocument'
import type { PolicyMiddleware } from './routePolicy'

const path = '/openapi.json'

/** GET /openapi.json: the API's document (server/openapi/openApiDocument.ts), for merchants to generate
 * clients from. Any origin may read it (a generator in a browser); no limit, like the page's assets. */
export function openApiRoute(document: ReturnType<typeof openApiDocument>, { anyOrigin }: Pick<PolicyMiddleware, 'anyOrigin'>) {
  const app = new Hono()
  app.use(path, anyOrigin)
  app.get(path, (c) => c.json(document))
  return app
}
