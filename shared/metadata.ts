import * as z from 'zod/mini'
import { addressSchema } from './deployment'

const decimalString = z.string().check(z.regex(/^\d+(\.\d+)?$/, 'a decimal number'))
const isoDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}/, 'an ISO 8601 date'))

const partySchema = z.object({
  name: z.string().check(z.minLength(1)),
  email: z.optional(z.email()),
  address: z.optional(
    z.object({ street: z.string(), city: z.string(), postal: z.string(), country: z.string().check(z.length(2)) }),
  ),
  registrationNumber: z.optional(z.string()),
  vatNumber: z.optional(z.string()),
  taxId: z.optional(z.string()),
  walletAddress: z.optional(addressSchema),
})

const lineItemSchema = z.object({
  description: z.string().check(z.minLength(1)),
  quantity: z.number().check(z.positive()),
  unitPrice: decimalString,
  amount: decimalString,
  taxRate: z.optional(decimalString),
  taxAmount: z.optional(decimalString),
})

/** SPEC 2.5: the billing record kept encrypted off-chain, bound to the invoice by its on-chain metaHash. */
export const invoiceMetadataSchema = z.object({
  version: z.literal('1.0'),
  invoiceNumber: z.string().check(z.minLength(1)),
  issuedAt: isoDate,
  dueAt: isoDate,
  merchant: partySchema,
  payer: partySchema,
  token: z.object({ address: addressSchema, symbol: z.string(), decimals: z.int().check(z.minimum(0)), chainId: z.int() }),
  amount: decimalString,
  amountRaw: z.string().check(z.regex(/^\d+$/)),
  lineItems: z.array(lineItemSchema).check(z.minLength(1)),
  createdBy: z.string(),
  createdAt: z.string(),
  description: z.optional(z.string()),
  notes: z.optional(z.string()),
  paymentTerms: z.optional(z.string()),
  purchaseOrder: z.optional(z.string()),
  externalRef: z.optional(z.string()),
  quoteId: z.optional(z.string()),
  deliverables: z.optional(z.array(z.string())),
  legalText: z.optional(z.string()),
})

export type InvoiceMetadata = z.infer<typeof invoiceMetadataSchema>
