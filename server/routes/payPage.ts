import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Hono } from 'hono'
import { builtDeploymentFile } from '../../build/distDir'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import { readPinnedDeployment } from '../../build/readPinnedDeployment'
import { pageParams, preferredLanguages } from '../../src/ui/page/pageParams'
import type { ServedPage } from '../../src/ui/page/servedPage'
import { loadLocale } from '../../src/ui/strings'
import { CodedError } from '../../shared/codedError'
import { HttpError } from '../http/httpError'
import { acceptLanguage } from '../http/qualityValues'
import { compressedNow, precompressedFile } from '../http/negotiateEncoding'
import { invoiceIdParams, validParams } from '../http/validate'
import { payPageMarkup } from './payPageMarkup'

export type PayPageOptions = {
  /** Vite's output: index.html and assets/. */
  distDir: string
  /** CSP frame-ancestors sources (ALLOWED_FRAME_ANCESTORS): who may frame the page. */
  frameAncestors: string
  /** Origins the page may call besides its own: the devnet wallet's node, a WalletConnect relay. */
  connectSources: string[]
  /** The origin payers reach the page at (PUBLIC_URL): what 'self' means behind a TLS-terminating proxy. */
  publicOrigin: () => string
  /** GET /v1/pay/:id/metadata's answer, to render the invoice into the page before any script runs;
   * without it the page is the bare shell the client fills in. */
  document?: (id: bigint, token: string | undefined) => Promise<ServedInvoiceDocument>
}

type ServedInvoiceDocument = Extract<ServedPage, { response: unknown }>['response']

/** Hashed file names: a file's content never changes under its name. */
export const immutable = 'public, max-age=31536000, immutable'

const contentTypes: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
}

/** CSP sources for the built page's own inline styles (build/inlineStylesheet.ts), and for nothing
 * else: the page rendered into it adds none. */
function inlineStyleHashes(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(([, css]) => `'sha256-${createHash('sha256').update(css!).digest('base64')}'`)
}

/** The origins that may frame the page, for the page itself: an embedded page posts events only to
 * one of these (src/frame/frameChannel.ts). The same list as CSP frame-ancestors, origins only. */
export function allowedParents(frameAncestors: string, ownOrigin: string): string[] {
  return frameAncestors
    .split(/\s+/)
    .map((source) => (source === "'self'" ? ownOrigin : source))
    .filter((source) => /^https?:\/\/[\w.-]+(:\d+)?$/.test(source))
}

/** The built pay page at the share-link path, and its assets. The page's URL carries a bearer token:
 * it is never cached, and its policy keeps the token from leaving (no referrer) and the page from
 * running anything but its own files. */
export function payPage({ distDir, frameAncestors, connectSources, publicOrigin, document }: PayPageOptions) {
  const app = new Hono()
  const policy = (html: string) => [
    "default-src 'self'",
    "script-src 'self'",
    ['style-src', "'self'", ...inlineStyleHashes(html)].join(' '),
    "img-src 'self' data:",
    ['connect-src', "'self'", ...connectSources].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ')
  app.get('/pay/:id', validParams(invoiceIdParams), async (c) => {
    let html: string
    // read on each request (a few KB): a rebuild is served without a restart
    try {
      html = await readFile(join(distDir, 'index.html'), 'utf8')
    } catch {
      throw new HttpError(503, 'PAGE_NOT_BUILT', 'the pay page is not built: run `npx vite build` (npm start does)')
    }
    const parents = allowedParents(frameAncestors, publicOrigin())
    html = html.replace('</head>', `<meta name="svc-frame-ancestors" content="${parents.join(' ')}" />\n</head>`)
    const firstPaint = document ? await renderedWithInvoice(html, c.req.valid('param').id, c.req.url, c.req.header('accept-language')) : null
    const { body, headers } = compressedNow(firstPaint?.html ?? html, c.req.header('accept-encoding'))
    return c.body(body, firstPaint?.status ?? 200, {
      ...headers,
      'Content-Type': 'text/html; charset=UTF-8',
      'Content-Security-Policy': policy(html),
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'Content-Language': firstPaint?.lang ?? 'en',
    })
  })

  /** The page with the invoice rendered into it, as the client would render it from the same answer.
   * Null where that answer is not to be had now (the chain is unreachable): the client loads it. */
  async function renderedWithInvoice(html: string, id: bigint, url: string, acceptLanguageHeader: string | undefined) {
    const deploymentFile = join(distDir, builtDeploymentFile)
    // a page built before deployments were written beside it, or beside a file it cannot read: the
    // client renders it alone, against the deployment built into its script
    if (!existsSync(deploymentFile)) return null
    let deployment: PinnedDeployment
    try {
      deployment = readPinnedDeployment(deploymentFile)
    } catch {
      return null
    }
    const invoiceId = id.toString()
    const params = pageParams(new URL(url))
    const locale = await loadLocale(preferredLanguages(params, acceptLanguage(acceptLanguageHeader)))
    let page: ServedPage
    try {
      page = { locale: locale.tag, response: await document!(id, params.token ?? undefined) }
    } catch (error) {
      if (!(error instanceof CodedError && error.code === 'INVOICE_NOT_FOUND')) return null
      page = { locale: locale.tag, notFound: true }
    }
    const rendered = payPageMarkup(html, { page, locale, deployment, invoiceId, token: params.token, now: Date.now() })
    return { html: rendered, status: 'notFound' in page ? (404 as const) : (200 as const), lang: locale.strings.lang }
  }

  app.get('/assets/:file', async (c) => {
    const name = c.req.param('file')
    const type = contentTypes[name.split('.').pop() ?? '']
    if (!/^[\w.-]+$/.test(name) || name.startsWith('.') || !type) throw new HttpError(404, 'NOT_FOUND', 'no such asset')
    const file = await precompressedFile(join(distDir, 'assets', name), c.req.header('accept-encoding')).catch(() => {
      throw new HttpError(404, 'NOT_FOUND', 'no such asset')
    })
    return c.body(file.body, 200, { ...file.headers, 'Content-Type': type, 'Cache-Control': immutable })
  })

  return app
}
