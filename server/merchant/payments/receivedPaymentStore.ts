import { getAddress, type Address, type Hex } from 'viem'
import type { Database } from '../../store/database'

/** A paid invoice as the index holds it (migration 14): the settlement figures are the registry's
 * InvoicePaid event's, null only where the row was put back from the chain's record after a
 * reorganisation and no event has been applied to it since. */
export type IndexedPayment = {
  id: bigint
  invoiceNumber: bigint
  /** The number on the document of an invoice issued through this server (migration 13). */
  documentNumber: string | null
  merchant: Address
  token: Address
  amount: bigint
  payer: Address
  issuedAt: bigint
  paidAt: bigint
  paidTx: Hex | null
  settledFee: bigint | null
  settledNet: bigint | null
  settledFeeBps: number | null
  refundedAmount: bigint
}

export type PaymentFilters = { merchant: Address; payer?: Address | undefined; paidFrom?: bigint | undefined; paidTo?: bigint | undefined }

/** Where an export batch resumes: after this payment, in payment order. */
export type PaymentPosition = { paidAt: bigint; id: bigint }

type Row = {
  invoice_id: string
  invoice_number: string
  document_number: string | null
  merchant: string
  token: string
  amount: string
  payer: string
  issued_at: string
  paid_at: string
  paid_tx: Hex | null
  settled_fee: string | null
  settled_net: string | null
  settled_fee_bps: number | null
  refunded_amount: string
}

const columns = `i.invoice_id::text AS invoice_id, i.invoice_number::text AS invoice_number, o.invoice_number AS document_number,
  i.merchant, i.token, i.amount::text AS amount, i.payer, i.issued_at::text AS issued_at, i.paid_at::text AS paid_at, i.paid_tx,
  i.settled_fee::text AS settled_fee, i.settled_net::text AS settled_net, i.settled_fee_bps, i.refunded_amount::text AS refunded_amount`

const ownIssuance = 'LEFT JOIN issued_invoices o ON o.chain_id = i.chain_id AND o.registry = i.registry AND o.invoice_id = i.invoice_id'

const optionalBigint = (value: string | null) => (value === null ? null : BigInt(value))

function toPayment(row: Row): IndexedPayment {
  return {
    id: BigInt(row.invoice_id),
    invoiceNumber: BigInt(row.invoice_number),
    documentNumber: row.document_number,
    merchant: getAddress(row.merchant),
    token: getAddress(row.token),
    amount: BigInt(row.amount),
    payer: getAddress(row.payer),
    issuedAt: BigInt(row.issued_at),
    paidAt: BigInt(row.paid_at),
    paidTx: row.paid_tx,
    settledFee: optionalBigint(row.settled_fee),
    settledNet: optionalBigint(row.settled_net),
    settledFeeBps: row.settled_fee_bps,
    refundedAmount: BigInt(row.refunded_amount),
  }
}

/**
 * A merchant's received payments (SPEC 4.15, 4.16): the Paid rows of the invoice index, which only
 * the registry follower writes. Nothing here writes; migration 18 gives these reads their own index
 * (merchant, paid_at, id over Paid rows), so a page or an export batch reads only the rows it returns.
 */
export function createReceivedPaymentStore(db: Database, { chainId, registry }: { chainId: number; registry: Address }) {
  const registryKey = registry.toLowerCase()

  function whereOf(filters: PaymentFilters) {
    const params: unknown[] = [chainId, registryKey, filters.merchant.toLowerCase()]
    const where = ['i.chain_id = $1', 'i.registry = $2', 'i.merchant = $3', "i.status = 'Paid'"]
    const add = (clause: (at: string) => string, value: unknown) => {
      params.push(value)
      where.push(clause(`$${params.length}`))
    }
    if (filters.payer) add((at) => `i.payer = ${at}`, filters.payer.toLowerCase())
    if (filters.paidFrom !== undefined) add((at) => `i.paid_at >= ${at}`, filters.paidFrom.toString())
    if (filters.paidTo !== undefined) add((at) => `i.paid_at <= ${at}`, filters.paidTo.toString())
    return { params, where, add }
  }

  return {
    /** One page, latest payment first (the id breaks ties within a second), and whether a row follows. */
    async page(filters: PaymentFilters, { offset, limit }: { offset: number; limit: number }): Promise<{ payments: IndexedPayment[]; hasNextPage: boolean }> {
      const { params, where } = whereOf(filters)
      params.push(limit + 1, offset)
      const rows = await db.query<Row>(
        `SELECT ${columns} FROM invoice_index i ${ownIssuance} WHERE ${where.join(' AND ')}
         ORDER BY i.paid_at DESC, i.invoice_id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      )
      return { payments: rows.slice(0, limit).map(toPayment), hasNextPage: rows.length > limit }
    },

    /** Up to `limit` payments after `after`, oldest first: an export reads its range batch by batch,
     * each a query of its own, so no transaction or connection is held while the client reads. */
    async batch(filters: PaymentFilters, after: PaymentPosition | null, limit: number): Promise<IndexedPayment[]> {
      const { params, where } = whereOf(filters)
      if (after) {
        params.push(after.paidAt.toString(), after.id.toString())
        where.push(`(i.paid_at, i.invoice_id) > ($${params.length - 1}, $${params.length})`)
      }
      params.push(limit)
      const rows = await db.query<Row>(
        `SELECT ${columns} FROM invoice_index i ${ownIssuance} WHERE ${where.join(' AND ')}
         ORDER BY i.paid_at ASC, i.invoice_id ASC LIMIT $${params.length}`,
        params,
      )
      return rows.map(toPayment)
    },
  }
}

export type ReceivedPaymentStore = ReturnType<typeof createReceivedPaymentStore>
