import type { Address, Hex, PublicClient } from 'viem'
import { invoiceRegistryAbi } from '../../../contracts/artifacts/InvoiceRegistry'
import type { Principal } from '../../auth/principal'
import { ForbiddenError } from '../../auth/authErrors'
import { ValidationError } from '../../http/httpError'
import { partOf, perClientLimit } from '../../http/perClientLimit'
import { apiRoute } from '../../routes/apiRoute'
import type { InvoiceIndex } from '../invoices/invoiceIndex'
import type { InvoiceListCursors } from '../invoices/invoiceListCursor'
import type { TokenDetails } from '../invoices/tokenDetails'
import { paymentSettlement, type SettlementChain } from './paymentSettlement'
import {
  maxExportRangeSeconds,
  paymentExportQuerySchema,
  paymentListLimits,
  paymentListQuerySchema,
  paymentListResponseSchema,
  type WirePayment,
} from './paymentWire'
import type { IndexedPayment, ReceivedPaymentStore } from './receivedPaymentStore'
import { streamPaymentExport } from './streamPaymentExport'

export type PaymentReadDependencies = {
  payments: Pick<ReceivedPaymentStore, 'page' | 'batch'>
  index: Pick<InvoiceIndex, 'indexedThrough'>
  client: PublicClient
  chainId: number
  registry: Address
  /** REGISTRY_FROM_BLOCK: where a settlement event missing from the index is looked for. */
  fromBlock: bigint
  token: Address
  cursors: InvoiceListCursors
  tokens: TokenDetails
  /** EXPLORER_URL's link to a transaction; null without one (the devnet has none). */
  explorerUrl: (transactionHash: Hex | null) => string | null
}

/** Absent only where no request reaches the routes (a document of them, an app without a chain). */
export type PaymentRoutesDependencies = { paymentReads?: PaymentReadDependencies }

function readsOf(dependencies: PaymentRoutesDependencies): PaymentReadDependencies {
  if (!dependencies.paymentReads) throw new Error('the payment routes are mounted without their dependencies')
  return dependencies.paymentReads
}

/** The caller's vault on this chain, or null when its studio's vault is on another: it was paid nothing here. */
function vaultOf(principal: Principal, chainId: number): Address | null {
  return principal.studio.chainId === chainId ? principal.studio.vaultAddress : null
}

const chainOf = (reads: PaymentReadDependencies): SettlementChain => ({ client: reads.client, registry: reads.registry, fromBlock: reads.fromBlock })

async function tokenUriOf(reads: PaymentReadDependencies, id: bigint): Promise<string | null> {
  try {
    return await reads.client.readContract({ address: reads.registry, abi: invoiceRegistryAbi, functionName: 'tokenURI', args: [id] })
  } catch {
    // a field the row can do without: the payment is still the payment
    return null
  }
}

async function wirePaymentOf(reads: PaymentReadDependencies, payment: IndexedPayment): Promise<WirePayment> {
  const [settlement, tokenURI] = await Promise.all([paymentSettlement(payment, chainOf(reads)), tokenUriOf(reads, payment.id)])
  return {
    id: payment.id.toString(),
    invoiceNumber: payment.invoiceNumber.toString(),
    documentNumber: payment.documentNumber,
    merchant: payment.merchant,
    payer: payment.payer,
    amount: payment.amount.toString(),
    paidAt: payment.paidAt.toString(),
    grossAmount: settlement.gross.toString(),
    protocolFee: settlement.fee.toString(),
    netAmount: settlement.net.toString(),
    feeBps: settlement.feeBps,
    refundedAmount: payment.refundedAmount.toString(),
    transactionHash: settlement.transactionHash,
    explorerUrl: reads.explorerUrl(settlement.transactionHash),
    token: payment.token,
    tokenURI,
    issuedAt: payment.issuedAt.toString(),
    settlementSource: settlement.source,
  }
}

/** The payment routes', one count per client across them. */
const paymentsLimit = perClientLimit('payments', (settings) => settings.perMinute)
/** An export reads up to a year of payments: a tenth of the general limit. */
const exportsLimit = perClientLimit('payment-exports', (settings) => partOf(settings, 10))

const paymentRoute = apiRoute<PaymentRoutesDependencies>()

const sum = (values: bigint[]) => values.reduce((total, value) => total + value, 0n)

/**
 * SPEC 4.15 and 4.16: what came in. Both read the invoice index's Paid rows of the caller's vault
 * (the registry follower keeps it); HMAC or a signed-in user, no scope (SPEC 5.6).
 */
