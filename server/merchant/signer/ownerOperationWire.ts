import * as z from 'zod/mini'
import { addressSchema } from '../../../shared/deployment'

/** A positive amount in the token's base units, as a decimal string (SPEC 1 and 4.17). */
export const positiveAmountSchema = z.pipe(
  z.string().check(z.regex(/^[1-9]\d{0,77}$/, { message: 'the amount is a positive decimal integer string in base units', abort: true }), z.refine((value) => BigInt(value) < 2n ** 256n, 'the amount is at most a uint256')),
  z.transform((value) => BigInt(value)),
)

/** The vault's typed message for a withdrawal or a refund (shared/merchantVaultMessage.ts), integers
 * as decimal strings: what the owner's wallet shows and signs (eth_signTypedData_v4), never a bare hash. */
export const ownerTypedDataSchema = z.object({
  domain: z.object({ name: z.string(), version: z.string(), chainId: z.int(), verifyingContract: addressSchema }),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.enum(['Withdrawal', 'Refund']),
  message: z.record(z.string(), z.string()),
})

