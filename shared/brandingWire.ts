import * as z from 'zod/mini'

/** A studio's branding, as the merchant routes (/v1/studios/me/branding) and the public read
 * (/v1/pay/:id/branding) speak it. Presentation only: nothing in it is ever shown as a checked fact. */

/** The largest logo accepted, in bytes and in pixels each side: a logo drawn at most 3 rem high. */
export const logoLimits = { bytes: 64 * 1024, pixels: 1024 } as const

/** `#rrggbb`, answered in lower case. No names, no alpha, no `var()` or `url()`: a colour and nothing else. */
export const brandColorSchema = z.pipe(
  z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/, 'the brand colour is #RRGGBB, six hexadecimal digits')),
  z.transform((color) => color.toLowerCase()),
)

export const logoTypes = ['image/png', 'image/jpeg', 'image/webp'] as const
export const logoTypeSchema = z.enum(logoTypes)
export type LogoType = z.infer<typeof logoTypeSchema>

export const logoExtensions: Record<LogoType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' }

/** The logo's file name on our origin: the SHA-256 of its bytes and its type's extension. A new
 * logo is a new name, so the file can be cached for good. */
export const logoFilePattern = /^[0-9a-f]{64}\.(png|jpg|webp)$/

/** Standard base64 (RFC 4648 section 4). Its length is bounded by the route's body limit (96 KiB)
 * before anything decodes it; the decoded size is the verifier's to refuse, with its own code. */
const logoBase64Schema = z.string().check(
  z.regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'the logo is standard base64 (A-Z, a-z, 0-9, +, / and = padding)'),
)

/** PUT /v1/studios/me/branding: replaces the whole branding, as SPEC 2.2's PUT replaces a profile.
 * Without `logo`, the studio has no logo. */
export const putBrandingRequestSchema = z.strictObject({
  brandColor: brandColorSchema,
  logo: z.optional(z.nullable(logoBase64Schema)),
})

const dimension = z.int().check(z.minimum(1), z.maximum(logoLimits.pixels))

export const storedLogoSchema = z.object({
  /** Where payers' pages load it: this server's origin, `/v1/branding/logos/<sha256>.<ext>`. */
  url: z.string(),
  sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
  contentType: logoTypeSchema,
  bytes: z.int(),
  width: dimension,
  height: dimension,
})

export const brandingResponseSchema = z.object({
  success: z.literal(true),
  branding: z.nullable(
    z.object({
      brandColor: z.string(),
      logo: z.nullable(storedLogoSchema),
      updatedAt: z.string(),
    }),
  ),
})

export const deletedBrandingResponseSchema = z.object({ success: z.literal(true), message: z.string() })

/** What a payer's page is told: the colour and the logo's file name and size, never a URL. The page
 * builds the URL on the origin it already calls, so no answer can make it load a third party's file. */
export const publicBrandingSchema = z.object({
  brandColor: z.string().check(z.regex(/^#[0-9a-f]{6}$/)),
  logo: z.nullable(z.object({ file: z.string().check(z.regex(logoFilePattern)), width: dimension, height: dimension })),
})

export const payBrandingResponseSchema = z.object({ success: z.literal(true), branding: z.nullable(publicBrandingSchema) })

export type PutBrandingRequest = z.input<typeof putBrandingRequestSchema>
export type BrandingResponse = z.infer<typeof brandingResponseSchema>
export type DeletedBrandingResponse = z.infer<typeof deletedBrandingResponseSchema>
export type PublicBranding = z.infer<typeof publicBrandingSchema>

/** What the server renders a pay page with: the public branding, and a small logo's own bytes as a
 * `data:` URL beside its file name, so that the first paint needs no request for it. Only the
 * server's render carries `data`; the public read above never does. */
export type ServedBranding = Omit<PublicBranding, 'logo'> & { logo: (NonNullable<PublicBranding['logo']> & { data?: string }) | null }
