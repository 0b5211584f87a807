import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { createApp } from '../../server/app'
import { silentLogger } from '../../server/http/logger'
import { apiRoutes } from '../../server/routes/apiRoutes'
import { createMetrics } from '../../server/ops/metrics'

// only the routes' shape is read here: no handler runs, so the contexts they would use are left out
const app = createApp({
  pay: {} as never,
  metadata: {} as never,
  merchant: { auth: {} as never, share: {} as never, branding: {} as never },
  logger: silentLogger,
  metrics: createMetrics(),
  readiness: async () => ({}) as never,
  rateLimitPerMinute: 1_000,
  trustProxy: false,
})

/** The API routes the server actually mounts, as `METHOD /path/{param}`. */
function mountedApiRoutes(): string[] {
  const handlers = app.routes.filter((route) => route.path.startsWith('/v1/') && route.method !== 'ALL' && !route.path.endsWith('*'))
  return [...new Set(handlers.map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`))].sort()
}

describe('GET /openapi.json', () => {
  test('default: an OpenAPI 3.1 document of exactly the API routes the server mounts', async () => {
    const res = await app.request('/openapi.json')
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    const document = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> }
    expect(document.openapi).toBe('3.1.0')
    const documented = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
    expect(documented.sort()).toEqual(mountedApiRoutes())
    expect(apiRoutes).toHaveLength(documented.length)
  })

  test('behavior: request and answer schemas are the wire schemas: a permit request needs payerAddress, an invoice id is a decimal string', async () => {
    const document = (await (await app.request('/openapi.json')).json()) as any
    const permit = document.paths['/v1/pay/{id}/permit'].post
    expect(permit.requestBody.content['application/json'].schema).toMatchObject({ type: 'object', required: ['payerAddress'] })
    const invoice = document.paths['/v1/pay/{id}'].get.responses['200'].content['application/json'].schema
    expect(invoice.properties.data.properties.id).toMatchObject({ type: 'string', pattern: expect.any(String) })
    expect(document.paths['/v1/invoices/{id}/tokens'].post.security).toEqual([{ hmac: [] }, { bearer: [] }])
    expect(document.paths['/v1/pay/{id}/prepare'].post.description).toContain('eth_signTypedData_v4')
    expect(document.paths['/v1/pay/{id}/metadata'].get.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: expect.any(String) } },
      { name: 'token', in: 'query', required: false, description: expect.stringContaining('svc_tk_'), schema: { type: 'string' } },
    ])
    expect(document.paths['/v1/invoices/{id}/tokens'].post.requestBody.required).toBe(false)
    expect(document.paths['/v1/invoices/{id}/share'].get['x-required-scope']).toBe('invoice:read')
  })
})

describe('the merchant routes in GET /openapi.json', () => {
  test("behavior: every merchant route is documented with the merchant's credentials and the scope SPEC 5.6 guards it with (none: no granular scope)", async () => {
    const document = (await (await app.request('/openapi.json')).json()) as any
    const merchant = Object.fromEntries(
      Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
        Object.entries(methods)
          .filter(([, operation]) => operation.security?.length)
          .map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation['x-required-scope'] ?? 'none']),
      ),
    )
    expect(merchant).toMatchObject({
      'GET /v1/customers': 'customer:read',
      'GET /v1/customers/{id}': 'customer:read',
      'POST /v1/customers': 'customer:write',
      'PATCH /v1/customers/{id}': 'customer:write',
      'DELETE /v1/customers/{id}': 'customer:write',
      'GET /v1/invoices': 'invoice:read',
      'GET /v1/invoices/lookup': 'invoice:read',
      'GET /v1/invoices/{id}': 'invoice:read',
      'GET /v1/invoices/{id}/pdf': 'none',
      'GET /v1/invoices/{id}/share': 'invoice:read',
      'POST /v1/invoices/issue': 'invoice:write',
      'POST /v1/invoices/{id}/send-email': 'invoice:write',
      'POST /v1/invoices/{id}/cancel/submit': 'invoice:write',
      'POST /v1/invoices/{id}/cancel/prepare': 'none',
      'POST /v1/invoices/{id}/cancel': 'none',
      'POST /v1/invoices/prepare': 'none',
      'POST /v1/invoices': 'none',
      'POST /v1/withdrawals/prepare': 'none',
      'POST /v1/withdrawals': 'none',
      'GET /v1/withdrawals': 'none',
      'POST /v1/invoices/{id}/refund/prepare': 'none',
      'POST /v1/invoices/{id}/refund': 'none',
    })
    for (const name of Object.keys(merchant)) {
      const [method, path] = name.split(' ') as [string, string]
      // SPEC 5.6: sign-in, the studio's settings, its keys, agents and OAuth connections, its vault's
      // provisioning and upgrade and its quotas take the owner's bearer token only, as do its reads by id (4.1)
      const signedInOnly =
        path.startsWith('/v1/auth/') ||
        /^\/v1\/studios\/\{id\}(\/balance|\/invoices\/stats|\/transactions)?$/.test(path) ||
        /^\/v1\/studios\/\{(id|studioId)\}\/(profile|withdrawal-address|api-keys|agents|signer|oauth-connections|upgrade-7579|quotas)/.test(path) ||
        (method === 'POST' && /^\/v1\/studios(\/prepare|\/submit)?$/.test(path))
      expect(document.paths[path][method.toLowerCase()].security, name).toEqual(signedInOnly ? [{ bearer: [] }] : [{ hmac: [] }, { bearer: [] }])
    }
  })
})

describe("the sponsored operations' quotas in GET /openapi.json", () => {
  test("behavior: a route whose description counts its operation in the studio's sponsored operations names the month's limit beside the day's, as either refuses it", async () => {
    const document = (await (await app.request('/openapi.json')).json()) as any
    const counting = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => /daily quota|studio's daily|studio's sponsored (?:vault )?operations (?:today|of the day|for the day)/i.test(operation.description ?? ''))
        .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, description: String(operation.description) })),
    )
    expect(counting.map(({ name }) => name)).toEqual(expect.arrayContaining(['POST /v1/studios/submit', 'POST /v1/invoices/prepare']))
    for (const { name, description } of counting) expect(description, name).toMatch(/\bmonth/)
  })
})

describe('the route table', () => {
  test("behavior: every API route has its own describe('METHOD /full/path') in the tests, so its tests are found by its name", () => {
    const testDir = join(import.meta.dirname, '..')
    const sources = readdirSync(testDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => readFileSync(join(testDir, file), 'utf8'))
      .join('\n')
    const undescribed = apiRoutes.map((route) => `${route.method.toUpperCase()} ${route.path}`).filter((name) => !sources.includes(`describe('${name}'`))
    expect(undescribed).toEqual([])
  })
})
