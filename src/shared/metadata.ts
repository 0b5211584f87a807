import { keccak256, stringToHex, type Hex } from 'viem'
import { z } from 'zod'
import { addressSchema } from './deployment'

const decimalString = z.string().regex(/^\d+(\.\d+)?$/, 'a decimal number')
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}/, 'an ISO 8601 date')

const partySchema = z.object({
  name: z.string().min(1),
  email: z.string().email().optional(),
  address: z
    .object({ street: z.string(), city: z.string(), postal: z.string(), country: z.string().length(2) })
    .optional(),
  registrationNumber: z.string().optional(),
  vatNumber: z.string().optional(),
  taxId: z.string().optional(),
  walletAddress: addressSchema.optional(),
})

const lineItemSchema = z.object({
  description: z.string().min(1),
  quantity: z.number().positive(),
  unitPrice: decimalString,
  amount: decimalString,
  taxRate: decimalString.optional(),
  taxAmount: decimalString.optional(),
})

/** SPEC 2.5: the billing record kept encrypted off-chain, bound to the invoice by its on-chain metaHash. */
export const invoiceMetadataSchema = z.object({
  version: z.literal('1.0'),
  invoiceNumber: z.string().min(1),
  issuedAt: isoDate,
  dueAt: isoDate,
  merchant: partySchema,
  payer: partySchema,
  token: z.object({ address: addressSchema, symbol: z.string(), decimals: z.number().int().min(0), chainId: z.number().int() }),
  amount: decimalString,
  amountRaw: z.string().regex(/^\d+$/),
  lineItems: z.array(lineItemSchema).min(1),
  createdBy: z.string(),
  createdAt: z.string(),
  description: z.string().optional(),
  notes: z.string().optional(),
  paymentTerms: z.string().optional(),
  purchaseOrder: z.string().optional(),
  externalRef: z.string().optional(),
  quoteId: z.string().optional(),
  deliverables: z.array(z.string()).optional(),
  legalText: z.string().optional(),
})

export type InvoiceMetadata = z.infer<typeof invoiceMetadataSchema>

/** JSON with object keys sorted at every depth and no whitespace, so that the same record always
 * hashes the same however it was serialized or stored. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/** The value an invoice commits to on-chain as metaHash. */
export function hashMetadata(metadata: InvoiceMetadata): Hex {
  return keccak256(stringToHex(canonicalJson(metadata)))
}
