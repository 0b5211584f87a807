import * as z from 'zod/mini'

/** SPEC 4.12's bodies, shared by the server's routes and the merchant client so the two never drift.
 * Dates travel as ISO 8601 date-time strings (SPEC 1). */

export const tokenLabelSchema = z.string().check(z.minLength(1), z.maxLength(100))

/** POST /v1/invoices/:id/tokens. The server also requires expiresAt to lie in the next year. */
export const createTokenRequestSchema = z.strictObject({
  label: z.optional(tokenLabelSchema),
  expiresAt: z.optional(z.iso.datetime({ offset: true })),
})

export const shareLinkResponseSchema = z.object({
  success: z.literal(true),
  invoiceId: z.string(),
  hasEncryption: z.boolean(),
  /** A bearer credential: its query token must never be stripped (SPEC 2.6). */
  shareLink: z.nullable(z.string()),
  tokenHint: z.nullable(z.string()),
})

export const tokenStatusSchema = z.enum(['active', 'revoked', 'expired'])

export const tokenListResponseSchema = z.object({
  success: z.literal(true),
  tokens: z.array(
    z.object({
      tokenId: z.string(),
      label: z.nullable(z.string()),
      hint: z.string(),
      createdAt: z.string(),
      expiresAt: z.nullable(z.string()),
      revoked: z.boolean(),
      status: tokenStatusSchema,
      isDefault: z.boolean(),
    }),
  ),
})

export const createdTokenResponseSchema = z.object({
  success: z.literal(true),
  tokenId: z.string(),
  token: z.string(),
  shareLink: z.string(),
  hint: z.string(),
  expiresAt: z.nullable(z.string()),
})

export const revokedTokenResponseSchema = z.object({ success: z.literal(true), message: z.string() })

export const regeneratedShareLinkResponseSchema = z.object({
  success: z.literal(true),
  tokenId: z.string(),
  token: z.string(),
  shareLink: z.string(),
  hint: z.string(),
})

export type CreateTokenRequest = z.infer<typeof createTokenRequestSchema>
export type ShareLinkResponse = z.infer<typeof shareLinkResponseSchema>
export type TokenListResponse = z.infer<typeof tokenListResponseSchema>
export type TokenStatus = z.infer<typeof tokenStatusSchema>
export type CreatedTokenResponse = z.infer<typeof createdTokenResponseSchema>
export type RevokedTokenResponse = z.infer<typeof revokedTokenResponseSchema>
export type RegeneratedShareLinkResponse = z.infer<typeof regeneratedShareLinkResponseSchema>
