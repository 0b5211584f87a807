import * as z from 'zod/mini'
import { addressSchema } from './deployment'

const decimalString = z.string().check(z.regex(/^\d+(\.\d+)?$/, 'a decimal number'))
const isoDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}/, 'an ISO 8601 date'))
// One instance per shape, shared by every field of that shape (schemas are immutable): the page builds
// this schema while it loads, and each construction is a fixed cost of zod's, paid on a phone
const text = z.string()
const nonEmptyText = z.string().check(z.minLength(1))
const optionalText = z.optional(text)

const partySchema = z.object({
  name: nonEmptyText,
  email: z.optional(z.email()),
  address: z.optional(
    z.object({ street: text, city: text, postal: text, country: z.string().check(z.length(2)) }),
  ),
  registrationNumber: optionalText,
  vatNumber: optionalText,
  taxId: optionalText,
  walletAddress: z.optional(addressSchema),
})

const lineItemSchema = z.object({
  description: nonEmptyText,
  quantity: z.number().check(z.positive()),
  unitPrice: decimalString,
  amount: decimalString,
  taxRate: z.optional(decimalString),
  taxAmount: z.optional(decimalString),
})

/** SPEC 2.5: the billing record kept encrypted off-chain, bound to the invoice by its on-chain metaHash. */
export const invoiceMetadataSchema = z.object({
  version: z.literal('1.0'),
  invoiceNumber: nonEmptyText,
  issuedAt: isoDate,
  dueAt: isoDate,
  merchant: partySchema,
  payer: partySchema,
  token: z.object({ address: addressSchema, symbol: text, decimals: z.int().check(z.minimum(0)), chainId: z.int() }),
  amount: decimalString,
  amountRaw: z.string().check(z.regex(/^\d+$/)),
  lineItems: z.array(lineItemSchema).check(z.minLength(1)),
  createdBy: text,
  createdAt: text,
  description: optionalText,
  notes: optionalText,
  paymentTerms: optionalText,
  purchaseOrder: optionalText,
  externalRef: optionalText,
  quoteId: optionalText,
  deliverables: z.optional(z.array(text)),
  legalText: optionalText,
})

export type InvoiceMetadata = z.infer<typeof invoiceMetadataSchema>
