import * as z from 'zod/mini'
import { createApiKeyRequestSchema, createdApiKeyResponseSchema, keySchema } from '../accounts/accountWire'
import { activationSchema, signerSummarySchema } from '../signer/signerWire'
import { agentIcons, agentStatuses } from './agentStore'

/** SPEC 2.10 and 4.6 on the wire: a studio's agents and the keys they hold. */

export const studioAgentsParams = z.object({ studioId: z.uuid('the studio id is a UUID') })
export const agentParams = z.object({ studioId: z.uuid('the studio id is a UUID'), agentId: z.uuid('the agent id is a UUID') })
export const agentKeyParams = z.object({
  studioId: z.uuid('the studio id is a UUID'),
  agentId: z.uuid('the agent id is a UUID'),
  keyId: z.string().check(z.regex(/^svc_pk_[A-Za-z0-9_-]{1,64}$/, 'the key id is the full svc_pk_ public key id')),
})

const name = z.string().check(z.trim(), z.minLength(1, 'the name must not be empty'), z.maxLength(64, 'the name is at most 64 characters'))
const description = z.nullable(z.string().check(z.trim(), z.maxLength(256, 'the description is at most 256 characters')))
const icon = z.enum(agentIcons, `the icon is one of ${agentIcons.join(', ')}`)
const { scopes, expires_in_days } = createApiKeyRequestSchema.shape

export const createAgentRequestSchema = z.strictObject({ name, description: z.optional(description), icon: z.optional(icon), scopes, expires_in_days })
export const updateAgentRequestSchema = z.strictObject({
  name: z.optional(name),
  description: z.optional(description),
  icon: z.optional(icon),
  status: z.optional(z.enum(agentStatuses, `the status is ${agentStatuses.join(' or ')}`)),
})
export const agentKeyRequestSchema = z.strictObject({ scopes, expires_in_days })

export const agentSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  icon: z.enum(agentIcons),
  /** The scopes its first key was made with; each key keeps its own. */
  scopes: z.array(z.string()),
  status: z.enum(agentStatuses),
  /** How many keys it holds, revoked ones included. */
  linked_keys: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
})
export type WireAgent = z.infer<typeof agentSchema>

/** SPEC 4.4's activation, as for a key of its own: a write key through a server signer that is not
 * active comes with the StartSession its owner signs (or why none could be prepared now). */
const newKeyFields = {
  api_key: createdApiKeyResponseSchema,
  activation_required: z.boolean(),
  activation: z.optional(activationSchema),
  activation_error: z.optional(z.string()),
}
export const createdAgentResponseSchema = z.object({ agent: agentSchema, ...newKeyFields })
export const agentListResponseSchema = z.object({ agents: z.array(agentSchema), signer: z.nullable(signerSummarySchema) })
export const updatedAgentResponseSchema = z.object({ agent: agentSchema })
export const deletedAgentResponseSchema = z.object({ deleted: z.literal(true), keys_revoked: z.number() })
export const createdAgentKeyResponseSchema = z.object(newKeyFields)
export const agentKeysResponseSchema = z.object({ keys: z.array(keySchema) })
export const agentKeyLinkResponseSchema = z.object({ success: z.literal(true) })