export const paymentRoutes = [
  paymentRoute({
    method: 'get',
    path: '/v1/payments',
    summary: 'Received payments, latest first',
    description:
      "Paid invoices of the caller's vault in reverse payment order. Amounts are base-unit integer strings from the registry's InvoicePaid event (`settlementSource: event`); SPEC 2.14's fall-back (gross and net the invoice amount, fee 0) appears only where no event could be read, flagged `settlementSource: fallback`. Filters: `paidFrom`/`paidTo` (inclusive Unix seconds; reversed is a 400), `payer`. `merchant` is accepted and ignored. `limit` 1 to 50, default 25; follow `data.page.cursor` while `hasNextPage`, filters unchanged. `totals` sums this page only.",
    auth: 'merchant',
    cors: 'none',
    rateLimits: [paymentsLimit],
    query: paymentListQuerySchema,
    response: { status: 200, schema: paymentListResponseSchema, description: 'One page of payments and its totals.' },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'CHAIN_UNAVAILABLE'],
    async handle({ query }, dependencies, c) {
      const reads = readsOf(dependencies)
      if (query.paidFrom !== undefined && query.paidTo !== undefined && query.paidFrom > query.paidTo) {
        throw new ValidationError([{ path: 'paidTo', message: 'paidTo is before paidFrom: the range is reversed' }])
      }
      const limit = query.limit ?? paymentListLimits.default
      const principal = c.get('principal')
      // bound to the list too: an invoice list's cursor is not this list's
      const binding = { list: 'payments', studio: principal.studio.id, payer: query.payer?.toLowerCase(), paidFrom: query.paidFrom?.toString(), paidTo: query.paidTo?.toString() }
      const offset = query.cursor === undefined ? 0 : reads.cursors.offsetOf(query.cursor, binding)
      const vault = vaultOf(principal, reads.chainId)
      const [indexedBlock, page] = await Promise.all([
        reads.index.indexedThrough(),
        vault ? reads.payments.page({ merchant: vault, payer: query.payer, paidFrom: query.paidFrom, paidTo: query.paidTo }, { offset, limit }) : { payments: [], hasNextPage: false },
      ])
      const payments = await Promise.all(page.payments.map((payment) => wirePaymentOf(reads, payment)))
      return {
        data: {
          payments,
          page: { cursor: page.hasNextPage ? reads.cursors.after(offset + payments.length, binding) : null, hasNextPage: page.hasNextPage },
          totals: {
            totalAmount: sum(payments.map((payment) => BigInt(payment.grossAmount))).toString(),
            totalFees: sum(payments.map((payment) => BigInt(payment.protocolFee))).toString(),
            totalNetAmount: sum(payments.map((payment) => BigInt(payment.netAmount))).toString(),
            totalRefunded: sum(payments.map((payment) => BigInt(payment.refundedAmount))).toString(),
            count: payments.length,
          },
        },
        metadata: { chainId: reads.chainId, indexedBlock: indexedBlock?.toString() ?? null },
      }
    },
  }),
  paymentRoute({
    method: 'get',
    path: '/v1/payments/export',
    summary: 'Received payments in a date range, as CSV or JSON',
    description:
      "`format` csv (an attachment) or json (`{ exportedAt, dateRange, payments, summary }`, no data wrapper); `startDate` and `endDate` inclusive Unix seconds, at most 366 days apart; `payer` optional; `merchant`, when given, must be the caller's vault (else 403). Oldest payment first. Display amounts carry every decimal the token has, computed exactly from base units (no floating point, no rounding), each beside its base units; refunds so far are a column of their own. The body is streamed as the range is read: an interrupted download is a truncated file.",
    auth: 'merchant',
    cors: 'none',
    rateLimits: [exportsLimit],
    query: paymentExportQuerySchema,
    response: { status: 200, contentType: 'text/csv', description: 'The CSV attachment, or with format=json the JSON export (application/json).' },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'CHAIN_UNAVAILABLE'],
    async handle({ query }, dependencies, c) {
      const reads = readsOf(dependencies)
      if (query.startDate > query.endDate) throw new ValidationError([{ path: 'endDate', message: 'endDate is before startDate: the range is reversed' }])
      if (query.endDate - query.startDate > maxExportRangeSeconds) {
        throw new ValidationError([{ path: 'endDate', message: 'an export covers at most 366 days: export a longer period in parts' }])
      }
      const principal = c.get('principal')
      const vault = vaultOf(principal, reads.chainId)
      if (query.merchant !== undefined && (!vault || query.merchant.toLowerCase() !== vault.toLowerCase())) {
        throw new ForbiddenError("merchant is not this studio's vault: an export is of the caller's own payments")
      }
      const exportedAt = new Date()
      // a studio whose vault is on another chain was paid nothing here: an export with no rows
      const filters = { merchant: vault ?? ('0x0000000000000000000000000000000000000000' as Address), payer: query.payer, paidFrom: query.startDate, paidTo: query.endDate }
      const body = streamPaymentExport(
        { format: query.format, filters, exportedAt },
        { payments: reads.payments, chain: chainOf(reads), tokens: reads.tokens, token: reads.token, explorerUrl: reads.explorerUrl },
      )
      const name = `payments-${query.startDate}-${query.endDate}.${query.format}`
      return new Response(body, {
        status: 200,
        headers: {
          'Content-Type': query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
          ...(query.format === 'csv' ? { 'Content-Disposition': `attachment; filename="${name}"` } : {}),
          'Cache-Control': 'no-store',
        },
      })
    },
  }),
]
