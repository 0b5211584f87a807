import { describe, expect, test } from 'vitest'
import { oauthScopeOf, toolScopeOf, type OAuthRoute } from '../../server/merchant/oauth/oauthRestRoutes'

const split = (route: OAuthRoute) => {
  const [method, path] = route.split(' ') as [string, string]
  return { method: method.toLowerCase(), path }
}

describe("an OAuth grant's scopes, written once for both doors", () => {
  test('behavior: an MCP tool on a route the CLI also reaches asks the very scope the REST door asks', () => {
    const both: OAuthRoute[] = ['GET /v1/invoices', 'POST /v1/invoices/issue', 'POST /v1/invoices/:id/cancel/submit', 'PATCH /v1/customers/:id', 'GET /v1/studios/me/balance']
    for (const route of both) expect(toolScopeOf(route), route).toBe(oauthScopeOf(split(route)))
    expect(toolScopeOf('POST /v1/invoices/issue')).toBe('invoice:write')
    expect(toolScopeOf('GET /v1/customers')).toBe('customer:read')
  })

  test("behavior: payments are read by an agent's tools with dashboard:read and stay closed to a CLI's token on REST", () => {
    for (const route of ['GET /v1/payments', 'GET /v1/payments/export'] as const) {
      expect(toolScopeOf(route), route).toBe('dashboard:read')
      expect(oauthScopeOf(split(route)), route).toBeUndefined()
    }
  })
})
