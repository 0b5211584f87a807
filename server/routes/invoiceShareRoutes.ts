import { Hono, type Context, type MiddlewareHandler } from 'hono'
import * as z from 'zod/mini'
import {
  createTokenRequestSchema,
  type CreatedTokenResponse,
  type RegeneratedShareLinkResponse,
  type RevokedTokenResponse,
  type ShareLinkResponse,
  type TokenListResponse,
  type TokenStatus,
} from '../../src/merchant/shareWire'
import { shareLinkFor } from '../../src/shared/shareLink'
import { readOwnedInvoice } from '../auth/ownedInvoice'
import type { AuthEnv } from '../auth/principal'
import { requireScope } from '../auth/requireScope'
import type { InvoiceReader } from '../chain/invoiceReader'
import { HttpError, ValidationError } from '../http/httpError'
import { invoiceIdParam, jsonBody, validate } from '../http/validate'
import type { AccessTokenRecord, AccessTokenStore } from '../store/accessTokenStore'
import type { InvoiceMetadataStore } from '../store/invoiceMetadataStore'
import type { InvoiceKey } from '../store/invoiceKey'

export type InvoiceShareContext = {
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

const tokenIdSchema = z.uuid('the token id is a UUID')
const maxTokenLifetimeMs = 365 * 86_400_000

/** Tokens and links are bearer credentials: no cache may keep an answer that carries one. */
const noStore = { 'Cache-Control': 'no-store' }

/** SPEC 4.12 makes the body optional: none at all reads as `{}`. */
async function optionalJsonBody<S extends z.ZodMiniType>(c: Context, schema: S): Promise<z.infer<S>> {
  if ((await c.req.arrayBuffer()).byteLength === 0) return validate(schema, {}, 'body')
  return jsonBody(c, schema)
}

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

/**
 * SPEC 4.12: share links and metadata access tokens, for the caller's own invoices (its studio vault
 * is the on-chain merchant); any other invoice is a 404 like a missing one. No scope guard but on
 * GET share (SPEC 5.6). `authenticated` is applied per route: it claims the request's nonce.
 */
export function invoiceShareRoutes(context: InvoiceShareContext, authenticated: MiddlewareHandler<AuthEnv>) {
  const app = new Hono<AuthEnv>()

  async function ownedInvoice(c: Context<AuthEnv>) {
    const id = invoiceIdParam(c)
    await readOwnedInvoice(context.invoices, context.chainId, c.get('principal'), id)
    return { id, key: context.invoiceKey(id) }
  }

  const linkFor = (id: bigint, token: string) => shareLinkFor(context.publicUrl(), id, token)

  app.get('/:id/share', authenticated, requireScope('invoice:read'), async (c) => {
    const { id, key } = await ownedInvoice(c)
    const [metadata, current] = await Promise.all([context.metadata.getMetadata(key), context.tokens.getDefaultToken(key)])
    const answer: ShareLinkResponse = {
      success: true,
      invoiceId: id.toString(),
      hasEncryption: metadata !== null,
      shareLink: current?.token ? linkFor(id, current.token) : null,
      tokenHint: current?.hint ?? null,
    }
    return c.json(answer, 200, noStore)
  })

  app.get('/:id/tokens', authenticated, async (c) => {
    const { key } = await ownedInvoice(c)
    const now = context.now()
    const answer: TokenListResponse = {
      success: true,
      tokens: (await context.tokens.listTokens(key)).map((record) => ({
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
    return c.json(answer)
  })

  app.post('/:id/tokens', authenticated, async (c) => {
    const { id, key } = await ownedInvoice(c)
    const body = await optionalJsonBody(c, createTokenRequestSchema)
    const expiresAt = body.expiresAt === undefined ? undefined : tokenExpiry(body.expiresAt, context.now())
    const created = await context.tokens.createToken({ invoice: key, label: body.label, expiresAt, isDefault: false })
    const answer: CreatedTokenResponse = {
      success: true,
      tokenId: created.tokenId,
      token: created.token,
      shareLink: linkFor(id, created.token),
      hint: created.hint,
      expiresAt: created.expiresAt?.toISOString() ?? null,
    }
    return c.json(answer, 201, noStore)
  })

  app.delete('/:id/tokens/:tokenId', authenticated, async (c) => {
    const { key } = await ownedInvoice(c)
    const tokenId = validate(tokenIdSchema, c.req.param('tokenId'), 'tokenId')
    if (!(await context.tokens.revokeToken(key, tokenId))) throw new HttpError(404, 'NOT_FOUND', 'no active token with this id on this invoice')
    const answer: RevokedTokenResponse = { success: true, message: 'the token is revoked for good: its links and documents stop opening now' }
    return c.json(answer)
  })

  app.post('/:id/share/regenerate', authenticated, async (c) => {
    const { id, key } = await ownedInvoice(c)
    const created = await context.tokens.regenerateDefault(key)
    const answer: RegeneratedShareLinkResponse = {
      success: true,
      tokenId: created.tokenId,
      token: created.token,
      shareLink: linkFor(id, created.token),
      hint: created.hint,
    }
    return c.json(answer, 200, noStore)
  })

  return app
}
