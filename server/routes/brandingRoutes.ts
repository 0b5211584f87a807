import * as z from 'zod/mini'
import {
  brandingResponseSchema,
  deletedBrandingResponseSchema,
  logoExtensions,
  logoFilePattern,
  payBrandingResponseSchema,
  putBrandingRequestSchema,
  type PublicBranding,
} from '../../shared/brandingWire'
import type { InvoiceReader } from '../chain/invoiceReader'
import { verifyLogo } from '../branding/verifyLogo'
import type { BodyLimit } from '../http/limitBody'
import { perClientLimit } from '../http/perClientLimit'
import { payLimit } from './payRoutes'
import { HttpError } from '../http/httpError'
import { invoiceIdParams } from '../http/validate'
import type { BrandingStore, StudioBranding, StoredLogo } from '../store/brandingStore'
import { apiRoute } from './apiRoute'

export type BrandingDependencies = {
  store: Pick<BrandingStore, 'getBranding' | 'setBranding' | 'deleteBranding' | 'findBrandingByVault' | 'getLogo'>
  invoices: InvoiceReader
  /** The chain this deployment serves: an invoice's payee is the studio with that vault on it. */
  chainId: number
}

export type BrandingRoutesDependencies = { branding: BrandingDependencies }

export const brandingPath = '/v1/studios/me/branding'
export const logosPath = '/v1/branding/logos'

/** A logo's file name on our origin: its hash names its bytes, its extension its type. */
export const logoFile = (logo: Pick<StoredLogo, 'sha256' | 'contentType'>) => `${logo.sha256}.${logoExtensions[logo.contentType]}`

/** What a payer's page is told of a studio's branding (no URL: the page builds it on its own origin). */
export function publicBranding(branding: StudioBranding | null): PublicBranding | null {
  if (!branding) return null
  const { logo } = branding
  return { brandColor: branding.brandColor, logo: logo ? { file: logoFile(logo), width: logo.width, height: logo.height } : null }
}

function answer(branding: StudioBranding | null) {
  return {
    success: true as const,
    branding: branding && {
      brandColor: branding.brandColor,
      logo: branding.logo && { url: `${logosPath}/${logoFile(branding.logo)}`, ...branding.logo },
      updatedAt: branding.updatedAt.toISOString(),
    },
  }
}

/** Served as nothing but the image it is: a fixed type never sniffed, no document features (a
 * polyglot opened on its own runs nothing), and cacheable for good under its hash. */
export const logoHeaders = {
  'Cache-Control': 'public, max-age=31536000, immutable',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
  // the inline widget shows it on the merchant's page, another origin
  'Cross-Origin-Resource-Policy': 'cross-origin',
}

const merchantErrors = ['UNAUTHORIZED', 'FORBIDDEN'] as const
const brandingRoute = apiRoute<BrandingRoutesDependencies>()

/** The studio routes', one count per client across them. */
const studiosLimit = perClientLimit('studios', (settings) => settings.perMinute)
/** The logos' own count, apart from the studio routes'. */
const logosLimit = perClientLimit('logos', (settings) => settings.perMinute)
/** Every route at `brandingPath`: a logo of 64 KiB is 87,384 characters of base64. */
const brandingBodyLimit: BodyLimit = { maxBytes: 96 * 1024, refusal: 'the body is larger than 96 KiB: a logo is at most 64 KiB' }

/**
 * A studio's brand colour and logo: set by its merchant (an API key with HMAC, SPEC 5.2, or the
 * owner's JWT), on its own studio only, beside SPEC 4.1's `/v1/studios/me` routes, which are the
 * studio routes an API key may call and which always mean the caller's studio. Read by payers' pages,
 * which show it as presentation and never as a checked fact.
 */
