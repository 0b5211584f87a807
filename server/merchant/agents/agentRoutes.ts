import { HttpError } from '../../http/httpError'
import { apiRoute } from '../../routes/apiRoute'
import type { ApiKeyStore } from '../../store/apiKeyStore'
import type { Studio } from '../../store/studioStore'
import type { ApiKeyAuditLog } from '../accounts/apiKeyAuditLog'
import { createOwnerApiKey, keyToWire } from '../accounts/ownerApiKey'
import { keyActivation, writeStatusOf } from '../signer/keyActivation'
import type { SessionSignerDependencies } from '../signer/sendSessionCall'
import { readSignerState, signerDependenciesOf } from '../signer/signerLifecycle'
import { requireOwner } from '../accounts/requireOwner'
import { accountsLimit, mounted } from '../accounts/signInRoutes'
import type { Agent, AgentStore } from './agentStore'
import { agentsPerStudio } from './agentStore'
import {
  agentKeyLinkResponseSchema,
  agentKeyParams,
  agentKeyRequestSchema,
  agentKeysResponseSchema,
  agentListResponseSchema,
  agentParams,
  agentSchema,
  createAgentRequestSchema,
  createdAgentKeyResponseSchema,
  createdAgentResponseSchema,
  deletedAgentResponseSchema,
  studioAgentsParams,
  updateAgentRequestSchema,
  updatedAgentResponseSchema,
  type WireAgent,
} from './agentWire'

export type AgentManagementDependencies = {
  agents: AgentStore
  apiKeys: Pick<ApiKeyStore, 'createApiKey' | 'listApiKeys' | 'revokeApiKey'>
  auditLog: Pick<ApiKeyAuditLog, 'record'>
  now: () => number
}

/** Absent only where no route runs (a document of the routes). `serverSigner`: the signer its write
 * keys go through, absent where the server has none (no activation is then asked for). */
export type AgentRoutesDependencies = { agentManagement?: AgentManagementDependencies; serverSigner?: SessionSignerDependencies }

const signingOf = (dependencies: AgentRoutesDependencies) => (dependencies.serverSigner?.signers ? signerDependenciesOf(dependencies.serverSigner) : undefined)

/** A new key of an agent with its write status and, for write access through a server signer that is
 * not active, its activation (SPEC 4.4, the same as the key routes answer: server/merchant/signer/keyActivation.ts). */
async function withActivation(dependencies: AgentRoutesDependencies, studio: Studio, key: Awaited<ReturnType<typeof createOwnerApiKey>>) {
  const { signerStatus, ...activation } = await keyActivation(signingOf(dependencies), studio, { scopes: key.scopes, expiresAt: key.expires_at ? new Date(key.expires_at) : null })
  return { api_key: { ...key, write_status: writeStatusOf(key, signerStatus), activation_required: activation.activation_required }, ...activation }
}

const agentNotFound = () => new HttpError(404, 'NOT_FOUND', 'no agent with this id in this studio')
const limitReached = () =>
  new HttpError(409, 'AGENT_LIMIT_REACHED', `a studio has at most ${agentsPerStudio} agents: delete one you no longer use before adding another`)

function agentToWire(agent: Agent): WireAgent {
  return {
    id: agent.id,
    name: agent.name,
    description: agent.description,
    icon: agent.icon,
    scopes: agent.scopes,
    status: agent.status,
    linked_keys: agent.linkedKeys,
    created_at: agent.createdAt.toISOString(),
    updated_at: agent.updatedAt.toISOString(),
  }
}

const agentRoute = apiRoute<AgentRoutesDependencies>()
const policy = { auth: 'merchant', cors: 'none', rateLimits: [accountsLimit], signedInOnly: true } as const
const errors = ['UNAUTHORIZED', 'FORBIDDEN', 'MIXED_AUTH'] as const
const noStore = { 'Cache-Control': 'no-store' }
const base = '/v1/studios/:studioId/agents'

/**
 * SPEC 4.6: the owner's agents, each a named record holding keys. The owner's bearer token only, as
 * for the keys themselves (SPEC 5.6): an API key or an OAuth token cannot make an agent, nor a key
 * for one, and a key sent beside the token is MIXED_AUTH (SPEC 5.1). Disabling an agent refuses its
 * keys at authentication; deleting it revokes them; unlinking a key leaves the key working.
 */
