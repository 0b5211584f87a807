import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { describe, expect, test } from 'vitest'
import { errorHandler } from '../../server/http/errorHandler'
import { silentLogger } from '../../server/http/logger'
import { dashboardPage, type DashboardPageParameters } from '../../server/routes/dashboardPage'

/** The dashboard's files as the server serves them, from a folder shaped like dist/dashboard. */
const dir = mkdtempSync(join(tmpdir(), 'svc-dashboard-'))
mkdirSync(join(dir, 'assets'))
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Merchant dashboard</title><h1>Merchant dashboard</h1>')
writeFileSync(join(dir, 'assets', 'index-abc.js'), 'console.log(1)')
/** Mounted as server/app.ts mounts it: its refusals go through the app's one error handler. */
const served = (parameters: DashboardPageParameters) => new Hono().onError(errorHandler(silentLogger)).route('/', dashboardPage(parameters))
const signIn = { issuer: 'https://login.example.com/tenant', audience: 'https://api.example.com', clientId: 'dashboard-client', scope: 'openid email invoices.api' }

describe('the dashboard page', () => {
  test('behavior: the page runs only its own scripts, talks only to this server and the provider, and is never cached or framed', async () => {
    const res = await served({ dir, signIn }).request('/dashboard')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('<h1>Merchant dashboard</h1>')
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' https://login.example.com; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    )
    expect([res.headers.get('cache-control'), res.headers.get('referrer-policy'), res.headers.get('x-frame-options')]).toEqual(['no-store', 'no-referrer', 'DENY'])
  })

  test('behavior: the address typed with a slash after it leads to the page', async () => {
    const res = await served({ dir, signIn }).request('/dashboard/')
    expect([res.status, res.headers.get('location')]).toEqual([308, '/dashboard'])
  })

  test('behavior: config.json names the provider, its audience, the dashboard client and the scopes to ask for; without one it is a 404 in the API error shape', async () => {
    const res = await served({ dir, signIn }).request('/dashboard/config.json')
    expect(await res.json()).toEqual(signIn)
    const none = await served({ dir }).request('/dashboard/config.json')
    expect(none.status).toBe(404)
    expect(await none.json()).toMatchObject({ code: 'NOT_FOUND' })
  })

  test('behavior: assets are served immutable and nothing outside assets/ is reachable', async () => {
    const app = served({ dir, signIn })
    const asset = await app.request('/dashboard/assets/index-abc.js')
    expect([asset.status, asset.headers.get('content-type'), asset.headers.get('cache-control')]).toEqual([200, 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable'])
    for (const path of ['/dashboard/assets/..%2Findex.html', '/dashboard/assets/.hidden.js', '/dashboard/assets/missing.js', '/dashboard/assets/index.html']) {
      expect((await app.request(path)).status, path).toBe(404)
    }
  })

  test('behavior: a server without the built dashboard answers 503 saying to build it', async () => {
    const res = await served({ dir: join(dir, 'absent') }).request('/dashboard')
    expect(res.status).toBe(503)
    expect(await res.json()).toMatchObject({ message: 'the dashboard is not built: run npm run build' })
  })
})
