import { join } from 'node:path'
import { Hono } from 'hono'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import { pageParams, preferredLanguages, rememberedLanguage } from '../../src/ui/page/pageParams'
import { languageOf } from '../../src/ui/languages'
import type { ServedPage } from '../../src/ui/page/servedPage'
import { loadLocale } from '../../src/ui/strings'
import { CodedError } from '../../shared/codedError'
import { HttpError } from '../http/httpError'
import { acceptLanguage } from '../http/qualityValues'
import { compressedOnce, precompressedFile, type MadeBody } from '../http/negotiateEncoding'
import { invoiceIdParams } from '../http/validate'
import { builtPayPage, type BuiltPayPage } from './builtPayPage'
import { keptRenders } from './keptRenders'
import { payPageError } from './payPageError'
import { payPageMarkup } from './payPageMarkup'
import { allowStyleAttribute } from './allowStyleAttribute'
import { brandPalette, brandStyle } from '../../src/ui/brandPalette'
import type { ServedBranding } from '../../shared/brandingWire'
import type { PayErrorKind } from '../../src/ui/page/PayErrorPage'
import { perClientLimit } from '../http/perClientLimit'
import type { PolicyMiddleware } from './routePolicy'

export type PayPageParameters = {
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
  /** The colour and logo of the studio whose vault this is (the invoice's payee), drawn around the
   * rendered page: presentation only. */
  branding?: (merchant: `0x${string}`) => Promise<ServedBranding | null>
}

type ServedInvoiceDocument = Extract<ServedPage, { response: unknown }>['response']

type FirstPaint = { body: MadeBody; status: 200 | 404; lang: string; brandStyle?: string }

/** The payer's pick in the language switch, remembered for their next share link (any invoice): a
 * preference, not a secret, readable by the page for the pages the server renders no invoice into. */
function languageCookie(lang: string | null, origin: string): Record<string, string> {
  const language = lang ? languageOf(lang) : null
  if (!language) return {}
  const secure = origin.startsWith('https:') ? '; Secure' : ''
  return { 'Set-Cookie': `svc_lang=${language}; Path=/pay; Max-Age=31536000; SameSite=Lax${secure}` }
}

/** Hashed file names: a file's content never changes under its name. */
export const immutable = 'public, max-age=31536000, immutable'

const contentTypes: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
}

/** The origins that may frame the page, for the page itself: an embedded page posts events only to
 * one of these (src/frame/frameChannel.ts). The same list as CSP frame-ancestors, origins only. */
export function allowedParents(frameAncestors: string, ownOrigin: string): string[] {
  return frameAncestors
    .split(/\s+/)
    .map((source) => (source === "'self'" ? ownOrigin : source))
    .filter((source) => /^https?:\/\/[\w.-]+(:\d+)?$/.test(source))
}

/** Each view reads the chain and the database, decrypts and renders: counted like the API, apart from it. */
export const pageLimit = perClientLimit('page', (settings) => settings.perMinute)

/** The built pay page at the share-link path, and its assets. The page's URL carries a bearer token:
 * it is never cached, and its policy keeps the token from leaving (no referrer) and the page from
 * running anything but its own files. `policy` (the app's, server/app.ts): every path under /pay/ is
 * counted in `pageLimit`, and any origin may read the assets; absent, the page alone, as tests mount it. */
