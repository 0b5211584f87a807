import type * as z from 'zod/mini'
import { errorOf } from '../../src/api/requestJson'
import { ApiError } from '../../src/api/apiError'
import {
  createdTokenResponseSchema,
  regeneratedShareLinkResponseSchema,
  revokedTokenResponseSchema,
  shareLinkResponseSchema,
  tokenListResponseSchema,
  type CreatedTokenResponse,
  type RegeneratedShareLinkResponse,
  type RevokedTokenResponse,
  type ShareLinkResponse,
  type TokenListResponse,
} from '../../shared/shareWire'
import {
  createdWebhookEndpointResponseSchema,
  deletedWebhookEndpointResponseSchema,
  rotatedWebhookSecretResponseSchema,
  webhookEndpointListResponseSchema,
  type CreateWebhookEndpointRequest,
} from '../../shared/webhookWire'
import { brandingResponseSchema, deletedBrandingResponseSchema, type BrandingResponse, type DeletedBrandingResponse } from '../../shared/brandingWire'
import { signRequest } from './signRequest'
import { toBase64 } from './base64'

export type CreateMerchantClientParameters = {
  /** The service's origin, e.g. `https://api.example.com`: paths start at /v1. */
  baseUrl: string
  keyId: string
  secret: string
  fetch?: typeof globalThis.fetch
  timeoutMs?: number
}

export type MerchantCreateTokenParameters = { label?: string | undefined; expiresAt?: Date | string | undefined }

export type MerchantClient = {
  getShareLink(invoiceId: bigint | string): Promise<ShareLinkResponse>
  listTokens(invoiceId: bigint | string): Promise<TokenListResponse>
  createToken(invoiceId: bigint | string, options?: MerchantCreateTokenParameters): Promise<CreatedTokenResponse>
  revokeToken(invoiceId: bigint | string, tokenId: string): Promise<RevokedTokenResponse>
  regenerateShareLink(invoiceId: bigint | string): Promise<RegeneratedShareLinkResponse>
  /** The webhook routes beside SPEC 4.12 (docs/webhooks.md). */
  createWebhookEndpoint(request: CreateWebhookEndpointRequest): Promise<z.infer<typeof createdWebhookEndpointResponseSchema>>
  listWebhookEndpoints(): Promise<z.infer<typeof webhookEndpointListResponseSchema>>
  deleteWebhookEndpoint(id: string): Promise<z.infer<typeof deletedWebhookEndpointResponseSchema>>
  rotateWebhookSecret(id: string): Promise<z.infer<typeof rotatedWebhookSecretResponseSchema>>
  /** The caller's studio's brand colour and logo (GET /v1/studios/me/branding). */
  getBranding(): Promise<BrandingResponse>
  /** Replaces them: `#RRGGBB` and, optionally, a PNG, JPEG or WebP logo of at most 64 KiB and 1024 px. */
  setBranding(branding: MerchantSetBrandingParameters): Promise<BrandingResponse>
  deleteBranding(): Promise<DeletedBrandingResponse>
}

export type MerchantSetBrandingParameters = { brandColor: string; logo?: Uint8Array | undefined }

/**
 * SPEC 4.12 for a merchant's backend, signed with an API key (SPEC 5.2). Failures throw ApiError with
 * the answer's status and code; status 0 means no usable answer, so the request may or may not have
 * taken effect.
 */
export function createMerchantClient({ baseUrl, keyId, secret, fetch = globalThis.fetch, timeoutMs = 30_000 }: CreateMerchantClientParameters): MerchantClient {
  async function send<S extends z.ZodMiniType>(method: string, path: string, schema: S, body?: unknown): Promise<z.infer<S>> {
    // Signed as the URL serializes, which is exactly what fetch transmits.
    const url = new URL(path, baseUrl)
    // Serialized once: the bytes signed are the bytes sent.
    const bytes = body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body))
    const signed = await signRequest({ keyId, secret, method, path: url.pathname, query: url.search.slice(1), body: bytes })
    const headers: Record<string, string> = { ...signed, accept: 'application/json' }
    if (bytes) headers['content-type'] = 'application/json'
    let response: Response
    let answer: unknown
    try {
      response = await fetch(url, { method, headers, ...(bytes ? { body: bytes } : {}), signal: AbortSignal.timeout(timeoutMs) })
      answer = await response.json().catch(() => undefined)
    } catch (error) {
      throw new ApiError({ status: 0, code: 'NETWORK_ERROR', message: error instanceof Error ? error.message : 'no answer' })
    }
    if (!response.ok) throw errorOf(response, answer)
    const parsed = schema.safeParse(answer)
    if (!parsed.success) throw new ApiError({ status: 0, code: 'INVALID_RESPONSE', message: `the answer to ${method} ${url.pathname} is not the documented shape` })
    return parsed.data
  }

  const invoicePath = (invoiceId: bigint | string) => `/v1/invoices/${encodeURIComponent(String(invoiceId))}`

  return {
    getShareLink: (invoiceId) => send('GET', `${invoicePath(invoiceId)}/share`, shareLinkResponseSchema),
    listTokens: (invoiceId) => send('GET', `${invoicePath(invoiceId)}/tokens`, tokenListResponseSchema),
    createToken: (invoiceId, { label, expiresAt } = {}) =>
      send('POST', `${invoicePath(invoiceId)}/tokens`, createdTokenResponseSchema, {
        label,
        expiresAt: expiresAt instanceof Date ? expiresAt.toISOString() : expiresAt,
      }),
    revokeToken: (invoiceId, tokenId) => send('DELETE', `${invoicePath(invoiceId)}/tokens/${encodeURIComponent(tokenId)}`, revokedTokenResponseSchema),
    regenerateShareLink: (invoiceId) => send('POST', `${invoicePath(invoiceId)}/share/regenerate`, regeneratedShareLinkResponseSchema),
    createWebhookEndpoint: (request) => send('POST', '/v1/webhook-endpoints', createdWebhookEndpointResponseSchema, request),
    listWebhookEndpoints: () => send('GET', '/v1/webhook-endpoints', webhookEndpointListResponseSchema),
    deleteWebhookEndpoint: (id) => send('DELETE', `/v1/webhook-endpoints/${encodeURIComponent(id)}`, deletedWebhookEndpointResponseSchema),
    rotateWebhookSecret: (id) => send('POST', `/v1/webhook-endpoints/${encodeURIComponent(id)}/rotate-secret`, rotatedWebhookSecretResponseSchema),
    getBranding: () => send('GET', '/v1/studios/me/branding', brandingResponseSchema),
    setBranding: ({ brandColor, logo }) => send('PUT', '/v1/studios/me/branding', brandingResponseSchema, { brandColor, ...(logo ? { logo: toBase64(logo) } : {}) }),
    deleteBranding: () => send('DELETE', '/v1/studios/me/branding', deletedBrandingResponseSchema),
  }
}
