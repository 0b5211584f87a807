import { getAddress, type Address, type Hex } from 'viem'
import type { invoiceOrderFields } from '../../../shared/invoiceReadWire'
import type { InvoiceStatus } from '../../../shared/invoiceStatus'
import type { Database, Queryable } from '../../store/database'

/** One registry log as the index reads it: its place on the chain (block, its hash, its time) and
 * what it says. Several may come from one block, in log order. */
type Place = { id: bigint; block: bigint; blockHash: Hex; blockTime: bigint; txHash: Hex }
export type IndexedEvent =
  | (Place & { kind: 'issued'; merchant: Address; token: Address; amount: bigint; invoiceNumber: bigint; dueAt: bigint; metaHash: Hex })
  | (Place & { kind: 'paid'; payer: Address; fee: bigint; net: bigint; feeBps: number })
  | (Place & { kind: 'canceled' })
  | (Place & { kind: 'refunded'; refundedTotal: bigint })

/** An invoice as the chain holds it now, for a row whose block a reorganisation took away. */
export type ChainRecord = {
  merchant: Address
  status: InvoiceStatus
  invoiceNumber: bigint
  token: Address
  issuedAt: bigint
  payer: Address | null
  dueAt: bigint
  paidAt: bigint | null
  amount: bigint
  metaHash: Hex
  refunded: bigint
}

export type IndexedInvoice = {
  id: bigint
  merchant: Address
  invoiceNumber: bigint
  token: Address
  amount: bigint
  status: InvoiceStatus
  payer: Address | null
  metaHash: Hex
  issuedAt: bigint
  dueAt: bigint
  issuedBlock: bigint
  paidAt: bigint | null
  paidTx: Hex | null
  settledFee: bigint | null
  settledFeeBps: number | null
  canceledAt: bigint | null
  refundedAmount: bigint
  /** Issued through this server (issued_invoices): the customer it was issued to and the number its
   * document carries. */
  customerId: string | null
  documentNumber: string | null
}

export type InvoiceOrderField = (typeof invoiceOrderFields)[number]

export type InvoiceListFilters = {
  status?: InvoiceStatus | undefined
  customerId?: string | undefined
  payer?: Address | undefined
  issuedFrom?: bigint | undefined
  issuedTo?: bigint | undefined
}

export type InvoiceListQuery = InvoiceListFilters & {
  merchant: Address
  orderBy: InvoiceOrderField
  orderDirection: 'asc' | 'desc'
  offset: number
  limit: number
}

// A fixed table, never the client's text: the column names go into the SQL as they stand here.
const orderColumns: Record<InvoiceOrderField, string> = {
  issuedBlock: 'i.issued_block',
  issuedAt: 'i.issued_at',
  dueAt: 'i.due_at',
  amount: 'i.amount',
  invoiceNumber: 'i.invoice_number',
}

type Row = {
  invoice_id: string
  merchant: string
  invoice_number: string
  token: string
  amount: string
  status: InvoiceStatus
  payer: string | null
  meta_hash: Hex
  issued_at: string
  due_at: string
  issued_block: string
  paid_at: string | null
  paid_tx: Hex | null
  settled_fee: string | null
  settled_fee_bps: number | null
  canceled_at: string | null
  refunded_amount: string
  customer_id: string | null
  document_number: string | null
}

const columns = `i.invoice_id::text AS invoice_id, i.merchant, i.invoice_number::text AS invoice_number, i.token, i.amount::text AS amount,
  i.status, i.payer, i.meta_hash, i.issued_at::text AS issued_at, i.due_at::text AS due_at, i.issued_block::text AS issued_block,
  i.paid_at::text AS paid_at, i.paid_tx, i.settled_fee::text AS settled_fee, i.settled_fee_bps, i.canceled_at::text AS canceled_at,
  i.refunded_amount::text AS refunded_amount, o.customer_id::text AS customer_id, o.invoice_number AS document_number`

