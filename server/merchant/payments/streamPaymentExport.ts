import { stringify } from 'csv-stringify/sync'
import type { Hex } from 'viem'
import type { TokenDetails } from '../invoices/tokenDetails'
import { baseUnitAmount } from './baseUnitAmount'
import { paymentSettlement, type SettlementChain } from './paymentSettlement'
import type { ExportedPayment } from './paymentWire'
import type { IndexedPayment, PaymentFilters, PaymentPosition, ReceivedPaymentStore } from './receivedPaymentStore'

export type PaymentExportDependencies = {
  payments: Pick<ReceivedPaymentStore, 'batch'>
  chain: SettlementChain
  tokens: TokenDetails
  /** The deployment's token: what the summary's currency and decimals are. */
  token: `0x${string}`
  explorerUrl: (transactionHash: Hex | null) => string | null
}

export type PaymentExportRequest = { format: 'csv' | 'json'; filters: PaymentFilters & { paidFrom: bigint; paidTo: bigint }; exportedAt: Date }

/** Rows read per query: enough that 10,000 payments take twenty queries, few enough that a batch is small. */
export const exportBatchSize = 500

const csvColumns: (keyof ExportedPayment)[] = [
  'date',
  'invoiceNumber',
  'invoiceId',
  'amount',
  'fee',
  'netAmount',
  'refundedAmount',
  'currency',
  'payerAddress',
  'transactionHash',
  'explorerUrl',
  'amountBaseUnits',
  'feeBaseUnits',
  'netAmountBaseUnits',
  'refundedAmountBaseUnits',
  'feeBps',
  'settlementSource',
]

const isoOf = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString()

async function exportedRow(payment: IndexedPayment, dependencies: PaymentExportDependencies): Promise<{ row: ExportedPayment; gross: bigint; fee: bigint; net: bigint }> {
  const [settlement, token] = await Promise.all([paymentSettlement(payment, dependencies.chain), dependencies.tokens(payment.token)])
  const display = (value: bigint) => baseUnitAmount(value, token.decimals)
  return {
    gross: settlement.gross,
    fee: settlement.fee,
    net: settlement.net,
    row: {
      date: isoOf(payment.paidAt),
      // the document's number where this service issued it, else the registry's sequential number
      invoiceNumber: payment.documentNumber ?? payment.invoiceNumber.toString(),
      invoiceId: payment.id.toString(),
      amount: display(settlement.gross),
      fee: display(settlement.fee),
      netAmount: display(settlement.net),
      refundedAmount: display(payment.refundedAmount),
      currency: token.symbol,
      payerAddress: payment.payer,
      transactionHash: settlement.transactionHash,
      explorerUrl: dependencies.explorerUrl(settlement.transactionHash),
      amountBaseUnits: settlement.gross.toString(),
      feeBaseUnits: settlement.fee.toString(),
      netAmountBaseUnits: settlement.net.toString(),
      refundedAmountBaseUnits: payment.refundedAmount.toString(),
      feeBps: settlement.feeBps,
      settlementSource: settlement.source,
    },
  }
}

/**
 * The export of SPEC 4.16 as a stream: the range is read a batch at a time as the client takes the
 * bytes (the stream's pull), so memory holds one batch whatever the range holds, and no database
 * transaction stays open while a slow client reads. JSON's summary is written after the rows, summed
 * from exactly the rows written (a payment that lands mid-export is either in both or in neither).
 * A failure mid-stream ends the body early: the client sees a truncated file, never a partial one
 * that parses (JSON), and a CSV's last line is whole or absent.
 */
export function streamPaymentExport(request: PaymentExportRequest, dependencies: PaymentExportDependencies): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const { format, filters } = request
  let after: PaymentPosition | null = null
  let started = false
  let finished = false
  let count = 0
  const totals = { gross: 0n, fee: 0n, net: 0n, refunded: 0n }

  const opening = () =>
    format === 'csv'
      ? stringify([], { header: true, columns: csvColumns })
      : `{"exportedAt":${JSON.stringify(request.exportedAt.toISOString())},"dateRange":${JSON.stringify({
          startDate: filters.paidFrom.toString(),
          endDate: filters.paidTo.toString(),
          from: isoOf(filters.paidFrom),
          to: isoOf(filters.paidTo),
        })},"payments":[`

  async function closing(): Promise<string> {
    if (format === 'csv') return ''
    const token = await dependencies.tokens(dependencies.token)
    const display = (value: bigint) => baseUnitAmount(value, token.decimals)
    const summary = {
      totalPayments: count,
      totalAmount: display(totals.gross),
      totalFees: display(totals.fee),
      totalNetAmount: display(totals.net),
      totalRefunded: display(totals.refunded),
      currency: token.symbol,
      totalAmountBaseUnits: totals.gross.toString(),
      totalFeesBaseUnits: totals.fee.toString(),
      totalNetAmountBaseUnits: totals.net.toString(),
      totalRefundedBaseUnits: totals.refunded.toString(),
    }
    return `],"summary":${JSON.stringify(summary)}}`
  }

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true
          controller.enqueue(encoder.encode(opening()))
          return
        }
        if (finished) return
        const batch = await dependencies.payments.batch(filters, after, exportBatchSize)
        const rows = await Promise.all(batch.map((payment) => exportedRow(payment, dependencies)))
        for (const [index, { gross, fee, net }] of rows.entries()) {
          totals.gross += gross
          totals.fee += fee
          totals.net += net
          totals.refunded += batch[index]!.refundedAmount
        }
        if (rows.length > 0) {
          const last = batch.at(-1)!
          after = { paidAt: last.paidAt, id: last.id }
          const text =
            format === 'csv'
              ? stringify(
                  rows.map(({ row }) => row),
                  { columns: csvColumns, escape_formulas: true },
                )
              : `${count > 0 ? ',' : ''}${rows.map(({ row }) => JSON.stringify(row)).join(',')}`
          count += rows.length
          controller.enqueue(encoder.encode(text))
        }
        if (batch.length < exportBatchSize) {
          finished = true
          const end = await closing()
          if (end) controller.enqueue(encoder.encode(end))
          controller.close()
        }
      },
    },
    // one batch ahead at most: the next is read only once the client has taken this one
    { highWaterMark: 1 },
  )
}
