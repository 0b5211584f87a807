import { describe, expect, test } from 'vitest'
import type { RateCounter } from '../../server/http/rateLimit'
import { apiBodyLimit } from '../../server/http/limitBody'
import type { RateLimitSettings } from '../../server/http/perClientLimit'
import { apiRoutes } from '../../server/routes/apiRoutes'
import { pageLimit } from '../../server/routes/payPage'
import { useInProcessApp } from '../support/inProcessApp'

// Each route's policy is declared with it (server/routes/routePolicy.ts). These walk the route table
// and hold the app to each declaration: a route that loses a limit, its CORS, its body limit or its
// outcome metric, on the way from declaration to app or in the declaration itself, fails here.

const settings: RateLimitSettings = { perMinute: 1_000 }
/** Every limit the app counts in, by name: the figure it was made with, and the requests' names in order. */
const windows = new Map<string, number>()
const consumed: string[] = []
let refused: string | null = null
const recording = (name: string, window: { limit: number }): RateCounter => {
  windows.set(name, window.limit)
  return {
    async consume() {
      consumed.push(name)
      return { retryAfterMs: name === refused ? 30_000 : null }
    },
  }
}

const ctx = useInProcessApp({ rateLimitPerMinute: settings.perMinute, sharedRateCounter: recording })

const concrete = (path: string) => path.replace(/:\w+/g, '1')
const json = { 'content-type': 'application/json' }

async function send(method: string, path: string, body?: string) {
  consumed.length = 0
  const withBody = method !== 'GET' && method !== 'HEAD'
  return ctx.app.request(concrete(path), { method, ...(withBody ? { headers: json, body: body ?? '{}' } : {}) })
}

