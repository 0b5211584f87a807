import * as z from 'zod/mini'
import { bytes32Schema } from '../../../shared/deployment'

/** POST /v1/invoices/:id/cancel/submit takes an empty body (SPEC 4.11): anything in it is refused. */
export const cancelSubmitRequestSchema = z.strictObject({})

/** Confirmed (200): the invoice is Canceled on-chain; pending (202): the operation is sent and its
 * receipt has not come yet: the same request follows it. */
export const cancelSubmitResponseSchema = z.discriminatedUnion('status', [
  z.object({ id: z.string(), status: z.literal('Canceled'), userOpHash: bytes32Schema, txHash: bytes32Schema }),
  z.object({ status: z.literal('pending'), userOpHash: bytes32Schema, message: z.string() }),
])
