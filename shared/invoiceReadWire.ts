import * as z from 'zod/mini'
import { addressSchema, bytes32Schema, uintStringSchema } from './deployment'
import { invoiceStatuses } from './invoiceStatus'
import { invoiceSchema } from './wire'

/** The wire shapes of the merchant's invoice reads (SPEC 4.8), shared by the server that sends them
 * and the clients that read them. */

export const invoiceReadModes = ['eventual', 'hybrid', 'strong'] as const
export type InvoiceReadMode = (typeof invoiceReadModes)[number]

export const invoiceOrderFields = ['issuedBlock', 'issuedAt', 'dueAt', 'amount', 'invoiceNumber'] as const

const unixSeconds = z.pipe(
  z.string().check(z.regex(/^(0|[1-9]\d{0,14})$/, { message: 'Unix seconds: a non-negative whole number', abort: true })),
  z.transform((value) => BigInt(value)),
)

const modeSchema = z.optional(z.enum(invoiceReadModes))

/** GET /v1/invoices. `merchant` and `agent` are accepted and ignored (SPEC 4.8 rule 1). */
export const invoiceListQuerySchema = z.object({
  status: z.optional(z.enum(invoiceStatuses)),
  customerId: z.optional(z.uuid('the customer id is a UUID')),
  payer: z.optional(addressSchema),
  issuedFrom: z.optional(unixSeconds),
  issuedTo: z.optional(unixSeconds),
  limit: z.optional(
    z.pipe(
      z.string().check(z.regex(/^\d{1,3}$/, { message: 'the limit is a whole number from 1 to 50', abort: true })),
      z.pipe(
        z.transform((value: string) => Number(value)),
        z.number().check(z.minimum(1, 'the limit is at least 1'), z.maximum(50, 'the limit is at most 50')),
      ),
    ),
  ),
  cursor: z.optional(z.string().check(z.maxLength(200, 'not a cursor this list gave'))),
  orderBy: z.optional(z.enum(invoiceOrderFields)),
  orderDirection: z.optional(z.enum(['asc', 'desc'])),
  mode: modeSchema,
  merchant: z.optional(z.string()),
  agent: z.optional(z.string()),
})

export const invoiceDetailQuerySchema = z.object({ mode: modeSchema })

export const invoiceLookupQuerySchema = z.object({
  number: z.string().check(z.minLength(1, 'the invoice number is required'), z.maxLength(64, 'an invoice number has at most 64 characters')),
  year: z.pipe(
    z.string().check(z.regex(/^\d{4}$/, { message: 'the issuance year, four digits', abort: true })),
    z.pipe(z.transform((value: string) => Number(value)), z.number().check(z.minimum(1970, 'the year is 1970 or later'), z.maximum(9999))),
  ),
})

/** A row of the list: the index's record, with each status as the mode read it. */
export const invoiceListItemSchema = z.object({
  id: uintStringSchema,
  invoiceNumber: uintStringSchema,
  /** The number on the invoice's document, for an invoice issued through this service. */
  documentNumber: z.nullable(z.string()),
  merchant: addressSchema,
  agent: z.nullable(addressSchema),
  payer: z.nullable(addressSchema),
  token: z.object({ address: addressSchema, symbol: z.string(), decimals: z.int() }),
  amount: uintStringSchema,
  status: z.enum(invoiceStatuses),
  metaHash: bytes32Schema,
  issuedAt: uintStringSchema,
  dueAt: uintStringSchema,
  issuedBlock: uintStringSchema,
  paidAt: z.nullable(uintStringSchema),
  customerId: z.nullable(z.string()),
  settledFee: z.nullable(uintStringSchema),
  settledFeeBps: z.nullable(z.int()),
  refundedAmount: uintStringSchema,
})

const readMetadata = {
  mode: z.enum(invoiceReadModes),
  chainId: z.int(),
  /** The last block the index reflects; null before the follower's first range. */
  indexedBlock: z.nullable(uintStringSchema),
  /** The chain's head as read for this answer; null in eventual mode, which reads no chain. */
  headBlock: z.nullable(uintStringSchema),
}

export const invoiceListResponseSchema = z.object({
  data: z.object({
    items: z.array(invoiceListItemSchema),
    page: z.object({ cursor: z.nullable(z.string()), hasNextPage: z.boolean() }),
  }),
  metadata: z.object({
    ...readMetadata,
    /** Items whose status was read from the chain rather than the index. */
    chainReads: z.int(),
  }),
})

/** SPEC 2.4's invoice for its merchant: the public fields (tokenURI null where the index alone
 * answered), the customer's display fields when known, and what was refunded of a paid one. */
export const merchantInvoiceSchema = z.extend(invoiceSchema, {
  tokenURI: z.nullable(z.string()),
  documentNumber: z.nullable(z.string()),
  customer: z.nullable(z.object({ id: z.nullable(z.string()), name: z.nullable(z.string()), email: z.nullable(z.string()) })),
  refundedAmount: z.nullable(uintStringSchema),
})

export const invoiceDetailResponseSchema = z.object({
  data: merchantInvoiceSchema,
  metadata: z.object({ ...readMetadata, source: z.enum(['index', 'chain']) }),
})

export const invoiceLookupResponseSchema = z.object({ data: z.object({ id: uintStringSchema, invoiceNumber: z.string() }) })
