import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Hono } from 'hono'
import { HttpError } from '../http/httpError'
import { invoiceIdParam } from '../http/validate'

export type PayPageOptions = {
  /** Vite's output: index.html and assets/. */
  distDir: string
  /** CSP frame-ancestors sources (ALLOWED_FRAME_ANCESTORS): who may frame the page. */
  frameAncestors: string
  /** Origins the page may call besides its own: the devnet wallet's node, a WalletConnect relay. */
  connectSources: string[]
  /** The origin payers reach the page at (PUBLIC_URL): what 'self' means behind a TLS-terminating proxy. */
  publicOrigin: () => string
}

const contentTypes: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
}

/** The origins that may frame the page, for the page itself: an embedded page posts events only to
 * one of these (src/embed/frameChannel.ts). The same list as CSP frame-ancestors, origins only. */
export function allowedParents(frameAncestors: string, ownOrigin: string): string[] {
  return frameAncestors
    .split(/\s+/)
    .map((source) => (source === "'self'" ? ownOrigin : source))
    .filter((source) => /^https?:\/\/[\w.-]+(:\d+)?$/.test(source))
}

/** The built pay page at the share-link path, and its assets. The page's URL carries a bearer token:
 * it is never cached, and its policy keeps the token from leaving (no referrer) and the page from
 * running anything but its own files. */
export function payPage({ distDir, frameAncestors, connectSources, publicOrigin }: PayPageOptions) {
  const app = new Hono()
  const policy = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    ['connect-src', "'self'", ...connectSources].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ')
  app.get('/pay/:id', async (c) => {
    invoiceIdParam(c)
    let html: string
    // read on each request (a few hundred bytes): a rebuild is served without a restart
    try {
      html = await readFile(join(distDir, 'index.html'), 'utf8')
    } catch {
      throw new HttpError(503, 'PAGE_NOT_BUILT', 'the pay page is not built: run `npx vite build` (npm start does)')
    }
    const parents = allowedParents(frameAncestors, publicOrigin())
    html = html.replace('</head>', `<meta name="svc-frame-ancestors" content="${parents.join(' ')}" />\n</head>`)
    return c.html(html, 200, { 'Content-Security-Policy': policy, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' })
  })

  // hashed file names: a file's content never changes under its name
  app.get('/assets/:file', async (c) => {
    const file = c.req.param('file')
    const type = contentTypes[file.split('.').pop() ?? '']
    if (!/^[\w.-]+$/.test(file) || file.startsWith('.') || !type) throw new HttpError(404, 'NOT_FOUND', 'no such asset')
    let body: Buffer
    try {
      body = await readFile(join(distDir, 'assets', file))
    } catch {
      throw new HttpError(404, 'NOT_FOUND', 'no such asset')
    }
    return c.body(new Uint8Array(body), 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=31536000, immutable' })
  })

  return app
}
