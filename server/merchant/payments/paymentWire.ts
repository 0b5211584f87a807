import * as z from 'zod/mini'
import { addressSchema, bytes32Schema, uintStringSchema } from '../../../shared/deployment'

/** The wire shapes of received payments (SPEC 4.15, 2.14) and their export (4.16). */

export const unixSecondsSchema = z.pipe(
  z.string().check(z.regex(/^(0|[1-9]\d{0,14})$/, { message: 'Unix seconds: a non-negative whole number', abort: true })),
  z.transform((value) => BigInt(value)),
)

const wholeNumberIn = (min: number, max: number) =>
  z.pipe(
    z.string().check(z.regex(/^\d{1,4}$/, { message: `a whole number from ${min} to ${max}`, abort: true })),
    z.pipe(
      z.transform((value: string) => Number(value)),
      z.number().check(z.minimum(min, `at least ${min}`), z.maximum(max, `at most ${max}`)),
    ),
  )

export const paymentListLimits = { default: 25, max: 50 } as const

/** GET /v1/payments. `merchant` is accepted and ignored: the list is always of the caller's vault. */
export const paymentListQuerySchema = z.object({
  paidFrom: z.optional(unixSecondsSchema),
  paidTo: z.optional(unixSecondsSchema),
  payer: z.optional(addressSchema),
  merchant: z.optional(z.string()),
  limit: z.optional(wholeNumberIn(1, paymentListLimits.max)),
  cursor: z.optional(z.string().check(z.maxLength(200, 'not a cursor this list gave'))),
})

/** SPEC 2.14's row, plus the rate the event carried, what has been refunded, and where its figures come from. */
export const paymentSchema = z.object({
  id: uintStringSchema,
  invoiceNumber: uintStringSchema,
  /** The number on the invoice's document, for one issued through this service. */
  documentNumber: z.nullable(z.string()),
  merchant: addressSchema,
  payer: addressSchema,
  /** The invoice's amount, base units. */
  amount: uintStringSchema,
  paidAt: uintStringSchema,
  grossAmount: uintStringSchema,
  protocolFee: uintStringSchema,
  netAmount: uintStringSchema,
  feeBps: z.nullable(z.int()),
  refundedAmount: uintStringSchema,
  transactionHash: z.nullable(bytes32Schema),
  explorerUrl: z.nullable(z.string()),
  token: addressSchema,
  tokenURI: z.nullable(z.string()),
  issuedAt: uintStringSchema,
  /** `event`: the figures are the registry's InvoicePaid event's; `fallback`: no event could be read,
   * so gross and net are the invoice amount and the fee "0" (SPEC 2.14): not proof of a fee waiver. */
  settlementSource: z.enum(['event', 'fallback']),
})
export type WirePayment = z.input<typeof paymentSchema>

export const paymentListResponseSchema = z.object({
  data: z.object({
    payments: z.array(paymentSchema),
    page: z.object({ cursor: z.nullable(z.string()), hasNextPage: z.boolean() }),
    /** This page's rows only (SPEC 4.15), base units. */
    totals: z.object({ totalAmount: uintStringSchema, totalFees: uintStringSchema, totalNetAmount: uintStringSchema, totalRefunded: uintStringSchema, count: z.int() }),
  }),
  metadata: z.object({ chainId: z.int(), indexedBlock: z.nullable(uintStringSchema) }),
})

/** The longest range one export reads: a year and a day, so a calendar year always fits. */
export const maxExportRangeSeconds = 366n * 24n * 60n * 60n

/** GET /v1/payments/export. */
export const paymentExportQuerySchema = z.object({
  format: z.enum(['csv', 'json'], 'the format is csv or json'),
  startDate: unixSecondsSchema,
  endDate: unixSecondsSchema,
  payer: z.optional(addressSchema),
  merchant: z.optional(addressSchema),
})

/** A row of the export: display amounts with every decimal the token has (exact, from bigints) beside
 * the base units they were written from. */
export const exportedPaymentSchema = z.object({
  date: z.string(),
  invoiceNumber: z.string(),
  invoiceId: uintStringSchema,
  amount: z.string(),
  fee: z.string(),
  netAmount: z.string(),
  refundedAmount: z.string(),
  currency: z.string(),
  payerAddress: addressSchema,
  transactionHash: z.nullable(bytes32Schema),
  explorerUrl: z.nullable(z.string()),
  amountBaseUnits: uintStringSchema,
  feeBaseUnits: uintStringSchema,
  netAmountBaseUnits: uintStringSchema,
  refundedAmountBaseUnits: uintStringSchema,
  feeBps: z.nullable(z.int()),
  settlementSource: z.enum(['event', 'fallback']),
})
export type ExportedPayment = z.input<typeof exportedPaymentSchema>

export const exportSummarySchema = z.object({
  totalPayments: z.int(),
  totalAmount: z.string(),
  totalFees: z.string(),
  totalNetAmount: z.string(),
  totalRefunded: z.string(),
  currency: z.string(),
  totalAmountBaseUnits: uintStringSchema,
  totalFeesBaseUnits: uintStringSchema,
  totalNetAmountBaseUnits: uintStringSchema,
  totalRefundedBaseUnits: uintStringSchema,
})

/** The JSON export, as it reads once the stream has ended (no data wrapper, SPEC 4.16). */
export const paymentExportSchema = z.object({
  exportedAt: z.string(),
  dateRange: z.object({ startDate: uintStringSchema, endDate: uintStringSchema, from: z.string(), to: z.string() }),
  payments: z.array(exportedPaymentSchema),
  summary: exportSummarySchema,
})