// The issuance slice's record of an invoice issued through this server (migration 13), by the id the
// chain gave it: its customer and its document's number.
const ownIssuance = 'LEFT JOIN issued_invoices o ON o.chain_id = i.chain_id AND o.registry = i.registry AND o.invoice_id = i.invoice_id'

const optionalBigint = (value: string | null) => (value === null ? null : BigInt(value))

function toInvoice(row: Row): IndexedInvoice {
  return {
    id: BigInt(row.invoice_id),
    merchant: getAddress(row.merchant),
    invoiceNumber: BigInt(row.invoice_number),
    token: getAddress(row.token),
    amount: BigInt(row.amount),
    status: row.status,
    payer: row.payer ? getAddress(row.payer) : null,
    metaHash: row.meta_hash,
    issuedAt: BigInt(row.issued_at),
    dueAt: BigInt(row.due_at),
    issuedBlock: BigInt(row.issued_block),
    paidAt: optionalBigint(row.paid_at),
    paidTx: row.paid_tx,
    settledFee: optionalBigint(row.settled_fee),
    settledFeeBps: row.settled_fee_bps,
    canceledAt: optionalBigint(row.canceled_at),
    refundedAmount: BigInt(row.refunded_amount),
    customerId: row.customer_id,
    documentNumber: row.document_number,
  }
}

/** The first second of `year` and of the next, UTC: the issuance year a lookup names. */
function yearBounds(year: number): [bigint, bigint] {
  return [BigInt(Date.UTC(year, 0, 1) / 1000), BigInt(Date.UTC(year + 1, 0, 1) / 1000)]
}

/**
 * The index of the registry's invoices (migration 14): what GET /v1/invoices and its siblings read
 * instead of the chain. Only the registry follower writes it (server/webhooks/followRegistry.ts),
 * inside the transaction that records how far it read, so a row is never ahead of or behind the
 * cursor: `indexedThrough` is the last block every row reflects.
 */
