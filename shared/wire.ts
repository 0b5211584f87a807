import * as z from 'zod/mini'
import { addressSchema, bytes32Schema, hexSchema, uintStringSchema } from './deployment'
import { invoiceStatuses } from './invoiceStatus'
import { invoiceMetadataSchema } from './metadata'
import type { WireUserOp } from './userOpWire'

/** The wire shapes of the public pay routes (SPEC 4.14), shared by the server that sends them and the
 * widget that checks them, so the two cannot drift. */

export const invoiceStatusSchema = z.enum(invoiceStatuses)
export type InvoiceStatus = z.infer<typeof invoiceStatusSchema>

// shared by the fields of each shape, as in metadata.ts: the page builds these while it loads
const nullableAddress = z.nullable(addressSchema)
const nullableUint = z.nullable(uintStringSchema)
const nullableInt = z.nullable(z.int())

/** SPEC 2.4. Amounts and times are strings; a null fee means "not known or not applicable". */
export const invoiceSchema = z.object({
  id: uintStringSchema,
  invoiceNumber: uintStringSchema,
  merchant: addressSchema,
  agent: nullableAddress,
  payer: nullableAddress,
  token: z.object({ address: addressSchema, symbol: z.string(), decimals: z.int() }),
  amount: uintStringSchema,
  status: invoiceStatusSchema,
  metaHash: bytes32Schema,
  tokenURI: z.string(),
  issuedAt: uintStringSchema,
  dueAt: uintStringSchema,
  paidAt: nullableUint,
  effectiveFeeBps: nullableInt,
  settledFee: nullableUint,
  settledFeeBps: nullableInt,
  txHash: z.nullable(bytes32Schema),
})
export type WireInvoice = z.infer<typeof invoiceSchema>

export const readMetadataSchema = z.object({ chainId: z.int(), blockNumber: uintStringSchema })

export const invoiceResponseSchema = z.object({ success: z.literal(true), data: invoiceSchema, metadata: readMetadataSchema })

export const metadataResponseSchema = z.object({
  success: z.literal(true),
  accessLevel: z.enum(['full', 'onchain_only']),
  data: invoiceSchema,
  metadata: z.nullable(invoiceMetadataSchema),
})

/** A deadline in Unix seconds as a client may send it: a decimal string, which every answer uses (as
 * the invoice's own times are, SPEC 2.4), or a JSON integer. */
const deadlineInputSchema = z.union([uintStringSchema, z.int().check(z.minimum(0))])

export const permitRequestSchema = z.object({
  payerAddress: addressSchema,
  permitDeadline: z.optional(deadlineInputSchema),
  /** An extension of SPEC 4.14: the vault's owner, asking for the permit that funds the vault from its
   * own account when the vault lacks part of the amount. */
  fundingFrom: z.optional(addressSchema),
})

export const permitToSignSchema = z.object({
  domain: z.object({ name: z.string(), version: z.string(), chainId: z.int(), verifyingContract: addressSchema }),
  types: z.object({ Permit: z.array(z.object({ name: z.string(), type: z.string() })) }),
  primaryType: z.literal('Permit'),
  message: z.object({
    owner: addressSchema,
    spender: addressSchema,
    value: uintStringSchema,
    nonce: uintStringSchema,
    deadline: uintStringSchema,
  }),
})
export type PermitToSign = z.infer<typeof permitToSignSchema>

/** `fundingPermitToSign`: asked for with `fundingFrom` and present while the vault lacks part of the
 * amount: the owner's account lets the vault take exactly that part, until the same deadline. */
export const permitResponseSchema = z.object({
  success: z.literal(true),
  permitToSign: permitToSignSchema,
  fundingPermitToSign: z.optional(permitToSignSchema),
  invoice: invoiceSchema,
})

export const permitSignatureSchema = z.object({
  v: z.int().check(z.minimum(0), z.maximum(255)),
  r: bytes32Schema,
  s: bytes32Schema,
})

const deadlinedPermitSchema = z.extend(permitSignatureSchema, { deadline: deadlineInputSchema })

/** An extension of SPEC 4.14: the vault's owner account lets its vault take `amount`, exactly what the
 * vault lacks, with an EIP-2612 permit, and the same operation moves it in before it pays. */
export const fundingRequestSchema = z.object({
  from: addressSchema,
  amount: uintStringSchema,
  permit: deadlinedPermitSchema,
})

export const prepareRequestSchema = z.object({
  payerAddress: addressSchema,
  ownerAddress: addressSchema,
  permit: deadlinedPermitSchema,
  funding: z.optional(fundingRequestSchema),
})

/** SPEC 2.16: a v0.7 UserOperation with numeric fields as decimal strings: the one shape the
 * converters' type (userOpWire.ts) describes too. */
export const wireUserOpSchema = z.object({
  sender: addressSchema,
  nonce: uintStringSchema,
  factory: z.optional(addressSchema),
  factoryData: z.optional(hexSchema),
  callData: hexSchema,
  callGasLimit: uintStringSchema,
  verificationGasLimit: uintStringSchema,
  preVerificationGas: uintStringSchema,
  maxFeePerGas: uintStringSchema,
  maxPriorityFeePerGas: uintStringSchema,
  paymaster: z.optional(addressSchema),
  paymasterVerificationGasLimit: z.optional(uintStringSchema),
  paymasterPostOpGasLimit: z.optional(uintStringSchema),
  paymasterData: z.optional(hexSchema),
  signature: hexSchema,
}) satisfies z.ZodMiniType<WireUserOp>

export const prepareResponseSchema = z.object({
  success: z.literal(true),
  userOp: wireUserOpSchema,
  userOpHash: bytes32Schema,
  // the same decimal string as the permit's message.deadline
  permitDeadline: uintStringSchema,
  expiresAt: z.iso.datetime(),
  invoice: invoiceSchema,
})

export const submitRequestSchema = z.object({
  // a missing operation, or one that is not an object, is named in the flow's words, not zod's; on
  // the request alone, which only the server parses, so the page ships none of it
  userOp: z.object(wireUserOpSchema.shape, { error: 'the signed user operation, as an object: the one /prepare returned, with its signature' }),
  permitSignature: z.optional(permitSignatureSchema),
})

export const submitResponseSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('confirmed'), userOpHash: bytes32Schema, txHash: bytes32Schema }),
  z.object({ status: z.literal('pending'), userOpHash: bytes32Schema, message: z.string() }),
])

export const errorResponseSchema = z.object({
  error: z.string(),
  code: z.optional(z.string()),
  message: z.optional(z.string()),
  details: z.optional(z.unknown()),
})
