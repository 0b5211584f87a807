import * as z from 'zod/mini'
import { addressSchema, bytes32Schema, uintStringSchema } from '../../../shared/deployment'
import { wireUserOpSchema } from '../../../shared/wire'
import { ownerTypedDataSchema, positiveAmountSchema } from '../signer/ownerOperationWire'

/** POST /v1/withdrawals/prepare (SPEC 4.17). `destination` may be left out: it can only be the
 * studio's withdrawal address anyway, and naming another is refused (ADDRESS_MISMATCH). */
export const withdrawalPrepareRequestSchema = z.strictObject({
  ownerAddress: addressSchema,
  amount: positiveAmountSchema,
  destination: z.optional(addressSchema),
})

export const withdrawalPrepareResponseSchema = z.object({
  success: z.literal(true),
  /** Sponsored by our paymaster: sign it exactly as it is, its signature the message's `validUntil`
   * as 6 bytes (big-endian) followed by the owner's 65-byte signature of `typedDataToSign`. */
  userOp: wireUserOpSchema,
  userOpHash: bytes32Schema,
  typedDataToSign: ownerTypedDataSchema,
  expiresAt: z.iso.datetime(),
  withdrawalSummary: z.object({
    vault: addressSchema,
    token: addressSchema,
    symbol: z.string(),
    amount: uintStringSchema,
    /** Exact: the base units with the token's decimals, no rounding. */
    amountFormatted: z.string(),
    destination: addressSchema,
    /** The vault's balance of the token as the chain read it for this answer, and what it leaves. */
    availableBefore: uintStringSchema,
    availableAfter: uintStringSchema,
  }),
})

/** POST /v1/withdrawals: the prepared operation, signed; amount and destination, when given, must be
 * the operation's own (SPEC 4.17 sends them along). */
export const withdrawalSubmitRequestSchema = z.strictObject({
  userOp: wireUserOpSchema,
  amount: z.optional(positiveAmountSchema),
  destination: z.optional(addressSchema),
})

export const withdrawalSubmitResponseSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('confirmed'), withdrawalId: z.string(), userOpHash: bytes32Schema, txHash: bytes32Schema, explorerUrl: z.nullable(z.string()) }),
  z.object({ status: z.literal('pending'), withdrawalId: z.string(), userOpHash: bytes32Schema, message: z.string() }),
])

const listLimitMessage = 'the limit is 1 through 50'
/** GET /v1/withdrawals (SPEC 8): limit 1 through 50, default 20; offset from 0. */
export const withdrawalListQuerySchema = z.strictObject({
  limit: z.optional(z.pipe(z.string().check(z.regex(/^[1-9]\d?$/, listLimitMessage)), z.transform(Number)).check(z.refine((value) => value <= 50, listLimitMessage))),
  offset: z.optional(z.pipe(z.string().check(z.regex(/^(0|[1-9]\d{0,8})$/, 'the offset is a non-negative integer')), z.transform(Number))),
})

/** SPEC 2.15's history row. */
export const withdrawalRowSchema = z.object({
  id: z.string(),
  amount: uintStringSchema,
  amountFormatted: z.string(),
  destination: addressSchema,
  status: z.enum(['pending', 'confirmed', 'failed']),
  txHash: z.nullable(bytes32Schema),
  userOpHash: bytes32Schema,
  explorerUrl: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
  confirmedAt: z.nullable(z.iso.datetime()),
})

export const withdrawalListResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ items: z.array(withdrawalRowSchema), total: z.int(), limit: z.int(), offset: z.int() }),
})
