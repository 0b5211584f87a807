import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Hono } from 'hono'
import { HttpError } from '../http/httpError'
import { compressedOnce, precompressedFile, type MadeBody } from '../http/negotiateEncoding'
import { immutable, pageLimit } from './payPage'
import type { PolicyMiddleware } from './routePolicy'

/** Where the dashboard signs merchants in: the provider the API already trusts (JWT_ISSUER and
 * JWT_AUDIENCE), the public client registered there for the dashboard (DASHBOARD_CLIENT_ID) and the
 * scopes it asks for (IDENTITY_SCOPES, as /oauth's sign-in does). */
export type DashboardSignIn = { issuer: string; audience: string; clientId: string; scope: string }

export type DashboardPageParameters = {
  /** Vite's output for dashboard/ (dist/dashboard): index.html and assets/. */
  dir: string
  /** Absent: the page is served and says that this server has no sign-in. */
  signIn?: DashboardSignIn
  /** Origins a WalletConnect wallet needs when the build offers one (its relay, the pinned RPCs its
   * provider reads through): a browser wallet reads for itself, so the page needs none otherwise. */
  connectSources?: string[]
}

const contentTypes: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' }

/** The page runs only its own files and talks only to this server, the identity provider (its
 * discovery document and token endpoint) and, with WalletConnect offered, what WalletConnect needs;
 * it is framed by no one, since it holds a bearer token. */
export function dashboardPolicy(signIn: DashboardSignIn | undefined, connectSources: string[] = []): string {
  const sources = [...new Set([...(signIn ? [new URL(signIn.issuer).origin] : []), ...connectSources])]
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    ['connect-src', "'self'", ...sources].join(' '),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/**
 * The merchant dashboard (dashboard/, built into dist/dashboard): GET /dashboard is its page, which
 * paints before its script runs; /dashboard/config.json tells it where to sign in; its assets are
 * under /dashboard/assets/. The page's address carries the provider's code on the way back from
 * sign-in, so it is never cached and sends no referrer.
 */
export function dashboardPage({ dir, signIn, connectSources, policy }: DashboardPageParameters & { policy?: Pick<PolicyMiddleware, 'limited'> }) {
  const app = new Hono()
  if (policy) {
    app.use('/dashboard', policy.limited(pageLimit))
    app.use('/dashboard/config.json', policy.limited(pageLimit))
  }
  const contentSecurityPolicy = dashboardPolicy(signIn, connectSources)
  let page: MadeBody | null = null
  app.get('/dashboard', (c) => {
    try {
      page ??= { text: readFileSync(join(dir, 'index.html'), 'utf8') }
    } catch {
      throw new HttpError(503, 'SERVICE_UNAVAILABLE', 'the dashboard is not built: run npm run build')
    }
    const { body, headers } = compressedOnce(page, c.req.header('accept-encoding'))
    return c.body(body, 200, {
      ...headers,
      'Content-Type': 'text/html; charset=UTF-8',
      'Content-Security-Policy': contentSecurityPolicy,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
    })
  })
  // typed with a slash after it, the address reached no route; the page lives at one address, the
  // redirect URI the provider knows, so the slash is dropped
  app.get('/dashboard/', (c) => c.redirect('/dashboard', 308))
  app.get('/dashboard/config.json', (c) => {
    if (!signIn) throw new HttpError(404, 'NOT_FOUND', 'this server has no identity provider configured (JWT_ISSUER, DASHBOARD_CLIENT_ID)')
    return c.json(signIn, 200, { 'Cache-Control': 'no-store' })
  })
  app.get('/dashboard/assets/:file', async (c) => {
    const name = c.req.param('file')
    const type = contentTypes[name.split('.').pop() ?? '']
    if (!/^[\w.-]+$/.test(name) || name.startsWith('.') || !type) throw new HttpError(404, 'NOT_FOUND', 'no such asset')
    const file = await precompressedFile(join(dir, 'assets', name), c.req.header('accept-encoding')).catch(() => {
      throw new HttpError(404, 'NOT_FOUND', 'no such asset')
    })
    return c.body(file.body, 200, { ...file.headers, 'Content-Type': type, 'Cache-Control': immutable })
  })
  return app
}