export function createInvoiceIndex(db: Database, { chainId, registry }: { chainId: number; registry: Address }) {
  const registryKey = registry.toLowerCase()
  const key = (id: bigint) => [chainId, registryKey, id.toString()]

  return {
    /**
     * Applies `events` in the order given (the logs' order) within the follower's transaction. Each
     * write keeps the row's latest state when a log is read twice (an instance behind another, a
     * range read again): an update applies only from a block at or after the row's last change, a
     * status leaves Issued once and never returns, and the refunded total only grows.
     */
    async apply(tx: Queryable, events: readonly IndexedEvent[]): Promise<void> {
      for (const event of events) {
        const place = [event.block.toString(), event.blockHash.toLowerCase()]
        if (event.kind === 'issued') {
          // A second issuance under the same id happens only on another chain's branch: its fields
          // replace the first's; the state stays what the repair read (followRegistry.ts).
          await tx.query(
            `INSERT INTO invoice_index (chain_id, registry, invoice_id, merchant, invoice_number, token, amount, status, meta_hash,
               issued_at, due_at, issued_block, issued_tx, changed_block, changed_block_hash)
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'Issued', $8, $9, $10, $11, $12, $11, $13)
             ON CONFLICT (chain_id, registry, invoice_id) DO UPDATE SET merchant = EXCLUDED.merchant, invoice_number = EXCLUDED.invoice_number,
               token = EXCLUDED.token, amount = EXCLUDED.amount, meta_hash = EXCLUDED.meta_hash, issued_at = EXCLUDED.issued_at,
               due_at = EXCLUDED.due_at, issued_block = EXCLUDED.issued_block, issued_tx = EXCLUDED.issued_tx
             WHERE invoice_index.issued_tx <> EXCLUDED.issued_tx OR invoice_index.issued_block <> EXCLUDED.issued_block`,
            [
              ...key(event.id),
              event.merchant.toLowerCase(),
              event.invoiceNumber.toString(),
              event.token.toLowerCase(),
              event.amount.toString(),
              event.metaHash.toLowerCase(),
              event.blockTime.toString(),
              event.dueAt.toString(),
              place[0],
              event.txHash.toLowerCase(),
              place[1],
            ],
          )
        } else if (event.kind === 'paid') {
          await tx.query(
            `UPDATE invoice_index SET status = 'Paid', payer = $4, paid_at = $5, paid_tx = $6, settled_fee = $7, settled_net = $8,
               settled_fee_bps = $9, changed_block = $10, changed_block_hash = $11
             WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3 AND status <> 'Canceled' AND changed_block <= $10`,
            [...key(event.id), event.payer.toLowerCase(), event.blockTime.toString(), event.txHash.toLowerCase(), event.fee.toString(), event.net.toString(), event.feeBps, ...place],
          )
        } else if (event.kind === 'canceled') {
          await tx.query(
            `UPDATE invoice_index SET status = 'Canceled', canceled_at = $4, changed_block = $5, changed_block_hash = $6
             WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3 AND status = 'Issued' AND changed_block <= $5`,
            [...key(event.id), event.blockTime.toString(), ...place],
          )
        } else {
          await tx.query(
            `UPDATE invoice_index SET refunded_amount = GREATEST(refunded_amount, $4), changed_block = $5, changed_block_hash = $6
             WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3 AND changed_block <= $5`,
            [...key(event.id), event.refundedTotal.toString(), ...place],
          )
        }
      }
    },

    /** The blocks rows last changed in, below `below`, latest first, with the hash each was read
     * with: where a reorganisation's repair looks for the last block both branches share. */
    async changedBlocks(below: bigint, limit: number): Promise<{ block: bigint; hash: Hex }[]> {
      const rows = await db.query<{ block: string; hash: Hex }>(
        `SELECT DISTINCT changed_block::text AS block, changed_block_hash AS hash, changed_block AS ordering FROM invoice_index
         WHERE chain_id = $1 AND registry = $2 AND changed_block < $3 ORDER BY changed_block DESC LIMIT $4`,
        [chainId, registryKey, below.toString(), limit],
      )
      return rows.map((row) => ({ block: BigInt(row.block), hash: row.hash }))
    },

    /** The ids of rows last changed after `block`: what a reorganisation may have undone. */
    async changedAfter(block: bigint): Promise<bigint[]> {
      const rows = await db.query<{ id: string }>(
        'SELECT invoice_id::text AS id FROM invoice_index WHERE chain_id = $1 AND registry = $2 AND changed_block > $3',
        [chainId, registryKey, block.toString()],
      )
      return rows.map((row) => BigInt(row.id))
    },

    /** Replaces a row with the chain's record (null: the chain has no such invoice any more), as of
     * the shared block `since`; the logs after it are then applied on top (within `tx`). */
    async restore(tx: Queryable, id: bigint, record: ChainRecord | null, since: { block: bigint; hash: Hex }): Promise<void> {
      if (!record) {
        await tx.query('DELETE FROM invoice_index WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3', key(id))
        return
      }
      await tx.query(
        `UPDATE invoice_index SET merchant = $4, status = $5, invoice_number = $6, token = $7, issued_at = $8, payer = $9, due_at = $10,
           paid_at = $11, amount = $12, meta_hash = $13, refunded_amount = $14, changed_block = $15, changed_block_hash = $16,
           paid_tx = CASE WHEN $5 = 'Paid' THEN paid_tx END, settled_fee = CASE WHEN $5 = 'Paid' THEN settled_fee END,
           settled_net = CASE WHEN $5 = 'Paid' THEN settled_net END, settled_fee_bps = CASE WHEN $5 = 'Paid' THEN settled_fee_bps END,
           canceled_at = CASE WHEN $5 = 'Canceled' THEN canceled_at END
         WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3`,
        [
          ...key(id),
          record.merchant.toLowerCase(),
          record.status,
          record.invoiceNumber.toString(),
          record.token.toLowerCase(),
          record.issuedAt.toString(),
          record.payer?.toLowerCase() ?? null,
          record.dueAt.toString(),
          record.paidAt?.toString() ?? null,
          record.amount.toString(),
          record.metaHash.toLowerCase(),
          record.refunded.toString(),
          since.block.toString(),
          since.hash.toLowerCase(),
        ],
      )
    },

    /** The last block the index reflects: the follower's cursor less one (null before its first range). */
    async indexedThrough(): Promise<bigint | null> {
      const [row] = await db.query<{ next_block: string; last_block_hash: string | null }>(
        'SELECT next_block::text AS next_block, last_block_hash FROM webhook_cursors WHERE chain_id = $1 AND registry = $2',
        [chainId, registryKey],
      )
      return row?.last_block_hash ? BigInt(row.next_block) - 1n : null
    },

    /** One page of a merchant's invoices, and whether a row follows it. */
    async list(query: InvoiceListQuery): Promise<{ items: IndexedInvoice[]; hasNextPage: boolean }> {
      const params: unknown[] = [chainId, registryKey, query.merchant.toLowerCase()]
      const where = ['i.chain_id = $1', 'i.registry = $2', 'i.merchant = $3']
      const add = (clause: (at: string) => string, value: unknown) => {
        params.push(value)
        where.push(clause(`$${params.length}`))
      }
      if (query.status) add((at) => `i.status = ${at}`, query.status)
      if (query.payer) add((at) => `i.payer = ${at}`, query.payer.toLowerCase())
      if (query.issuedFrom !== undefined) add((at) => `i.issued_at >= ${at}`, query.issuedFrom.toString())
      if (query.issuedTo !== undefined) add((at) => `i.issued_at <= ${at}`, query.issuedTo.toString())
      if (query.customerId) add((at) => `o.customer_id = ${at}::uuid`, query.customerId)
      const direction = query.orderDirection === 'asc' ? 'ASC' : 'DESC'
      params.push(query.limit + 1, query.offset)
      const rows = await db.query<Row>(
        `SELECT ${columns} FROM invoice_index i ${ownIssuance} WHERE ${where.join(' AND ')}
         ORDER BY ${orderColumns[query.orderBy]} ${direction}, i.invoice_id ${direction} LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      )
      return { items: rows.slice(0, query.limit).map(toInvoice), hasNextPage: rows.length > query.limit }
    },

    /** A merchant's invoice by id, or null when the index has none of the merchant's under it. */
    async get(merchant: Address, id: bigint): Promise<IndexedInvoice | null> {
      const [row] = await db.query<Row>(`SELECT ${columns} FROM invoice_index i ${ownIssuance} WHERE i.chain_id = $1 AND i.registry = $2 AND i.invoice_id = $3 AND i.merchant = $4`, [
        ...key(id),
        merchant.toLowerCase(),
      ])
      return row ? toInvoice(row) : null
    },

    /**
     * At most two of a merchant's invoices issued in `year` (UTC) whose number is `number`: the
     * registry's sequential number, or the number on the document of an invoice issued through this
     * server. Two mean the number is ambiguous.
     */
    async lookup(merchant: Address, number: string, year: number): Promise<{ id: bigint; invoiceNumber: string }[]> {
      const [from, to] = yearBounds(year)
      const onChain = /^\d{1,20}$/.test(number) ? number : null
      const rows = await db.query<{ id: string; onchain_number: string; document_number: string | null }>(
        `SELECT i.invoice_id::text AS id, i.invoice_number::text AS onchain_number, o.invoice_number AS document_number
         FROM invoice_index i ${ownIssuance}
         WHERE i.chain_id = $1 AND i.registry = $2 AND i.merchant = $3 AND i.issued_at >= $4 AND i.issued_at < $5
           AND (i.invoice_number = $6::numeric OR o.invoice_number = $7)
         ORDER BY i.invoice_id LIMIT 2`,
        [chainId, registryKey, merchant.toLowerCase(), from.toString(), to.toString(), onChain, number],
      )
      return rows.map((row) => ({ id: BigInt(row.id), invoiceNumber: row.document_number === number ? number : row.onchain_number }))
    },
  }
}

export type InvoiceIndex = ReturnType<typeof createInvoiceIndex>
