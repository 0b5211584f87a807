import { inlineLogoMaxLength, logoTypeOfExtension } from '../../../shared/inlineLogo'
import { brandPalette, type BrandPalette } from '../brandPalette'

/** A studio's branding as the page draws it: the palette it computed itself, and the logo on the
 * origin the page already calls. */
export type PageBranding = { palette: BrandPalette; logo: { url: string; width: number; height: number } | null }

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const isSide = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 1024

/**
 * The service's word on the payee's branding (GET /v1/pay/:id/branding's `branding`, or what the server
 * rendered the page with), taken as presentation only: a colour that is exactly `#rrggbb`, and a logo
 * named by its hash and type, loaded from `baseUrl` (the service's origin, '' for the page's own) and
 * nowhere else. Anything else is no branding at all, never an error: a payer can pay without it.
 * Checked by hand, not with the wire's zod schema, which the page's first chunks do not carry.
 */
export function pageBrandingOf(raw: unknown, baseUrl: string): PageBranding | null {
  if (!isRecord(raw) || typeof raw.brandColor !== 'string' || !/^#[0-9a-f]{6}$/.test(raw.brandColor)) return null
  const { logo } = raw
  let shown: PageBranding['logo'] = null
  if (logo !== null) {
    if (!isRecord(logo) || typeof logo.file !== 'string' || !/^[0-9a-f]{64}\.(png|jpg|webp)$/.test(logo.file) || !isSide(logo.width) || !isSide(logo.height)) return null
    const inline = inlineLogo(logo.data, logo.file)
    shown = { url: inline ?? `${baseUrl.replace(/\/+$/, '')}/v1/branding/logos/${logo.file}`, width: logo.width, height: logo.height }
  }
  return { palette: brandPalette(raw.brandColor), logo: shown }
}

/** A small logo the server wrote into its page (server/routes/servedBranding.ts): a base64 `data:`
 * image of the type its file name says, and short (about 4 kB of bytes), or not used at all. An image
 * in any form draws nothing but pixels; the page's policy allows `data:` images and nothing else inline. */
function inlineLogo(data: unknown, file: string): string | null {
  if (typeof data !== 'string' || data.length > inlineLogoMaxLength) return null
  const type = logoTypeOfExtension[file.slice(file.lastIndexOf('.') + 1)]
  return data.startsWith(`data:${type};base64,`) && /^[A-Za-z0-9+/]+={0,2}$/.test(data.slice(`data:${type};base64,`.length)) ? data : null
}
