import type { Scope } from '../../auth/scopes'

/**
 * SPEC 5.6's OAuth column: the only REST routes a CLI's OAuth token opens, each with the scope its
 * grant must hold. Everything else (key, signer and agent management, the browser's prepare and
 * submit routes, payments, withdrawals, the account routes) refuses it, whatever its scopes.
 */
const oauthRestRoutes = {
  'GET /v1/invoices': 'invoice:read',
  'GET /v1/invoices/:id': 'invoice:read',
  'GET /v1/invoices/lookup': 'invoice:read',
  'GET /v1/invoices/:id/share': 'invoice:read',
  'POST /v1/invoices/issue': 'invoice:write',
  'POST /v1/invoices/:id/cancel/submit': 'invoice:write',
  'POST /v1/invoices/:id/send-email': 'invoice:write',
  'GET /v1/customers': 'customer:read',
  'GET /v1/customers/:id': 'customer:read',
  'POST /v1/customers': 'customer:write',
  'PATCH /v1/customers/:id': 'customer:write',
  'DELETE /v1/customers/:id': 'customer:write',
  'GET /v1/studios/me': 'dashboard:read',
  'GET /v1/studios/me/balance': 'dashboard:read',
  'GET /v1/studios/me/invoices/stats': 'dashboard:read',
} as const satisfies Record<string, Scope>

/** Routes a grant reaches only through an agent's MCP tools: SPEC 5.6 keeps payments off REST OAuth,
 * and issue 36 has agents read them. Named here, beside the REST column, so that each route's scope
 * is written once for both doors. */
const mcpOnlyRoutes = {
  'GET /v1/payments': 'dashboard:read',
  'GET /v1/payments/export': 'dashboard:read',
} as const satisfies Record<string, Scope>

/** A route an OAuth grant may reach, through REST or an MCP tool: "GET /v1/invoices". */
export type OAuthRoute = keyof typeof oauthRestRoutes | keyof typeof mcpOnlyRoutes

const oauthRouteScopes: Readonly<Record<OAuthRoute, Scope>> = { ...oauthRestRoutes, ...mcpOnlyRoutes }
const restScopes: Readonly<Record<string, Scope>> = oauthRestRoutes

/** The scope an OAuth token needs on this route, or undefined where OAuth is refused. */
export function oauthScopeOf(route: { method: string; path: string }): Scope | undefined {
  return restScopes[`${route.method.toUpperCase()} ${route.path}`]
}

/** The scope an MCP tool's grant needs to run its route: for a route REST opens too, the REST
 * column's own, so a tool never asks less, or more, than the CLI's door. */
export const toolScopeOf = (route: OAuthRoute): Scope => oauthRouteScopes[route]