export function payPage({ distDir, frameAncestors, connectSources, publicOrigin, document, branding, policy }: PayPageParameters & { policy?: Pick<PolicyMiddleware, 'anyOrigin' | 'limited'> }) {
  const app = new Hono()
  if (policy) {
    app.use('/pay/*', policy.limited(pageLimit))
    app.use('/assets/*', policy.anyOrigin)
  }
  const built = builtPayPage({ distDir, frameAncestors, connectSources })
  const renders = keptRenders<FirstPaint>()
  app.get('/pay/:id', async (c) => {
    const page = built(allowedParents(frameAncestors, publicOrigin()).join(' '))
    // a payer's browser asked for a page: whatever goes wrong, it gets one in the payer's language,
    // with the status an API client would get, never the API's JSON
    const errorPage = async (status: 400 | 503, kind: PayErrorKind) => {
      const params = pageParams(new URL(c.req.url))
      const locale = await loadLocale(preferredLanguages(params, acceptLanguage(c.req.header('accept-language')), rememberedLanguage(c.req.header('cookie'))))
      return c.html(payPageError(page?.shell.text ?? null, locale, kind, params), status, {
        ...languageCookie(params.lang, publicOrigin()),
        ...(page ? { 'Content-Security-Policy': page.policy } : { 'Content-Security-Policy': "default-src 'none'; frame-ancestors " + frameAncestors }),
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
        'Content-Language': locale.strings.lang,
      })
    }
    if (!page) return errorPage(503, 'unavailable')
    const params = invoiceIdParams.safeParse(c.req.param())
    if (!params.success) return errorPage(400, 'badLink')
    const firstPaint = document && page.deployment ? await renderedWithInvoice(page, page.deployment, params.data.id, c.req.url, c.req.header('accept-language'), c.req.header('cookie')) : null
    const { body, headers } = compressedOnce(firstPaint?.body ?? page.shell, c.req.header('accept-encoding'))
    return c.body(body, firstPaint?.status ?? 200, {
      ...headers,
      ...languageCookie(pageParams(new URL(c.req.url)).lang, publicOrigin()),
      'Content-Type': 'text/html; charset=UTF-8',
      'Content-Security-Policy': allowStyleAttribute(page.policy, firstPaint?.brandStyle),
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'Content-Language': firstPaint?.lang ?? 'en',
    })
  })

  // A share link pasted with a slash after it (a chat app or a person adds one) reached no route and
  // the payer's browser showed the API's JSON 404. The page lives at one address (its script reads the
  // id from it), so the slash is dropped; the query is the token, kept as it came. Never cached, no
  // referrer: the address is a credential, as on the page itself.
  app.get('/pay/:id/', (c) => {
    const url = new URL(c.req.url)
    c.header('Cache-Control', 'no-store')
    c.header('Referrer-Policy', 'no-referrer')
    return c.redirect(`${url.pathname.slice(0, -1)}${url.search}`, 308)
  })

  /** The page with the invoice rendered into it, as the client would render it from the same answer.
   * Null where that answer is not to be had now (the chain is unreachable): the client loads it. */
  async function renderedWithInvoice(built: BuiltPayPage, deployment: PinnedDeployment, id: bigint, url: string, acceptLanguageHeader: string | undefined, cookieHeader: string | undefined): Promise<FirstPaint | null> {
    const invoiceId = id.toString()
    const params = pageParams(new URL(url))
    const locale = await loadLocale(preferredLanguages(params, acceptLanguage(acceptLanguageHeader), rememberedLanguage(cookieHeader)))
    let page: ServedPage
    try {
      page = { locale: locale.tag, response: await document!(id, params.token ?? undefined) }
    } catch (error) {
      if (!(error instanceof CodedError && error.code === 'INVOICE_NOT_FOUND')) return null
      page = { locale: locale.tag, notFound: true }
    }
    const now = Date.now()
    // Rendered again whenever what it shows is a new object: the chain's next read of the invoice
    // (each second while it is open), another answer to the token (revoked: no metadata), a rebuild.
    // Until then the same inputs make the same markup, and rendering it was most of the page's time.
    const response = 'response' in page ? page.response : null
    // without it the page is as good, in the house colours
    const brand = response && branding ? await branding(response.data.merchant).catch(() => null) : null
    const key = [invoiceId, locale.tag, params.token ?? '', params.layout, response ? Number(response.data.dueAt) * 1000 < now : 'notFound', params.embed, params.locale, params.theme, brand ? `${brand.brandColor}:${brand.logo?.file}` : ''].join(' ')
    const inputs = [built, response?.data, response?.metadata, response?.accessLevel]
    const kept = renders.get(key, inputs)
    if (kept) return kept
    const link = { token: params.token, embed: params.embed, theme: params.theme, locale: params.locale, layout: params.layout }
    const html = payPageMarkup(built.template, { page, locale, deployment, invoiceId, token: params.token, now, layout: params.layout, branding: brand, link })
    const rendered: FirstPaint = { body: { text: html }, status: 'notFound' in page ? 404 : 200, lang: locale.strings.lang, ...(brand ? { brandStyle: brandStyle(brandPalette(brand.brandColor)) } : {}) }
    renders.set(key, inputs, rendered)
    return rendered
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