export const agentRoutes = [
  agentRoute({
    method: 'post',
    path: base,
    summary: 'Creates an agent with its first API key; the secret is answered this once',
    ...policy,
    params: studioAgentsParams,
    body: createAgentRequestSchema,
    response: { status: 201, schema: createdAgentResponseSchema, description: 'The agent and its key, with the secret shown once.', headers: noStore },
    errors: [...errors, 'AGENT_LIMIT_REACHED'],
    async handle({ params, body }, dependencies, c) {
      const principal = requireOwner(c, params.studioId)
      const agents = mounted(dependencies.agentManagement)
      const studioId = principal.studio.id
      // asked first so that the usual refusal makes no key; the store counts again under its lock
      if ((await agents.agents.countAgents(studioId)) >= agentsPerStudio) throw limitReached()
      const key = await createOwnerApiKey(agents, { studioId, name: body.name, scopes: body.scopes, expiresInDays: body.expires_in_days, userId: principal.userId ?? null })
      const agent = await agents.agents.createAgent(studioId, { name: body.name, description: body.description || null, icon: body.icon ?? 'bot', scopes: body.scopes }, key.key_id)
      if (!agent) {
        // another request took the last place meanwhile: the key made for this agent must not outlive it
        await agents.apiKeys.revokeApiKey(studioId, key.key_id)
        await agents.auditLog.record(studioId, key.key_id, 'revoked', { userId: principal.userId ?? null })
        throw limitReached()
      }
      return { agent: agentToWire(agent), ...(await withActivation(dependencies, principal.studio, key)) }
    },
  }),
  agentRoute({
    method: 'get',
    path: base,
    summary: "The studio's agents, oldest first",
    ...policy,
    params: studioAgentsParams,
    response: { status: 200, schema: agentListResponseSchema, description: 'Every agent (at most 50), oldest first.', headers: noStore },
    errors,
    async handle({ params }, dependencies, c) {
      const { studio } = requireOwner(c, params.studioId)
      const agents = (await mounted(dependencies.agentManagement).agents.listAgents(studio.id)).map(agentToWire)
      // the studio's server signer, which the agents' write keys go through, as the key list shows it
      const signing = signingOf(dependencies)
      const signer = signing ? await readSignerState(signing, studio) : null
      return {
        agents,
        signer: signer && { signer_id: 'record' in signer ? signer.record.signerId : null, status: signer.status, signer_address: 'signer' in signer ? signer.signer : null },
      }
    },
  }),
  agentRoute({
    method: 'get',
    path: `${base}/:agentId`,
    summary: 'One agent',
    ...policy,
    params: agentParams,
    response: { status: 200, schema: agentSchema, description: 'The agent itself, not wrapped.', headers: noStore },
    errors: [...errors, 'NOT_FOUND'],
    async handle({ params }, dependencies, c) {
      const { studio } = requireOwner(c, params.studioId)
      const agent = await mounted(dependencies.agentManagement).agents.getAgent(studio.id, params.agentId)
      if (!agent) throw agentNotFound()
      return agentToWire(agent)
    },
  }),
  agentRoute({
    method: 'patch',
    path: `${base}/:agentId`,
    summary: 'Renames, describes or disables an agent; its keys keep their scopes',
    description: "status disabled refuses the agent's keys from the next request (403 FORBIDDEN); active lets them in again.",
    ...policy,
    params: agentParams,
    body: updateAgentRequestSchema,
    response: { status: 200, schema: updatedAgentResponseSchema, description: 'The agent as it is now.' },
    errors: [...errors, 'NOT_FOUND'],
    async handle({ params, body }, dependencies, c) {
      const { studio } = requireOwner(c, params.studioId)
      const description = body.description === undefined ? undefined : body.description || null
      const agent = await mounted(dependencies.agentManagement).agents.updateAgent(studio.id, params.agentId, { name: body.name, description, icon: body.icon, status: body.status })
      if (!agent) throw agentNotFound()
      return { agent: agentToWire(agent) }
    },
  }),
  agentRoute({
    method: 'delete',
    path: `${base}/:agentId`,
    summary: 'Deletes an agent and revokes every key it holds',
    ...policy,
    params: agentParams,
    response: { status: 200, schema: deletedAgentResponseSchema, description: 'How many keys were revoked with it.' },
    errors: [...errors, 'NOT_FOUND'],
    async handle({ params }, dependencies, c) {
      const principal = requireOwner(c, params.studioId)
      const agents = mounted(dependencies.agentManagement)
      const deleted = await agents.agents.deleteAgent(principal.studio.id, params.agentId)
      if (!deleted) throw agentNotFound()
      for (const keyId of deleted.keysRevoked) await agents.auditLog.record(principal.studio.id, keyId, 'revoked', { userId: principal.userId ?? null })
      return { deleted: true as const, keys_revoked: deleted.keysRevoked.length }
    },
  }),
  agentRoute({
    method: 'post',
    path: `${base}/:agentId/keys`,
    summary: 'Makes another API key for the agent; the secret is answered this once',
    ...policy,
    params: agentParams,
    body: agentKeyRequestSchema,
    response: { status: 201, schema: createdAgentKeyResponseSchema, description: 'The key with its secret, shown once.', headers: noStore },
    errors: [...errors, 'NOT_FOUND'],
    async handle({ params, body }, dependencies, c) {
      const principal = requireOwner(c, params.studioId)
      const agents = mounted(dependencies.agentManagement)
      const studioId = principal.studio.id
      const agent = await agents.agents.getAgent(studioId, params.agentId)
      if (!agent) throw agentNotFound()
      const key = await createOwnerApiKey(agents, { studioId, name: agent.name, scopes: body.scopes, expiresInDays: body.expires_in_days, userId: principal.userId ?? null })
      // deleted between the two steps: the new key goes with it, as the agent's keys do
      if ((await agents.agents.linkKey(studioId, agent.id, key.key_id)) !== 'linked') {
        await agents.apiKeys.revokeApiKey(studioId, key.key_id)
        throw agentNotFound()
      }
      return withActivation(dependencies, principal.studio, key)
    },
  }),
  agentRoute({
    method: 'get',
    path: `${base}/:agentId/keys`,
    summary: "The agent's keys, without their secrets",
    ...policy,
    params: agentParams,
    response: { status: 200, schema: agentKeysResponseSchema, description: 'The keys it holds, oldest first.', headers: noStore },
    errors: [...errors, 'NOT_FOUND'],
    async handle({ params }, dependencies, c) {
      const { studio } = requireOwner(c, params.studioId)
      const agents = mounted(dependencies.agentManagement)
      const held = await agents.agents.agentKeyIds(studio.id, params.agentId)
      if (!held) throw agentNotFound()
      const ids = new Set(held)
      const signing = signingOf(dependencies)
      const signer = signing ? await readSignerState(signing, studio) : null
      const keys = (await agents.apiKeys.listApiKeys(studio.id)).filter((key) => ids.has(key.keyId))
      return { keys: keys.map((key) => ({ ...keyToWire(key), write_status: writeStatusOf(key, signer?.status ?? null) })) }
    },
  }),
  agentRoute({
    method: 'post',
    path: `${base}/:agentId/keys/:keyId`,
    summary: 'Links an existing API key of the studio to the agent',
    description: "A key another agent holds is refused (409 KEY_LINKED_ELSEWHERE): unlink it there first. A linked key is refused while the agent is disabled.",
    ...policy,
    params: agentKeyParams,
    response: { status: 200, schema: agentKeyLinkResponseSchema, description: 'Linked (or it was already).' },
    errors: [...errors, 'NOT_FOUND', 'KEY_LINKED_ELSEWHERE'],
    async handle({ params }, dependencies, c) {
      const { studio } = requireOwner(c, params.studioId)
      const outcome = await mounted(dependencies.agentManagement).agents.linkKey(studio.id, params.agentId, params.keyId)
      if (outcome === 'no_agent') throw agentNotFound()
      if (outcome === 'no_key') throw new HttpError(404, 'NOT_FOUND', 'no active API key with this id in this studio')
      if (outcome === 'linked_elsewhere') throw new HttpError(409, 'KEY_LINKED_ELSEWHERE', 'another agent holds this key: unlink it from that agent first')
      return { success: true as const }
    },
  }),
  agentRoute({
    method: 'delete',
    path: `${base}/:agentId/keys/:keyId`,
    summary: 'Unlinks a key from the agent; the key keeps working on its own',
    ...policy,
    params: agentKeyParams,
    response: { status: 200, schema: agentKeyLinkResponseSchema, description: 'Unlinked; the key is not revoked.' },
    errors: [...errors, 'NOT_FOUND'],
    async handle({ params }, dependencies, c) {
      const { studio } = requireOwner(c, params.studioId)
      if (!(await mounted(dependencies.agentManagement).agents.unlinkKey(studio.id, params.agentId, params.keyId))) {
        throw new HttpError(404, 'NOT_FOUND', 'this agent holds no key with this id')
      }
      return { success: true as const }
    },
  }),
]