export const brandingRoutes = [
  brandingRoute({
    method: 'get',
    path: brandingPath,
    summary: "The caller's studio's brand colour and logo",
    auth: 'merchant',
    scope: 'invoice:read',
    cors: 'none',
    rateLimits: [studiosLimit],
    bodyLimit: brandingBodyLimit,
    response: { status: 200, schema: brandingResponseSchema, description: 'The branding, or null where none is set.' },
    errors: merchantErrors,
    async handle(_, { branding }, c) {
      return answer(await branding.store.getBranding(c.get('principal').studio.id))
    },
  }),
  brandingRoute({
    method: 'put',
    path: brandingPath,
    summary: "Sets the caller's studio's brand colour and logo",
    description:
      'Replaces the whole branding: without `logo` the studio has none. `brandColor` is `#RRGGBB`; the pay page picks black or white text for it and keeps its own colours for everything it verifies. `logo` is a PNG, JPEG or WebP image in standard base64, at most 64 KiB and 1024 px each side; SVG is refused. Needs `invoice:write`: it changes what payers see.',
    auth: 'merchant',
    scope: 'invoice:write',
    cors: 'none',
    rateLimits: [studiosLimit],
    bodyLimit: brandingBodyLimit,
    body: putBrandingRequestSchema,
    response: { status: 200, schema: brandingResponseSchema, description: 'The branding as stored, with the URL its logo is served at.' },
    errors: [...merchantErrors, 'LOGO_TOO_LARGE', 'LOGO_TYPE_NOT_ACCEPTED', 'LOGO_INVALID', 'PAYLOAD_TOO_LARGE'],
    async handle({ body }, { branding }, c) {
      const logo = body.logo ? verifyLogo(body.logo) : null
      return answer(await branding.store.setBranding(c.get('principal').studio.id, { brandColor: body.brandColor, logo }))
    },
  }),
  brandingRoute({
    method: 'delete',
    path: brandingPath,
    summary: "Removes the caller's studio's brand colour and logo",
    auth: 'merchant',
    scope: 'invoice:write',
    cors: 'none',
    rateLimits: [studiosLimit],
    bodyLimit: brandingBodyLimit,
    response: { status: 200, schema: deletedBrandingResponseSchema, description: 'Removed: payers see the house colours again.' },
    errors: [...merchantErrors, 'NOT_FOUND'],
    async handle(_, { branding }, c) {
      if (!(await branding.store.deleteBranding(c.get('principal').studio.id))) throw new HttpError(404, 'NOT_FOUND', 'this studio has no branding to remove')
      return { success: true as const, message: 'the branding is removed: pay pages show the house colours from their next load' }
    },
  }),
  brandingRoute({
    method: 'get',
    path: '/v1/pay/:id/branding',
    summary: "The brand colour and logo of the invoice's payee",
    description:
      "Presentation only: the payee is the studio whose vault the chain names as the invoice's merchant, and the page shows its branding outside everything it verifies. `logo.file` is a file name under `/v1/branding/logos/` on this origin.",
    auth: 'none',
    cors: 'anyOrigin',
    rateLimits: [payLimit],
    params: invoiceIdParams,
    response: { status: 200, schema: payBrandingResponseSchema, description: 'The branding, or null where the payee has none.' },
    errors: ['NOT_FOUND'],
    async handle({ params: { id } }, { branding }) {
      const { invoice } = await branding.invoices.read(id)
      return { success: true as const, branding: publicBranding(await branding.store.findBrandingByVault(branding.chainId, invoice.merchant)) }
    },
  }),
  brandingRoute({
    method: 'get',
    path: `${logosPath}/:file`,
    summary: "A studio's logo, by the hash of its bytes",
    description: 'Served with its own fixed type, `X-Content-Type-Options: nosniff`, `Content-Security-Policy: default-src \'none\'; sandbox`, cacheable for good.',
    auth: 'none',
    cors: 'none',
    rateLimits: [logosLimit],
    params: z.object({ file: z.string().check(z.regex(logoFilePattern, 'a logo file is <sha256>.png, .jpg or .webp')) }),
    response: { status: 200, contentType: 'image/*', description: 'The logo: image/png, image/jpeg or image/webp.' },
    errors: ['NOT_FOUND'],
    async handle({ params: { file } }, { branding }, c) {
      const [sha256, extension] = file.split('.') as [string, string]
      const logo = await branding.store.getLogo(sha256)
      if (!logo || logoExtensions[logo.contentType] !== extension) throw new HttpError(404, 'NOT_FOUND', 'no logo with this name')
      return c.body(logo.bytes as Uint8Array<ArrayBuffer>, 200, { ...logoHeaders, 'Content-Type': logo.contentType })
    },
  }),
]
