import * as z from 'zod/mini'
import { addressSchema, bytes32Schema } from '../../../shared/deployment'
import { wireUserOpSchema } from '../../../shared/wire'

/** The vault's typed message for StartSession or EndSession, integers as decimal strings. */
const signerTypedDataSchema = z.object({
  domain: z.object({ name: z.string(), version: z.string(), chainId: z.int(), verifyingContract: addressSchema }),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.enum(['StartSession', 'EndSession']),
  message: z.record(z.string(), z.string()),
})

/**
 * An owner operation of the signer's lifecycle, unsigned: the operation's fields (SPEC 2.16) beside
 * what the owner's wallet shows and signs. The owner sets `signature` and sends the whole object
 * back as `signed_user_op`, every returned field kept.
 */
export const signerUserOpSchema = z.extend(wireUserOpSchema, {
  userOpHash: bytes32Schema,
  typedDataToSign: signerTypedDataSchema,
  /** The last moment the owner's signature (and our paymaster's sponsorship) holds. */
  expiresAt: z.iso.datetime(),
  /** The ERC-7730 descriptor's words for this message (clear-signing/), for a wallet to show. */
  clearSigning: z.object({ descriptor: z.string(), intent: z.string(), fields: z.array(z.object({ path: z.string(), label: z.string() })) }),
})

export const activationSchema = z.object({ signer_address: addressSchema, user_op: signerUserOpSchema })

/** The signer's state in the list of keys and in GET /status. */
export const signerStatuses = ['not_configured', 'pending_activation', 'active', 'pending_revocation', 'revoked', 'upgrade_required'] as const

export const signerStatusResponseSchema = z.object({
  status: z.enum(signerStatuses),
  signer_id: z.optional(z.string()),
  signer_address: z.optional(addressSchema),
  /** active and pending_revocation: the session as the vault's session module holds it. */
  session: z.optional(z.object({ registry: addressSchema, valid_until: z.int(), expires_at: z.iso.datetime() })),
  /** The last transaction that started (active) or ended (revoked) the session, when this server sent it. */
  transaction: z.optional(z.nullable(z.object({ tx_hash: bytes32Schema, kind: z.enum(['StartSession', 'EndSession']) }))),
  /** pending_activation and revoked: a fresh StartSession for the owner to sign, or why none could be prepared. */
  activation: z.optional(activationSchema),
  activation_error: z.optional(z.string()),
  /** pending_activation and revoked: the sponsored session starts of the UTC day (an activation
   * prepared counts, once per vault nonce); none remaining, activation_error says from when. */
  session_starts: z.optional(z.object({ limit: z.int(), used: z.int(), remaining: z.int(), resets_at: z.iso.datetime() })),
  /** revoked: how (on_chain, or database_only with the session still installed) and what that means. */
  revocation: z.optional(z.enum(['on_chain', 'database_only'])),
  message: z.optional(z.string()),
  vault_address: z.optional(addressSchema),
})

export const signerSummarySchema = z.object({ signer_id: z.nullable(z.string()), status: z.enum(signerStatuses), signer_address: z.nullable(addressSchema) })

export const revokeResponseSchema = z.object({ signer_id: z.string(), status: z.literal('pending_revocation'), user_op: signerUserOpSchema })

export const signedUserOpRequestSchema = z.strictObject({ signed_user_op: wireUserOpSchema })

export const confirmRevocationResponseSchema = z.union([
  z.object({ signer_id: z.string(), status: z.literal('revoked'), tx_hash: bytes32Schema }),
  z.object({ signer_id: z.string(), status: z.literal('pending_revocation'), userOpHash: bytes32Schema, message: z.string() }),
])

export const activateSignerResponseSchema = z.union([
  z.object({ signer_id: z.string(), status: z.literal('active'), tx_hash: bytes32Schema }),
  z.object({ signer_id: z.string(), status: z.literal('pending_activation'), userOpHash: bytes32Schema, message: z.string() }),
])

export const forceRevokeResponseSchema = z.object({ signer_id: z.string(), status: z.literal('revoked'), message: z.string() })

/** What POST /api-keys adds to a new key (SPEC 4.4): the activation its owner signs when the key
 * writes through a server signer that is not active, or why none could be prepared. */
export const keyActivationFields = { activation: z.optional(activationSchema), activation_error: z.optional(z.string()) }
