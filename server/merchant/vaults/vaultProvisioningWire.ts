import * as z from 'zod/mini'
import { addressSchema, bytes32Schema, hexSchema, uintStringSchema } from '../../../shared/deployment'
import { wireUserOpSchema } from '../../../shared/wire'
import { studioSchema } from '../studios/studioWire'

/** The wire shapes of SPEC 4.3: provisioning a studio's vault through its owner's wallet, and the
 * ERC-7579 upgrade our vaults never need. */

const nameSchema = z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(100, 'the studio name is at most 100 characters'))))
const chainIdSchema = z.int('chainId is the integer id of the chain the vault is deployed on').check(z.positive('chainId is a positive integer'))

/** An unsigned deployment: gas, paymaster and signature may be left out (prepare answers them). */
const unsignedUserOpSchema = z.object({
  ...wireUserOpSchema.shape,
  callGasLimit: z.optional(uintStringSchema),
  verificationGasLimit: z.optional(uintStringSchema),
  preVerificationGas: z.optional(uintStringSchema),
  maxFeePerGas: z.optional(uintStringSchema),
  maxPriorityFeePerGas: z.optional(uintStringSchema),
  signature: z.optional(hexSchema),
  /** A placeholder a wallet may send instead of a signature; it is never a signed operation (SPEC 2.16). */
  stubSignature: z.optional(hexSchema),
})

export const prepareVaultRequestSchema = z.object({
  name: nameSchema,
  chainId: chainIdSchema,
  userOp: z.object(unsignedUserOpSchema.shape, { error: "the vault's unsigned deployment operation, as an object (shared/merchantVaultDeployment.ts builds it)" }),
  stubSignature: z.optional(hexSchema),
})

export const submitVaultRequestSchema = z.object({
  name: nameSchema,
  chainId: chainIdSchema,
  userOp: z.object(wireUserOpSchema.shape, { error: 'the signed deployment operation, as an object: the one prepare returned, with its signature' }),
})

/** The owner's typed message (the vault's no-op withdrawal to its owner), integers as decimal strings. */
const typedDataToSignSchema = z.object({
  domain: z.object({ name: z.string(), version: z.string(), chainId: z.int(), verifyingContract: addressSchema }),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.literal('Withdrawal'),
  message: z.record(z.string(), z.string()),
})

export const prepareVaultResponseSchema = z.object({
  success: z.literal(true),
  /** Our paymaster's fields and the gas they were signed over: keep them all before signing. */
  sponsorship: z.object({
    paymaster: addressSchema,
    paymasterData: hexSchema,
    paymasterVerificationGasLimit: uintStringSchema,
    paymasterPostOpGasLimit: uintStringSchema,
    callGasLimit: uintStringSchema,
    verificationGasLimit: uintStringSchema,
    preVerificationGas: uintStringSchema,
    maxFeePerGas: uintStringSchema,
    maxPriorityFeePerGas: uintStringSchema,
  }),
  /** The operation with the sponsorship in place, unsigned. */
  userOp: wireUserOpSchema,
  userOpHash: bytes32Schema,
  typedDataToSign: typedDataToSignSchema,
  validUntil: z.int(),
  expiresAt: z.string(),
  /** The user's studio, null until a submit makes it. */
  studioId: z.nullable(z.string()),
  vaultAddress: addressSchema,
})

export const submitVaultResponseSchema = z.object({
  success: z.literal(true),
  studioId: z.string(),
  vaultAddress: addressSchema,
  userOpHash: bytes32Schema,
  status: z.enum(['deployed', 'pending']),
  txHash: z.optional(bytes32Schema),
  message: z.optional(z.string()),
})

export const legacyStudioResponseSchema = z.object({
  success: z.literal(true),
  studio: studioSchema,
  message: z.string(),
  userOpHash: bytes32Schema,
  txHash: z.optional(bytes32Schema),
})

export const upgradeParams = z.object({ studioId: z.uuid('the studio id is a UUID') })

export const upgradeResponseSchema = z.object({
  already7579: z.literal(true),
  vaultAddress: addressSchema,
  /** The ERC-7579 account id the vault itself answers. */
  accountId: z.string(),
  message: z.string(),
})

export const upgradeSubmitRequestSchema = z.object({ signed_user_op: z.optional(z.unknown()) })
export const upgradeSubmitResponseSchema = z.object({ success: z.literal(true), txHash: bytes32Schema, userOpHash: bytes32Schema })
