import * as z from 'zod/mini'
import {
  createdTokenResponseSchema,
  createTokenRequestSchema,
  regeneratedShareLinkResponseSchema,
  revokedTokenResponseSchema,
  shareLinkResponseSchema,
  tokenListResponseSchema,
  type TokenStatus,
} from '../../shared/shareWire'
import { shareLinkFor } from '../../shared/shareLink'
import { readOwnedInvoice } from '../auth/readOwnedInvoice'
import type { AuthEnv } from '../auth/principal'
import type { InvoiceReader } from '../chain/invoiceReader'
import { perClientLimit } from '../http/perClientLimit'
import { apiRoute } from './apiRoute'
import { HttpError, ValidationError } from '../http/httpError'
import { invoiceIdParams } from '../http/validate'
import type { AccessTokenRecord, AccessTokenStore } from '../store/accessTokenStore'
import type { InvoiceMetadataStore } from '../store/invoiceMetadataStore'
import type { InvoiceKey } from '../store/invoiceKey'

export type InvoiceShareDependencies = {
  invoices: InvoiceReader
  /** The chain this deployment serves: a studio's vault on another chain owns nothing here. */
  chainId: number
  tokens: AccessTokenStore
  metadata: Pick<InvoiceMetadataStore, 'getMetadata'>
  invoiceKey: (invoiceId: bigint) => InvoiceKey
  /** The origin payers reach the pay page at; share links are built on it. */
  publicUrl: () => string
  now: () => number
}

const maxTokenLifetimeMs = 365 * 86_400_000

/** Tokens and links are bearer credentials: no cache may keep an answer that carries one. */
const noStore = { 'Cache-Control': 'no-store' }

const tokenParams = z.extend(invoiceIdParams, { tokenId: z.uuid('the token id is a UUID') })
const merchantErrors = ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'] as const

function tokenExpiry(expiresAt: string, now: number): Date {
  const at = new Date(expiresAt)
  if (at.getTime() <= now) throw new ValidationError([{ path: 'body.expiresAt', message: 'the expiry must be in the future' }])
  if (at.getTime() > now + maxTokenLifetimeMs) throw new ValidationError([{ path: 'body.expiresAt', message: 'the expiry must be at most one year ahead' }])
  return at
}

function statusOf(record: AccessTokenRecord, now: number): TokenStatus {
  if (record.revokedAt) return 'revoked'
  return record.expiresAt && record.expiresAt.getTime() <= now ? 'expired' : 'active'
}

export type InvoiceShareRoutesDependencies = { share: InvoiceShareDependencies }

/** The caller's own invoice (its studio vault is the on-chain merchant); any other is a 404 like a missing one. */
async function ownedInvoice(share: InvoiceShareDependencies, principal: AuthEnv['Variables']['principal'], id: bigint) {
  await readOwnedInvoice(share.invoices, share.chainId, principal, id)
  return share.invoiceKey(id)
}

const linkFor = (share: InvoiceShareDependencies, id: bigint, token: string) => shareLinkFor(share.publicUrl(), id, token)

const shareRoute = apiRoute<InvoiceShareRoutesDependencies>()

/** The merchant's invoice routes', one count per client across them. */
export const invoicesLimit = perClientLimit('invoices', (settings) => settings.perMinute)

/**
 * SPEC 4.12: share links and metadata access tokens, for the caller's own invoices. No scope guard
 * but on GET share (SPEC 5.6). Authentication runs first on each: it claims the request's nonce.
 */
