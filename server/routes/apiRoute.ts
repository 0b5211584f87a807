import type { Context, Env, Hono, MiddlewareHandler } from 'hono'
import { matchedRoutes } from 'hono/route'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type * as z from 'zod/mini'
import type { AuthEnv } from '../auth/principal'
import { refuseSignedInUsers } from '../auth/refuseSignedInUsers'
import type { Scope } from '../auth/scopes'
import { validJsonBody, validParams, validQuery } from '../http/validate'
import { answeredBy, pathPolicyOf, policyOf, type PolicyMiddleware, type RoutePolicy } from './routePolicy'

type Schema = z.ZodMiniType
type Parsed<S> = S extends Schema ? z.output<S> : undefined

type JsonResponse<R extends Schema> = {
  status: ContentfulStatusCode
  /** The wire schema the clients parse the answer with: the handler must return its input type. */
  schema: R
  description: string
  headers?: Record<string, string>
  /** For a route with more than one success status (submit: 200 confirmed, 202 pending). */
  statusFor?: (body: z.input<R>) => ContentfulStatusCode
}
type FileResponse = { status: ContentfulStatusCode; contentType: string; description: string }
/** An answer with no body (DELETE's 204): the handler returns the Response itself. */
type EmptyResponse = { status: 204; description: string }

/**
 * One route of the JSON API, declared where it is handled: its full path (Hono syntax), what it
 * reads and answers (the wire schemas both sides speak), its error codes, and its policy: who may
 * call it, its CORS, rate limits, body limit and outcome metric (server/routes/routePolicy.ts). The
 * server mounts the declaration and the OpenAPI document describes it, so neither can drift from the other.
 */
type RouteDeclaration<Dependencies, E extends Env, P, Q, B, R> = RoutePolicy & {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  path: `/v1/${string}`
  summary: string
  description?: string
  /** `merchant`: an API key (HMAC headers, SPEC 5.2) or a bearer token, checked before anything else. */
  auth: 'none' | 'merchant'
  /** SPEC 5.6 where a signed-in user's token (JWT) is not among the accepted credentials: the
   * server-signed writes, which an API key (or an OAuth grant) drives, while a signed-in owner signs
   * the operation itself through the prepare and submit routes. */
  signedInUsers?: 'refused'
  /** An API key must hold this scope (SPEC 5.6). */
  scope?: Scope
  /** SPEC 5.6 "JWT with owner checks; API keys unsupported": only a signed-in user's bearer token is
   * accepted (the route refuses API keys itself), and the OpenAPI document says so. */
  signedInOnly?: boolean
  params?: P
  query?: Q
  body?: B
  /** SPEC 4.12 lets some bodies be left out: none at all reads as `{}`. */
  bodyOptional?: boolean
  response: [R] extends [Schema] ? JsonResponse<R> : FileResponse | EmptyResponse
  /** The error codes (SPEC 7) this route answers with, besides VALIDATION_ERROR and RATE_LIMITED. */
  errors: readonly string[]
  handle(input: { params: Parsed<P>; query: Parsed<Q>; body: Parsed<B> }, dependencies: Dependencies, c: Context<E>): Promise<[R] extends [Schema] ? z.input<R> : Response>
}

export type ApiRoute<Dependencies = never, E extends Env = Env> = Omit<RouteDeclaration<Dependencies, E, Schema, Schema, Schema, Schema>, 'response' | 'handle'> & {
  response: JsonResponse<Schema> | FileResponse | EmptyResponse
  handle(input: { params: unknown; query: unknown; body: unknown }, dependencies: Dependencies, c: Context<E>): Promise<unknown>
}

/** What a route says about itself, for documents such as the OpenAPI one. */
export type RouteDescription = Omit<ApiRoute, 'handle'>

/** Declares a route whose handler needs `Dependencies`; the schemas' types flow into the handler. Every API
 * route shares one environment, in which the merchant routes find their authenticated principal. */
export function apiRoute<Dependencies, E extends Env = AuthEnv>() {
  return <
    P extends Schema | undefined = undefined,
    Q extends Schema | undefined = undefined,
    B extends Schema | undefined = undefined,
    R extends Schema | undefined = undefined,
  >(
    route: RouteDeclaration<Dependencies, E, P, Q, B, R>,
  ) => route as unknown as ApiRoute<Dependencies, E>
}

function validators<E extends Env>(route: ApiRoute<never, E>): MiddlewareHandler[] {
  return [
    ...(route.params ? [validParams(route.params)] : []),
    ...(route.query ? [validQuery(route.query)] : []),
    ...(route.body ? [validJsonBody(route.body, { optional: route.bodyOptional })] : []),
  ] as MiddlewareHandler[]
}

/** Whether a route of another path answers the request: POST /v1/invoices/issue also matches
 * /v1/invoices/:id, whose path policy must not count it a second time. */
function answeredAtAnotherPath(c: Context): boolean {
  const method = c.req.method
  return matchedRoutes(c).some((route) => route.method === method || (method === 'HEAD' && route.method === 'GET'))
}

/** What the app puts in front of every route: its declared policy made into middleware, and `guard`'s
 * (authentication, a scope). */
export type MountedPolicy<Dependencies, E extends Env> = {
  policy: PolicyMiddleware
  guard: (route: ApiRoute<Dependencies, E>) => MiddlewareHandler<E>[]
}

/**
 * Mounts each route on `app` at its full path: its declared policy, then `guard`, the validators
 * and the handler. A request to one of the paths by a method none of its routes answers (a preflight,
 * a 405) passes the path's own policy (routePolicy.ts, pathPolicyOf).
 */
export function mountApiRoutes<Dependencies, E extends Env>(
  app: Hono<E>,
  routes: readonly ApiRoute<Dependencies, E>[],
  dependencies: Dependencies,
  { policy, guard }: MountedPolicy<Dependencies, E>,
) {
  const paths = new Map<string, ApiRoute<Dependencies, E>[]>()
  for (const route of routes) paths.set(route.path, [...(paths.get(route.path) ?? []), route])
  for (const [path, atPath] of paths) {
    const methods = new Set<string>(atPath.map((route) => route.method))
    for (const handler of pathPolicyOf(atPath, policy)) {
      ;(app as unknown as Hono).use(path, function unlessRouted(c, next) {
        return answeredBy(methods, c) || answeredAtAnotherPath(c) ? next() : handler(c, next)
      })
    }
  }
  for (const route of routes) {
    const handlers: MiddlewareHandler<E>[] = [
      ...(policyOf(route, policy) as MiddlewareHandler<E>[]),
      ...guard(route),
      // after authentication, before the body is read: the credential is refused whatever it asks
      ...((route.signedInUsers === 'refused' ? [refuseSignedInUsers] : []) as unknown as MiddlewareHandler<E>[]),
      ...(validators(route as ApiRoute<never, E>) as MiddlewareHandler<E>[]),
      async (c) => {
        const valid = (target: 'param' | 'query' | 'json') => (c.req as unknown as { valid(target: string): unknown }).valid(target)
        const input = { params: route.params && valid('param'), query: route.query && valid('query'), body: route.body && valid('json') }
        const answer = await route.handle(input, dependencies, c as Context<E>)
        if (answer instanceof Response) return answer
        const response = route.response as JsonResponse<Schema>
        return c.json(answer as object, response.statusFor?.(answer) ?? response.status, response.headers)
      },
    ]
    ;(app as unknown as Hono).on(route.method.toUpperCase(), [route.path], ...(handlers as [MiddlewareHandler]))
  }
}
