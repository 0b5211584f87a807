import * as z from 'zod/mini'
import { HttpError } from '../../http/httpError'
import { apiRoute } from '../../routes/apiRoute'
import type { ApiKeyStore } from '../../store/apiKeyStore'
import type { ApiKeyAuditLog } from './apiKeyAuditLog'
import {
  apiKeyListQuerySchema,
  apiKeyListResponseSchema,
  apiKeyParams,
  auditLogQuerySchema,
  auditLogResponseSchema,
  createApiKeyRequestSchema,
  createdApiKeyResponseSchema,
  revokedApiKeyResponseSchema,
  rotatedApiKeyResponseSchema,
  studioKeyParams,
} from './accountWire'
import { createOwnerApiKey, keyToWire } from './ownerApiKey'
import { requireOwner } from './requireOwner'
import { keyActivation, writeStatusOf } from '../signer/keyActivation'
import { readSignerState, signerDependenciesOf } from '../signer/signerLifecycle'
import type { SignerRoutesDependencies } from '../signer/signerRoutes'
import { keyActivationFields, signerSummarySchema } from '../signer/signerWire'
import { accountsLimit, mounted } from './signInRoutes'

export type ApiKeyManagementDependencies = {
  apiKeys: Pick<ApiKeyStore, 'createApiKey' | 'listApiKeys' | 'revokeApiKey' | 'rotateApiKey'>
  auditLog: Pick<ApiKeyAuditLog, 'record' | 'page'>
  now: () => number
}

/** Absent only where no route runs (a document of the routes). */
export type ApiKeyRoutesDependencies = { apiKeyManagement?: ApiKeyManagementDependencies } & SignerRoutesDependencies

/** What SPEC 2.8 says of the log, in every answer: it is sampled, not a ledger. */
export const auditLogSampling =
  'created, rotated and revoked are recorded every time, as is every write by a connected MCP agent or CLI sign-in (agent_write, with its client_name and a summary); key uses are sampled, about one authenticated request in ten, written asynchronously: this log is not a complete record of requests'

const keyNotFound = () => new HttpError(404, 'NOT_FOUND', 'no active API key with this id in this studio')

const keyRoute = apiRoute<ApiKeyRoutesDependencies>()
const policy = { auth: 'merchant', cors: 'none', rateLimits: [accountsLimit], signedInOnly: true } as const
const errors = ['UNAUTHORIZED', 'FORBIDDEN', 'MIXED_AUTH'] as const
const noStore = { 'Cache-Control': 'no-store' }
const base = '/v1/studios/:studioId/api-keys'

/**
 * SPEC 4.4: the owner's API keys. The owner's bearer token only: an API key, even of this studio,
 * cannot mint, see or revoke keys, and one sent beside the token is MIXED_AUTH (SPEC 5.1).
 */
