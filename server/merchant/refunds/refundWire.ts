import * as z from 'zod/mini'
import { addressSchema, bytes32Schema, uintStringSchema } from '../../../shared/deployment'
import { wireUserOpSchema } from '../../../shared/wire'
import { ownerTypedDataSchema, positiveAmountSchema } from '../signer/ownerOperationWire'

/** POST /v1/invoices/:id/refund/prepare: the vault owner's address and the amount in base units. */
export const refundPrepareRequestSchema = z.strictObject({ ownerAddress: addressSchema, amount: positiveAmountSchema })

export const refundPrepareResponseSchema = z.object({
  success: z.literal(true),
  /** Sponsored by our paymaster: sign it exactly as it is, its signature the message's `validUntil`
   * as 6 bytes (big-endian) followed by the owner's 65-byte signature of `typedDataToSign`. */
  userOp: wireUserOpSchema,
  userOpHash: bytes32Schema,
  typedDataToSign: ownerTypedDataSchema,
  expiresAt: z.iso.datetime(),
  refundSummary: z.object({
    invoiceId: uintStringSchema,
    /** The payer the registry recorded: the only address a refund can reach. */
    payer: addressSchema,
    token: addressSchema,
    symbol: z.string(),
    amount: uintStringSchema,
    amountFormatted: z.string(),
    grossAmount: uintStringSchema,
    refundedBefore: uintStringSchema,
    remainingAfter: uintStringSchema,
  }),
})

/** POST /v1/invoices/:id/refund: the prepared operation, signed. */
export const refundSubmitRequestSchema = z.strictObject({ userOp: wireUserOpSchema })

export const refundSubmitResponseSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('confirmed'), refundId: z.string(), userOpHash: bytes32Schema, txHash: bytes32Schema, refundedAmount: uintStringSchema }),
  z.object({ status: z.literal('pending'), refundId: z.string(), userOpHash: bytes32Schema, message: z.string() }),
])