/** The sum of a counter's series in a rendering of /metrics. */
function sumOf(text: string, metric: string) {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${metric}{`) || line.startsWith(`${metric} `))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0)
}


const metricNames = { permits: 'svc_checkout_permits_total', prepares: 'svc_checkout_prepares_total', submissions: 'svc_checkout_submissions_total' }

describe('each declared route, as the app mounts it', () => {
  test('behavior: every route of the API declares at least one per-client limit', () => {
    expect(apiRoutes.filter((route) => route.rateLimits.length === 0).map((route) => `${route.method} ${route.path}`)).toEqual([])
  })

  test('behavior: a request is counted in exactly the declared limits, in order, each with its declared figure', async () => {
    for (const route of apiRoutes) {
      const name = `${route.method} ${route.path}`
      await send(route.method.toUpperCase(), route.path)
      expect(consumed, name).toEqual(route.rateLimits.map((limit) => limit.name))
      for (const limit of route.rateLimits) expect(windows.get(limit.name), `${name}: ${limit.name}`).toBe(limit.perMinute(settings))
    }
    // one count per name: `pay` guards /v1/pay/* and /v1/paymaster alike
    expect([...windows.keys()].sort()).toEqual(['account-metrics', 'accounts', 'customers', 'invoices', 'leads', 'logos', 'page', 'pay', 'paymaster', 'payment-exports', 'payments', 'permit', 'prepare', 'protocol-stats', 'provisioning', 'refunds', 'studios', 'webhooks', 'withdrawals'])
  })

  test('behavior: the declarations name the limits they did when app.ts mounted them by path; a change here is deliberate', () => {
    const declared = Object.fromEntries(apiRoutes.map((route) => [`${route.method} ${route.path}`, [route.cors, ...route.rateLimits.map((limit) => limit.name)].join(' ')]))
    expect(declared).toEqual({
      'get /v1/pay/:id': 'anyOrigin pay',
      'get /v1/pay/:id/metadata': 'anyOrigin pay',
      'get /v1/pay/:id/pdf': 'anyOrigin pay',
      'post /v1/pay/:id/permit': 'anyOrigin pay permit',
      'post /v1/pay/:id/prepare': 'anyOrigin pay prepare',
      'post /v1/pay/:id': 'anyOrigin pay',
      'post /v1/paymaster': 'anyOrigin pay paymaster',
      'get /v1/invoices/:id/share': 'none invoices',
      'post /v1/invoices/:id/share/regenerate': 'none invoices',
      'get /v1/invoices/:id/tokens': 'none invoices',
      'post /v1/invoices/:id/tokens': 'none invoices',
      'delete /v1/invoices/:id/tokens/:tokenId': 'none invoices',
      'post /v1/webhook-endpoints': 'none webhooks',
      'get /v1/webhook-endpoints': 'none webhooks',
      'delete /v1/webhook-endpoints/:id': 'none webhooks',
      'post /v1/webhook-endpoints/:id/rotate-secret': 'none webhooks',
      'get /v1/studios/me/branding': 'none studios',
      'put /v1/studios/me/branding': 'none studios',
      'delete /v1/studios/me/branding': 'none studios',
      'get /v1/pay/:id/branding': 'anyOrigin pay',
      'get /v1/branding/logos/:file': 'none logos',
      'get /v1/customers': 'none customers',
      'get /v1/customers/:id': 'none customers',
      'post /v1/customers': 'none customers',
      'patch /v1/customers/:id': 'none customers',
      'delete /v1/customers/:id': 'none customers',
      'post /v1/invoices/issue': 'none invoices',
      'get /v1/invoices': 'none invoices',
      'get /v1/invoices/lookup': 'none invoices',
      'get /v1/invoices/:id': 'none invoices',
      'get /v1/invoices/:id/pdf': 'none invoices',
      'post /v1/invoices/:id/send-email': 'none invoices',
      'post /v1/invoices/:id/cancel/submit': 'none invoices',
      'post /v1/invoices/:id/cancel/prepare': 'none invoices',
      'post /v1/invoices/:id/cancel': 'none invoices',
      'post /v1/invoices/prepare': 'none invoices',
      'post /v1/invoices': 'none invoices',
      'post /v1/withdrawals/prepare': 'none withdrawals',
      'post /v1/withdrawals': 'none withdrawals',
      'get /v1/withdrawals': 'none withdrawals',
      'post /v1/invoices/:id/refund/prepare': 'none refunds',
      'post /v1/invoices/:id/refund': 'none refunds',
      'get /v1/payments': 'none payments',
      'get /v1/payments/export': 'none payment-exports',
      'get /v1/studios/me': 'none studios',
      'get /v1/studios/me/balance': 'none studios',
      'get /v1/studios/me/invoices/stats': 'none studios',
      'get /v1/studios/:id': 'none studios',
      'get /v1/studios/:id/balance': 'none studios',
      'get /v1/studios/:id/invoices/stats': 'none studios',
      'get /v1/studios/:id/transactions': 'none studios',
      'post /v1/studios/prepare': 'none provisioning',
      'post /v1/studios/submit': 'none provisioning',
      'post /v1/studios': 'none provisioning',
      'post /v1/studios/:studioId/upgrade-7579': 'none accounts',
      'post /v1/studios/:studioId/upgrade-7579/submit': 'none accounts',
      'get /v1/studios/:id/quotas': 'none accounts',
      'get /v1/protocol/stats': 'anyOrigin protocol-stats',
      'get /v1/accounts/:address/metrics': 'none account-metrics',
      'post /v1/auth/login': 'none accounts',
      'get /v1/auth/me': 'none accounts',
      'get /v1/studios/:id/profile': 'none accounts',
      'put /v1/studios/:id/profile': 'none accounts',
      'get /v1/studios/:id/withdrawal-address': 'none accounts',
      'put /v1/studios/:id/withdrawal-address': 'none accounts',
      'post /v1/studios/:studioId/api-keys': 'none accounts',
      'get /v1/studios/:studioId/api-keys': 'none accounts',
      'get /v1/studios/:studioId/api-keys/audit-log': 'none accounts',
      'delete /v1/studios/:studioId/api-keys/:keyId': 'none accounts',
      'post /v1/studios/:studioId/api-keys/:keyId/rotate': 'none accounts',
      'post /v1/studios/:studioId/api-keys/activate-signer': 'none accounts',
      'get /v1/studios/:studioId/signer/status': 'none accounts',
      'post /v1/studios/:studioId/signer/revoke': 'none accounts',
      'post /v1/studios/:studioId/signer/confirm-revocation': 'none accounts',
      'post /v1/studios/:studioId/signer/force-revoke': 'none accounts',
      'get /v1/studios/:studioId/oauth-connections': 'none accounts',
      'delete /v1/studios/:studioId/oauth-connections/:connectionId': 'none accounts',
      'post /v1/studios/:studioId/agents': 'none accounts',
      'get /v1/studios/:studioId/agents': 'none accounts',
      'get /v1/studios/:studioId/agents/:agentId': 'none accounts',
      'patch /v1/studios/:studioId/agents/:agentId': 'none accounts',
      'delete /v1/studios/:studioId/agents/:agentId': 'none accounts',
      'post /v1/studios/:studioId/agents/:agentId/keys': 'none accounts',
      'get /v1/studios/:studioId/agents/:agentId/keys': 'none accounts',
      'post /v1/studios/:studioId/agents/:agentId/keys/:keyId': 'none accounts',
      'delete /v1/studios/:studioId/agents/:agentId/keys/:keyId': 'none accounts',
      'post /v1/leads': 'anyOrigin leads',
    })
  })

  test('behavior: past each declared limit the route answers 429 RATE_LIMITED with Retry-After, and counts in no later limit', async () => {
    try {
      for (const route of apiRoutes) {
        for (const [index, limit] of route.rateLimits.entries()) {
          const name = `${route.method} ${route.path}: ${limit.name}`
          refused = limit.name
          const response = await send(route.method.toUpperCase(), route.path)
          expect(response.status, name).toBe(429)
          expect(response.headers.get('retry-after'), name).toBe('30')
          expect(await response.json(), name).toMatchObject({ error: 'RATE_LIMITED', code: 'RATE_LIMITED' })
          expect(consumed, name).toEqual(route.rateLimits.slice(0, index + 1).map((each) => each.name))
          // a browser on another origin reads the refusal of a route open to it, and only of one
          expect(response.headers.get('access-control-allow-origin'), name).toBe(route.cors === 'anyOrigin' ? '*' : null)
        }
      }
    } finally {
      refused = null
    }
  })

  test('behavior: a route open to any origin answers its preflight; any other does not', async () => {
    for (const route of apiRoutes) {
      const response = await send('OPTIONS', route.path)
      const name = `${route.method} ${route.path}`
      if (route.cors === 'anyOrigin') {
        expect(response.status, name).toBe(204)
        expect(response.headers.get('access-control-allow-origin'), name).toBe('*')
      } else {
        expect(response.status, name).toBe(405)
        expect(response.headers.get('access-control-allow-origin'), name).toBeNull()
      }
    }
  })

  test('behavior: a body over the declared limit (the API\'s 64 KiB unless declared) is 413; one at it is read', async () => {
    for (const route of apiRoutes.filter((each) => each.method !== 'get')) {
      const name = `${route.method} ${route.path}`
      const { maxBytes, refusal } = route.bodyLimit ?? apiBodyLimit
      const over = await send(route.method.toUpperCase(), route.path, `"${'x'.repeat(maxBytes - 1)}"`)
      expect(over.status, name).toBe(413)
      expect(await over.json(), name).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: refusal })
      const at = await send(route.method.toUpperCase(), route.path, `"${'x'.repeat(maxBytes - 2)}"`)
      expect(at.status, name).not.toBe(413)
    }
  })

  test('behavior: a route that declares an outcome metric counts each call in it, and no other route does', async () => {
    // one rendering of /metrics per route, read for every metric: the route table is long
    const totals = async () => {
      const text = await (await ctx.app.request('/metrics')).text()
      return Object.fromEntries(Object.entries(metricNames).map(([key, metric]) => [key, sumOf(text, metric)]))
    }
    let before = await totals()
    for (const route of apiRoutes) {
      await send(route.method.toUpperCase(), route.path)
      const after = await totals()
      for (const [key, metric] of Object.entries(metricNames)) {
        // the paymaster service counts its sponsorships in prepares itself, from its handler: not on a body refused before it
        expect(after[key], `${route.method} ${route.path}: ${metric}`).toBe(before[key]! + (route.outcomes?.metric === key ? 1 : 0))
      }
      before = after
    }
  })

  test('behavior: a method no route at a declared path answers (405) counts in the limit its routes name first, as before', async () => {
    const cases: [method: string, path: string, limits: string[]][] = [
      ['GET', '/v1/pay/:id/permit', ['pay']],
      ['PUT', '/v1/pay/:id', ['pay']],
      ['GET', '/v1/paymaster', ['pay']],
      ['PATCH', '/v1/invoices/:id/share', ['invoices']],
      ['POST', '/v1/studios/me/branding', ['studios']],
    ]
    for (const [method, path, limits] of cases) {
      const response = await send(method, path)
      expect(response.status, `${method} ${path}`).toBe(405)
      expect(consumed, `${method} ${path}`).toEqual(limits)
    }
  })

  test('behavior: every path under /pay/ counts in the page limit', async () => {
    for (const path of ['/pay/7', '/pay/7/', '/pay/7/anything']) {
      await send('GET', path)
      expect(consumed, path).toEqual([pageLimit.name])
    }
    expect(windows.get(pageLimit.name)).toBe(pageLimit.perMinute(settings))
  })
})
