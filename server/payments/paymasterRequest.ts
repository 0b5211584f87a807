import * as z from 'zod/mini'
import { addressSchema, hexSchema } from '../../shared/deployment'

/** ERC-7677 (like every ERC-4337 RPC) writes quantities as 0x-prefixed hex, at most 256 bits. */
const quantity = z.string().check(z.regex(/^0x[0-9a-fA-F]{1,64}$/, 'a 0x-prefixed hex quantity'))

/**
 * An operation as a wallet sends it to a paymaster service: v0.7 fields (factory, factoryData) or
 * v0.6 ones (initCode); gas fields may still be missing when stub data is asked for (they are
 * estimated with it), and the paymaster's and the signature are ignored (the service fills in its
 * own, and signs nothing the account signs).
 */
export const paymasterUserOpSchema = z.object({
  sender: addressSchema,
  nonce: quantity,
  factory: z.optional(z.nullable(addressSchema)),
  factoryData: z.optional(z.nullable(hexSchema)),
  initCode: z.optional(hexSchema),
  callData: hexSchema,
  callGasLimit: z.optional(quantity),
  verificationGasLimit: z.optional(quantity),
  preVerificationGas: z.optional(quantity),
  maxFeePerGas: z.optional(quantity),
  maxPriorityFeePerGas: z.optional(quantity),
  paymaster: z.optional(z.nullable(addressSchema)),
  paymasterVerificationGasLimit: z.optional(z.nullable(quantity)),
  paymasterPostOpGasLimit: z.optional(z.nullable(quantity)),
  paymasterData: z.optional(z.nullable(hexSchema)),
  paymasterAndData: z.optional(hexSchema),
  signature: z.optional(hexSchema),
})

export type PaymasterUserOp = z.infer<typeof paymasterUserOpSchema>

/** ERC-7677 params: `[userOp, entryPoint, chainId, context]`; the context is optional and unread
 * (the policy is the same for every caller: see docs/api.md). */
export const paymasterParamsSchema = z.tuple([paymasterUserOpSchema, addressSchema, quantity, z.optional(z.nullable(z.record(z.string(), z.unknown())))])

export type PaymasterParams = z.infer<typeof paymasterParamsSchema>

/** The JSON-RPC 2.0 envelope the route reads before it reads the params by method. */
export const paymasterRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.optional(z.nullable(z.union([z.string().check(z.maxLength(100)), z.number()]))),
  method: z.string().check(z.maxLength(100)),
  params: z.optional(z.array(z.unknown())),
})

/** What the service answers, v0.7 (`paymaster`, `paymasterData`, gas limits) or v0.6 (`paymasterAndData`). */
export const paymasterRpcResultSchema = z.object({
  paymaster: z.optional(addressSchema),
  paymasterData: z.optional(hexSchema),
  paymasterVerificationGasLimit: z.optional(quantity),
  paymasterPostOpGasLimit: z.optional(quantity),
  paymasterAndData: z.optional(hexSchema),
  /** Stub data only: false, the signed data is always asked for with pm_getPaymasterData. */
  isFinal: z.optional(z.boolean()),
})

export type PaymasterRpcResult = z.infer<typeof paymasterRpcResultSchema>

/** The answer: a result, or an error whose `data.code` says why (server/payments/paymasterRefusedError.ts). */
export const paymasterRpcResponseSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.nullable(z.union([z.string(), z.number()])),
  result: z.optional(paymasterRpcResultSchema),
  error: z.optional(
    z.object({
      code: z.int(),
      message: z.string(),
      data: z.optional(z.object({ code: z.string() })),
    }),
  ),
})
