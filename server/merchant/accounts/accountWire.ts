import { isAddress } from 'viem'
import * as z from 'zod/mini'
import { scopes } from '../../auth/scopes'
import { postalAddressSchema } from '../postalAddress'

/** SPEC 4.1-4.4 on the wire: sign-in, the studio's profile and withdrawal address, its API keys. */

/** A studio's id, or `me` for the signed-in user's own. */
export const studioIdParams = z.object({
  id: z.string().check(z.refine((value) => value === 'me' || z.uuid().safeParse(value).success, 'the studio id is a UUID, or me')),
})
export const studioKeyParams = z.object({ studioId: z.uuid('the studio id is a UUID') })
export const apiKeyParams = z.object({
  studioId: z.uuid('the studio id is a UUID'),
  keyId: z.string().check(z.regex(/^svc_pk_[A-Za-z0-9_-]{1,64}$/, 'the key id is the full svc_pk_ public key id')),
})

const userSchema = z.object({ id: z.string(), email: z.nullable(z.string()), studioId: z.nullable(z.string()), createdAt: z.string(), lastLoginAt: z.string() })
export const loginResponseSchema = z.object({ success: z.literal(true), user: z.extend(userSchema, { isNewUser: z.boolean() }) })
export const meResponseSchema = z.object({ success: z.literal(true), user: userSchema })

const text = (what: string, max: number) =>
  z.string().check(z.trim(), z.minLength(1, `the ${what} must not be empty`), z.maxLength(max, `the ${what} is at most ${max} characters`))

/** SPEC 2.2: PUT sends the whole profile; what is left out is gone. Cross-field rules (an entity's
 * registration number, trade name for an entity, tax id for a person) are checked beside it. */
export const profileRequestSchema = z.strictObject({
  type: z.enum(['entity', 'person']),
  legalName: text('legal name', 200),
  email: z.email('the email must be a valid address, such as accounts@example.com').check(z.maxLength(254, 'the email is at most 254 characters')),
  address: postalAddressSchema,
  registrationNumber: z.optional(z.nullable(text('registration number', 100))),
  vatNumber: z.optional(z.nullable(text('VAT number', 100))),
  tradeName: z.optional(z.nullable(text('trade name', 200))),
  taxId: z.optional(z.nullable(text('tax id', 100))),
})

const nullableText = z.nullable(z.string())
const wireProfileSchema = z.nullable(
  z.object({
    type: z.nullable(z.enum(['entity', 'person'])),
    legalName: nullableText,
    email: nullableText,
    address: z.object({ street: nullableText, city: nullableText, postal: nullableText, country: nullableText }),
    registrationNumber: nullableText,
    vatNumber: nullableText,
    tradeName: nullableText,
    taxId: nullableText,
    updatedAt: z.string(),
  }),
)
export const profileResponseSchema = z.object({ success: z.literal(true), profile: wireProfileSchema, profileComplete: z.boolean() })
export const profileUpdatedResponseSchema = z.object({
  success: z.literal(true),
  studio: z.object({ id: z.string(), name: z.nullable(z.string()), displayName: z.string(), profile: wireProfileSchema, profileComplete: z.boolean() }),
})

export const withdrawalAddressRequestSchema = z.strictObject({
  address: z.string().check(z.trim(), z.refine((value) => isAddress(value), 'the address is 0x and 40 hexadecimal digits (checksummed if in mixed case)')),
})
export const withdrawalAddressResponseSchema = z.object({ success: z.literal(true), address: z.nullable(z.string()), updatedAt: z.nullable(z.string()) })

/** SPEC 4.4: a nonempty list of known scopes, named once each. */
export const createApiKeyRequestSchema = z.strictObject({
  name: text('name', 100),
  scopes: z
    .array(z.enum(scopes, `a scope is one of ${scopes.join(', ')}`))
    .check(z.minLength(1, 'a key needs at least one scope'), z.refine((list) => new Set(list).size === list.length, 'each scope is named once')),
  expires_in_days: z.optional(z.nullable(z.int('expires_in_days is a whole number of days').check(z.minimum(1, 'expires_in_days is 1 through 365'), z.maximum(365, 'expires_in_days is 1 through 365')))),
})

export const keyStatuses = ['active', 'pending_activation', 'revoked'] as const
/** A key as every list of keys shows it (the studio's, an agent's): never its secret. */
export const keySchema = z.object({
  key_id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  secret_hint: z.string(),
  status: z.enum(['active', 'revoked']),
  write_status: z.enum(keyStatuses),
  created_at: z.string(),
  expires_at: z.nullable(z.string()),
  revoked_at: z.nullable(z.string()),
})
export type WireApiKey = z.infer<typeof keySchema>
export const createdApiKeyResponseSchema = z.extend(keySchema, { secret: z.string(), activation_required: z.boolean() })
export const apiKeyListQuerySchema = z.strictObject({ status: z.optional(z.enum(keyStatuses, `status is one of ${keyStatuses.join(', ')}`)) })
export const apiKeyListResponseSchema = z.object({ keys: z.array(keySchema), signer: z.null() })
export const revokedApiKeyResponseSchema = z.object({ key_id: z.string(), status: z.literal('revoked') })
export const rotatedApiKeyResponseSchema = z.object({ key_id: z.string(), secret: z.string(), secret_hint: z.string() })

/** SPEC 8: 1 through 100 events a page, 50 unless asked. */
export const auditLogQuerySchema = z.strictObject({
  limit: z.optional(
    z.pipe(
      z.string().check(z.regex(/^\d{1,3}$/, 'limit is 1 through 100')),
      z.pipe(z.transform((value: string) => Number(value)), z.number().check(z.minimum(1, 'limit is 1 through 100'), z.maximum(100, 'limit is 1 through 100'))),
    ),
  ),
  cursor: z.optional(z.uuid('the cursor is the last event id of the page before')),
})
export const auditLogResponseSchema = z.object({
  events: z.array(
    z.object({
      id: z.string(),
      key_id: z.string(),
      event: z.enum(['created', 'rotated', 'revoked', 'used', 'agent_write']),
      user_id: z.nullable(z.string()),
      method: z.nullable(z.string()),
      path: z.nullable(z.string()),
      /** agent_write: the OAuth client (MCP agent or CLI sign-in) by its registered name, and what it did */
      client_name: z.nullable(z.string()),
      summary: z.nullable(z.string()),
      created_at: z.string(),
    }),
  ),
  next_cursor: z.nullable(z.string()),
  sampling: z.string(),
})