export const invoiceShareRoutes = [
  shareRoute({
    method: 'get',
    path: '/v1/invoices/:id/share',
    summary: "The invoice's share link",
    auth: 'merchant',
    cors: 'none',
    rateLimits: [invoicesLimit],
    scope: 'invoice:read',
    params: invoiceIdParams,
    response: { status: 200, schema: shareLinkResponseSchema, description: 'The current share link.', headers: noStore },
    errors: merchantErrors,
    async handle({ params: { id } }, { share }, c) {
      const key = await ownedInvoice(share, c.get('principal'), id)
      const [metadata, current] = await Promise.all([share.metadata.getMetadata(key), share.tokens.getDefaultToken(key)])
      return {
        success: true as const,
        invoiceId: id.toString(),
        hasEncryption: metadata !== null,
        shareLink: current?.token ? linkFor(share, id, current.token) : null,
        tokenHint: current?.hint ?? null,
      }
    },
  }),
  shareRoute({
    method: 'post',
    path: '/v1/invoices/:id/share/regenerate',
    summary: 'Revoke every token of the invoice and issue a new share link',
    auth: 'merchant',
    cors: 'none',
    rateLimits: [invoicesLimit],
    params: invoiceIdParams,
    response: { status: 200, schema: regeneratedShareLinkResponseSchema, description: 'The new share link.', headers: noStore },
    errors: merchantErrors,
    async handle({ params: { id } }, { share }, c) {
      const created = await share.tokens.regenerateDefault(await ownedInvoice(share, c.get('principal'), id))
      return { success: true as const, tokenId: created.tokenId, token: created.token, shareLink: linkFor(share, id, created.token), hint: created.hint }
    },
  }),
  shareRoute({
    method: 'get',
    path: '/v1/invoices/:id/tokens',
    summary: "The invoice's access tokens, without their secrets",
    auth: 'merchant',
    cors: 'none',
    rateLimits: [invoicesLimit],
    params: invoiceIdParams,
    response: { status: 200, schema: tokenListResponseSchema, description: 'Every token with its status.' },
    errors: merchantErrors,
    async handle({ params: { id } }, { share }, c) {
      const key = await ownedInvoice(share, c.get('principal'), id)
      const now = share.now()
      return {
        success: true as const,
        tokens: (await share.tokens.listTokens(key)).map((record) => ({
          tokenId: record.tokenId,
          label: record.label,
          hint: record.hint,
          createdAt: record.createdAt.toISOString(),
          expiresAt: record.expiresAt?.toISOString() ?? null,
          revoked: record.revokedAt !== null,
          status: statusOf(record, now),
          isDefault: record.isDefault,
        })),
      }
    },
  }),
  shareRoute({
    method: 'post',
    path: '/v1/invoices/:id/tokens',
    summary: 'A new access token for the invoice',
    auth: 'merchant',
    cors: 'none',
    rateLimits: [invoicesLimit],
    params: invoiceIdParams,
    body: createTokenRequestSchema,
    bodyOptional: true,
    response: { status: 201, schema: createdTokenResponseSchema, description: 'The token, shown once.', headers: noStore },
    errors: merchantErrors,
    async handle({ params: { id }, body }, { share }, c) {
      const key = await ownedInvoice(share, c.get('principal'), id)
      const expiresAt = body.expiresAt === undefined ? undefined : tokenExpiry(body.expiresAt, share.now())
      const created = await share.tokens.createToken({ invoice: key, label: body.label, expiresAt, isDefault: false })
      return {
        success: true as const,
        tokenId: created.tokenId,
        token: created.token,
        shareLink: linkFor(share, id, created.token),
        hint: created.hint,
        expiresAt: created.expiresAt?.toISOString() ?? null,
      }
    },
  }),
  shareRoute({
    method: 'delete',
    path: '/v1/invoices/:id/tokens/:tokenId',
    summary: 'Revoke an access token',
    auth: 'merchant',
    cors: 'none',
    rateLimits: [invoicesLimit],
    params: tokenParams,
    response: { status: 200, schema: revokedTokenResponseSchema, description: 'Revoked.' },
    errors: merchantErrors,
    async handle({ params: { id, tokenId } }, { share }, c) {
      const key = await ownedInvoice(share, c.get('principal'), id)
      if (!(await share.tokens.revokeToken(key, tokenId))) throw new HttpError(404, 'NOT_FOUND', 'no active token with this id on this invoice')
      return { success: true as const, message: 'the token is revoked for good: its links and documents stop opening now' }
    },
  }),
]
