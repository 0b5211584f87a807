import { isAddress } from 'viem'
import * as z from 'zod/mini'
import { postalAddressSchema } from '../postalAddress'

/** SPEC 2.7 and 4.13: customers as the merchant routes read and answer them. */

export const customerTypes = ['entity', 'person'] as const
export const customerTypeSchema = z.enum(customerTypes)
export type CustomerType = z.infer<typeof customerTypeSchema>

/** SPEC 8: GET /v1/customers pages 1 through 100 records, 25 unless asked. */
export const customerListLimits = { min: 1, max: 100, default: 25 } as const

const required = (what: string, max: number) =>
  z.string().check(z.trim(), z.minLength(1, `the ${what} must not be empty`), z.maxLength(max, `the ${what} is at most ${max} characters`))

/** An optional text: sent empty (or only spaces), it is cleared; null is refused (SPEC 4.13). */
const optional = (what: string, max: number) => z.optional(z.string().check(z.trim(), z.maxLength(max, `the ${what} is at most ${max} characters`)))

const emailSchema = z.email('the email must be a valid address, such as accounts@example.com').check(z.maxLength(254, 'the email is at most 254 characters'))

/** Mixed case must be the EIP-55 checksum, as viem checks it: a mistyped address is refused, not stored. */
const walletAddressSchema = z.optional(
  z.string().check(
    z.trim(),
    z.refine((value) => value === '' || isAddress(value), 'the wallet address is 0x and 40 hexadecimal digits (checksummed if in mixed case)'),
  ),
)

/** The fields both a create and a change may carry, each as a create needs it. */
const editable = {
  legalName: required('legal name', 200),
  email: emailSchema,
  address: postalAddressSchema,
  registrationNumber: optional('registration number', 100),
  tradeName: optional('trade name', 200),
  taxId: optional('tax id', 100),
  vatNumber: optional('VAT number', 100),
  notes: optional('notes', 2000),
  walletAddress: walletAddressSchema,
}

const metadataRefused = z.optional(z.never('metadata is not accepted: the service keeps it'))

/** POST /v1/customers: the complete create object (SPEC 2.7). Type rules that span fields (a
 * registration number for an entity, a trade name for an entity only, a tax id for a person only)
 * are checked by customerTypeRules.ts, with the same answer. */
export const createCustomerRequestSchema = z.strictObject({
  type: customerTypeSchema,
  ...editable,
  metadata: metadataRefused,
})
export type CreateCustomerRequest = z.infer<typeof createCustomerRequestSchema>

/** PATCH /v1/customers/:id: any editable field, omitted ones kept; `type` is fixed, unknown fields
 * and null are refused, and an address is sent whole (SPEC 4.13). */
export const updateCustomerRequestSchema = z.strictObject({
  type: z.optional(z.never('the type is fixed at creation: create another customer for the other type')),
  legalName: z.optional(editable.legalName),
  email: z.optional(editable.email),
  address: z.optional(editable.address),
  registrationNumber: editable.registrationNumber,
  tradeName: editable.tradeName,
  taxId: editable.taxId,
  vatNumber: editable.vatNumber,
  notes: editable.notes,
  walletAddress: editable.walletAddress,
  metadata: metadataRefused,
})
export type UpdateCustomerRequest = z.infer<typeof updateCustomerRequestSchema>

const decimal = (what: string, max: number) =>
  z.pipe(
    z.string().check(z.regex(new RegExp(`^(0|[1-9]\\d{0,${String(max).length - 1}})$`), `the ${what} is a decimal integer`)),
    z.transform((value) => Number(value)),
  )

/** GET /v1/customers. The cursor is a decimal offset (SPEC 4.13): the next page's is meta.offset +
 * data.length. Unknown filters are refused rather than ignored, so a mistyped one is not a silently
 * unfiltered list. */
export const customerListQuerySchema = z.strictObject({
  type: z.optional(customerTypeSchema),
  search: z.optional(z.string().check(z.trim(), z.minLength(1, 'the search must not be empty'), z.maxLength(200, 'the search is at most 200 characters'))),
  walletAddress: z.optional(z.string().check(z.refine((value) => isAddress(value, { strict: false }), 'the wallet address is 0x and 40 hexadecimal digits'))),
  limit: z.optional(
    z.pipe(
      decimal('limit', customerListLimits.max),
      z.number().check(z.minimum(customerListLimits.min, 'the limit is 1 through 100'), z.maximum(customerListLimits.max, 'the limit is 1 through 100')),
    ),
  ),
  cursor: z.optional(
    z.pipe(
      z.string().check(z.regex(/^(0|[1-9]\d{0,8})$/, 'the cursor is the decimal offset of the next page: meta.offset + data.length of the last one')),
      z.transform((value) => Number(value)),
    ),
  ),
})

export const customerIdParams = z.object({ id: z.uuid('the customer id is a UUID') })

export const customerSchema = z.object({
  id: z.string(),
  studioId: z.string(),
  type: customerTypeSchema,
  legalName: z.string(),
  email: z.string(),
  address: z.object({ street: z.string(), city: z.string(), postal: z.string(), country: z.string() }),
  registrationNumber: z.nullable(z.string()),
  tradeName: z.nullable(z.string()),
  taxId: z.nullable(z.string()),
  vatNumber: z.nullable(z.string()),
  notes: z.nullable(z.string()),
  walletAddress: z.nullable(z.string()),
  /** Returned when present; set by the service, never by a create (SPEC 2.7). */
  metadata: z.optional(z.record(z.string(), z.unknown())),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type WireCustomer = z.infer<typeof customerSchema>

export const customerResponseSchema = z.object({ data: customerSchema })

export const customerListResponseSchema = z.object({
  data: z.array(customerSchema),
  meta: z.object({ total: z.int(), limit: z.int(), offset: z.int(), hasMore: z.boolean() }),
})
