import * as z from 'zod/mini'
import { addressSchema, bytes32Schema, uintStringSchema } from '../../../shared/deployment'
import { wireUserOpSchema } from '../../../shared/wire'

/** POST /v1/invoices/:id/cancel/submit takes an empty body (SPEC 4.11): anything in it is refused. */
export const cancelSubmitRequestSchema = z.strictObject({})

/** Confirmed (200): the invoice is Canceled on-chain; pending (202): the operation is sent and its
 * receipt has not come yet: the same request follows it. */
export const cancelSubmitResponseSchema = z.discriminatedUnion('status', [
  z.object({ id: z.string(), status: z.literal('Canceled'), userOpHash: bytes32Schema, txHash: bytes32Schema }),
  z.object({ status: z.literal('pending'), userOpHash: bytes32Schema, message: z.string() }),
])

/** POST /v1/invoices/:id/cancel/prepare: the vault owner's address, whose wallet signs the cancel. */
export const cancelPrepareRequestSchema = z.strictObject({ ownerAddress: addressSchema })

/** The MerchantVault's typed Cancel message (shared/merchantVaultMessage.ts), integers as decimal
 * strings: what the owner's wallet shows and signs (eth_signTypedData_v4), never a bare hash. */
export const cancelTypedDataSchema = z.object({
  domain: z.object({ name: z.string(), version: z.string(), chainId: z.int(), verifyingContract: addressSchema }),
  types: z.object({ Cancel: z.array(z.object({ name: z.string(), type: z.string() })) }),
  primaryType: z.literal('Cancel'),
  message: z.object({ registry: addressSchema, invoice: uintStringSchema, vault: addressSchema, validUntil: uintStringSchema, operation: bytes32Schema }),
})

export const cancelPrepareResponseSchema = z.object({
  success: z.literal(true),
  /** Sponsored by our paymaster: sign it exactly as it is, its signature the message's `validUntil`
   * as 6 bytes (big-endian) followed by the owner's 65-byte signature of `typedDataToSign`. */
  userOp: wireUserOpSchema,
  userOpHash: bytes32Schema,
  expiresAt: z.iso.datetime(),
  typedDataToSign: cancelTypedDataSchema,
})

/** POST /v1/invoices/:id/cancel: the prepared operation, signed. */
export const cancelRequestSchema = z.strictObject({ userOp: wireUserOpSchema })

export const cancelResponseSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('confirmed'), userOpHash: bytes32Schema, txHash: bytes32Schema }),
  z.object({ status: z.literal('pending'), userOpHash: bytes32Schema, message: z.string() }),
])