export const apiKeyRoutes = [
  keyRoute({
    method: 'post',
    path: `${base}`,
    summary: 'Creates an API key; its secret is answered this once',
    ...policy,
    params: studioKeyParams,
    body: createApiKeyRequestSchema,
    response: {
      status: 201,
      schema: z.extend(createdApiKeyResponseSchema, keyActivationFields),
      description: "The key with its secret, shown once; with write access through a server signer that is not active, the activation (StartSession) its owner signs and sends to activate-signer, the session ending when the key does.",
      headers: noStore,
    },
    errors,
    async handle({ params, body }, dependencies, c) {
      const principal = requireOwner(c, params.studioId)
      const created = await createOwnerApiKey(mounted(dependencies.apiKeyManagement), {
        studioId: principal.studio.id,
        name: body.name,
        scopes: body.scopes,
        expiresInDays: body.expires_in_days,
        userId: principal.userId ?? null,
      })
      const signing = dependencies.serverSigner?.signers ? signerDependenciesOf(dependencies.serverSigner) : undefined
      const { signerStatus, ...activation } = await keyActivation(signing, principal.studio, { scopes: created.scopes, expiresAt: created.expires_at ? new Date(created.expires_at) : null })
      return { ...created, write_status: writeStatusOf(created, signerStatus), ...activation }
    },
  }),
  keyRoute({
    method: 'get',
    path: `${base}`,
    summary: "The studio's API keys, without their secrets",
    ...policy,
    params: studioKeyParams,
    query: apiKeyListQuerySchema,
    response: { status: 200, schema: z.extend(apiKeyListResponseSchema, { signer: z.nullable(signerSummarySchema) }), description: 'Every key, oldest first, and the studio\'s server signer their writes go through.', headers: noStore },
    errors,
    async handle({ params, query }, dependencies, c) {
      const { studio } = requireOwner(c, params.studioId)
      // the signer's state is the chain's, read once for every key: a write key is as ready as it is
      const signer = dependencies.serverSigner?.signers ? await readSignerState(signerDependenciesOf(dependencies.serverSigner), studio) : null
      const keys = (await mounted(dependencies.apiKeyManagement).apiKeys.listApiKeys(studio.id)).map((key) => ({ ...keyToWire(key), write_status: writeStatusOf(key, signer?.status ?? null) }))
      return {
        keys: query.status ? keys.filter((key) => key.write_status === query.status) : keys,
        signer: signer && { signer_id: 'record' in signer ? signer.record.signerId : null, status: signer.status, signer_address: 'signer' in signer ? signer.signer : null },
      }
    },
  }),
  keyRoute({
    method: 'get',
    path: `${base}/audit-log`,
    summary: "What happened to the studio's keys, newest first",
    description: auditLogSampling,
    ...policy,
    params: studioKeyParams,
    query: auditLogQuerySchema,
    response: { status: 200, schema: auditLogResponseSchema, description: 'A page of events and the cursor of the next.', headers: noStore },
    errors: [...errors, 'INVALID_CURSOR'],
    async handle({ params, query }, dependencies, c) {
      const { studio } = requireOwner(c, params.studioId)
      const page = await mounted(dependencies.apiKeyManagement).auditLog.page(studio.id, query.limit ?? 50, query.cursor)
      if (!page) throw new HttpError(400, 'INVALID_CURSOR', 'the cursor is no event of this studio: start again without one')
      return {
        events: page.events.map((event) => ({
          id: event.id,
          key_id: event.keyId,
          event: event.event,
          user_id: event.userId,
          method: event.method,
          path: event.path,
          client_name: event.clientName,
          summary: event.summary,
          created_at: event.createdAt.toISOString(),
        })),
        next_cursor: page.nextCursor,
        sampling: auditLogSampling,
      }
    },
  }),
  keyRoute({
    method: 'delete',
    path: `${base}/:keyId`,
    summary: 'Revokes an API key, at once and for good',
    ...policy,
    params: apiKeyParams,
    response: { status: 200, schema: revokedApiKeyResponseSchema, description: 'The key, revoked.' },
    errors: [...errors, 'NOT_FOUND'],
    async handle({ params }, dependencies, c) {
      const principal = requireOwner(c, params.studioId)
      const keys = mounted(dependencies.apiKeyManagement)
      if (!(await keys.apiKeys.revokeApiKey(principal.studio.id, params.keyId))) throw keyNotFound()
      await keys.auditLog.record(principal.studio.id, params.keyId, 'revoked', { userId: principal.userId ?? null })
      return { key_id: params.keyId, status: 'revoked' as const }
    },
  }),
  keyRoute({
    method: 'post',
    path: `${base}/:keyId/rotate`,
    summary: 'A new secret for the key; the old one stops working at once',
    ...policy,
    params: apiKeyParams,
    response: { status: 200, schema: rotatedApiKeyResponseSchema, description: 'The new secret, shown once; the key id is unchanged.', headers: noStore },
    errors: [...errors, 'NOT_FOUND'],
    async handle({ params }, dependencies, c) {
      const principal = requireOwner(c, params.studioId)
      const keys = mounted(dependencies.apiKeyManagement)
      const rotated = await keys.apiKeys.rotateApiKey(principal.studio.id, params.keyId)
      if (!rotated) throw keyNotFound()
      await keys.auditLog.record(principal.studio.id, params.keyId, 'rotated', { userId: principal.userId ?? null })
      return { key_id: rotated.keyId, secret: rotated.secret, secret_hint: rotated.secretHint }
    },
  }),
]
