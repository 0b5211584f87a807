import * as z from 'zod/mini'
import { addressSchema, bytes32Schema, uintStringSchema } from '../../../shared/deployment'

/** The wire shapes of the studio reads (SPEC 2.1, 2.12, 2.13, 4.1) and the registry's figures (4.18). */

export const vaultDeploymentStatuses = ['deployed', 'pending', 'not_deployed', 'other_chain'] as const

const nullableText = z.nullable(z.string())

export const studioProfileSchema = z.object({
  type: z.nullable(z.enum(['entity', 'person'])),
  legalName: nullableText,
  email: nullableText,
  address: z.object({ street: nullableText, city: nullableText, postal: nullableText, country: nullableText }),
  registrationNumber: nullableText,
  vatNumber: nullableText,
  tradeName: nullableText,
  taxId: nullableText,
  updatedAt: z.string(),
})

export const studioSchema = z.object({
  id: z.string(),
  name: z.nullable(z.string()),
  vaultAddress: addressSchema,
  vaultChainId: z.int(),
  /** Read from the chain: whether the vault has code (`other_chain`: this deployment cannot see it;
   * `pending`: its owner's deployment is sent and not on-chain yet). */
  vaultDeploymentStatus: z.enum(vaultDeploymentStatuses),
  createdAt: z.string(),
  profile: z.nullable(studioProfileSchema),
  profileComplete: z.boolean(),
})

export const studioMeResponseSchema = z.object({ data: studioSchema })
export const studioByIdResponseSchema = z.object({ success: z.literal(true), studio: studioSchema })

export const balanceResponseSchema = z.object({
  success: z.literal(true),
  /** base units, the token's balanceOf(vault) at `blockNumber` */
  balance: uintStringSchema,
  /** every decimal the token has, exact */
  formatted: z.string(),
  symbol: z.string(),
  decimals: z.int(),
  token: addressSchema,
  vaultAddress: addressSchema,
  vaultChainId: z.int(),
  vaultDeployed: z.boolean(),
  network: z.object({ chainId: z.int(), name: z.string() }),
  blockNumber: uintStringSchema,
  /** Before the vault is deployed: what to do first. */
  note: z.optional(z.string()),
})

const amountString = uintStringSchema

export const invoiceStatsResponseSchema = z.object({
  success: z.literal(true),
  stats: z.object({
    totalCount: z.int(),
    pendingCount: z.int(),
    paidCount: z.int(),
    canceledCount: z.int(),
    totalPaidAmount: amountString,
    totalPendingAmount: amountString,
    totalFees: amountString,
    totalNetAmount: amountString,
    totalRefunded: amountString,
    /** Every invoice of the index is counted (no cap of 50 per status). */
    complete: z.literal(true),
  }),
  metadata: z.object({ chainId: z.int(), indexedBlock: z.nullable(uintStringSchema) }),
})

const place = { blockNumber: uintStringSchema, logIndex: z.int(), transactionHash: bytes32Schema, timestamp: z.string(), explorerUrl: z.nullable(z.string()) }

export const vaultTransactionSchema = z.union([
  z.object({
    kind: z.literal('token_transfer'),
    direction: z.enum(['in', 'out']),
    from: addressSchema,
    to: addressSchema,
    token: addressSchema,
    amount: uintStringSchema,
    ...place,
  }),
  z.object({
    kind: z.literal('user_operation'),
    userOpHash: bytes32Schema,
    paymaster: addressSchema,
    nonce: uintStringSchema,
    success: z.boolean(),
    actualGasCost: uintStringSchema,
    actualGasUsed: uintStringSchema,
    ...place,
  }),
])

const pageNumber = z.pipe(
  z.string().check(z.regex(/^[1-9]\d{0,5}$/, { message: 'the page is a whole number from 1', abort: true })),
  z.transform((value) => Number(value)),
)

/** SPEC 4.1: page from 1; limit clamped to 1 through 100 (not refused), default 20. */
export const vaultTransactionsQuerySchema = z.object({
  page: z.optional(pageNumber),
  limit: z.optional(
    z.pipe(
      z.string().check(z.regex(/^-?\d{1,6}$/, { message: 'the limit is a whole number (clamped to 1 through 100)', abort: true })),
      z.transform((value) => Math.min(100, Math.max(1, Number(value)))),
    ),
  ),
})

export const vaultTransactionsResponseSchema = z.object({
  success: z.literal(true),
  transactions: z.array(vaultTransactionSchema),
  pagination: z.object({ page: z.int(), limit: z.int(), total: z.int(), totalPages: z.int(), hasNext: z.boolean(), hasPrev: z.boolean() }),
  vaultAddress: addressSchema,
  chainId: z.int(),
  headBlock: uintStringSchema,
})

/** A studio's UUID, or `me` for the caller's own (as the account routes take it). */
export const studioIdParams = z.object({ id: z.union([z.literal('me'), z.uuid('the studio id is a UUID, or me')]) })
export const accountAddressParams = z.object({ address: addressSchema })

const volumeSchema = z.object({
  token: addressSchema,
  symbol: z.string(),
  decimals: z.int(),
  paidCount: z.int(),
  paidAmount: uintStringSchema,
  fees: uintStringSchema,
  netAmount: uintStringSchema,
  refunded: uintStringSchema,
})

export const protocolStatsResponseSchema = z.object({
  success: z.literal(true),
  chainId: z.int(),
  registry: addressSchema,
  /** The registry's own count of invoices ever issued, read from the chain now. */
  onChainInvoiceCount: uintStringSchema,
  retailFeeBps: z.int(),
  invoices: z.object({ total: z.int(), issued: z.int(), paid: z.int(), canceled: z.int() }),
  merchants: z.int(),
  payers: z.int(),
  volumes: z.array(volumeSchema),
  indexedBlock: z.nullable(uintStringSchema),
})

export const accountMetricsResponseSchema = z.object({
  success: z.literal(true),
  address: addressSchema,
  chainId: z.int(),
  asMerchant: z.object({
    /** The registry's merchantInvoiceCount, read from the chain now. */
    onChainInvoiceCount: uintStringSchema,
    /** The fee rate a payment to this merchant would be charged now. */
    feeBps: z.int(),
    invoices: z.object({ total: z.int(), issued: z.int(), paid: z.int(), canceled: z.int() }),
    volumes: z.array(volumeSchema),
  }),
  asPayer: z.object({ paidCount: z.int(), firstPaidAt: z.nullable(uintStringSchema), lastPaidAt: z.nullable(uintStringSchema), volumes: z.array(volumeSchema) }),
  indexedBlock: z.nullable(uintStringSchema),
})
