import type { Scope } from '../../auth/scopes'

/**
 * SPEC 5.6's OAuth column: the only REST routes a CLI's OAuth token opens, each with the scope its
 * grant must hold. Everything else (key, signer and agent management, the browser's prepare and
 * submit routes, payments, withdrawals, the account routes) refuses it, whatever its scopes.
 */
const oauthRestRoutes: Readonly<Record<string, Scope>> = {
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
}

/** The scope an OAuth token needs on this route, or undefined where OAuth is refused. */
export function oauthScopeOf(route: { method: string; path: string }): Scope | undefined {
  return oauthRestRoutes[`${route.method.toUpperCase()} ${route.path}`]
}
