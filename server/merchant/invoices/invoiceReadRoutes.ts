import type { Address, PublicClient } from 'viem'
import type * as z from 'zod/mini'
import { invoiceRegistryAbi } from '../../../contracts/artifacts/InvoiceRegistry'
import {
  invoiceDetailQuerySchema,
  invoiceDetailResponseSchema,
  invoiceListQuerySchema,
  invoiceListResponseSchema,
  invoiceLookupQuerySchema,
  invoiceLookupResponseSchema,
  type InvoiceReadMode,
  type invoiceListItemSchema,
  type merchantInvoiceSchema,
} from '../../../shared/invoiceReadWire'
import type { WireInvoice } from '../../../shared/wire'
import type { Principal } from '../../auth/principal'
import { readOwnedInvoice } from '../../auth/readOwnedInvoice'
import { InvoiceNotFoundError, type InvoiceReader } from '../../chain/invoiceReader'
import { HttpError, ValidationError } from '../../http/httpError'
import { invoiceIdParams } from '../../http/validate'
import { invoicePdf } from '../../pdf/invoicePdf'
import { invoicesLimit } from '../../routes/invoiceShareRoutes'
import { apiRoute } from '../../routes/apiRoute'
import type { InvoiceKey } from '../../store/invoiceKey'
import type { InvoiceMetadataStore } from '../../store/invoiceMetadataStore'
import type { IndexedInvoice, InvoiceIndex } from './invoiceIndex'
import type { InvoiceListCursors } from './invoiceListCursor'
import type { TokenDetails } from './tokenDetails'

export type InvoiceReadDependencies = {
  index: Pick<InvoiceIndex, 'list' | 'get' | 'lookup' | 'indexedThrough'>
  invoices: InvoiceReader
  client: PublicClient
  chainId: number
  registry: Address
  metadata: Pick<InvoiceMetadataStore, 'getMetadata'>
  invoiceKey: (invoiceId: bigint) => InvoiceKey
  cursors: InvoiceListCursors
  tokens: TokenDetails
}

/** Absent only where no request reaches the routes (a document of them, an app without a chain). */
export type InvoiceReadRoutesDependencies = { invoiceReads?: InvoiceReadDependencies }

function readsOf(dependencies: InvoiceReadRoutesDependencies): InvoiceReadDependencies {
  if (!dependencies.invoiceReads) throw new Error('the invoice read routes are mounted without their dependencies')
  return dependencies.invoiceReads
}

type ListItem = z.input<typeof invoiceListItemSchema>
type MerchantInvoice = z.input<typeof merchantInvoiceSchema>

/** SPEC 4.8: strong mode reads every item from the chain, so it lists at most this many. */
const strongLimit = 25
const defaultLimit = 25

const readErrors = ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'CHAIN_UNAVAILABLE'] as const

/** The caller's vault on this chain, or null when its studio's vault is on another: it owns nothing here. */
function vaultOf(principal: Principal, chainId: number): Address | null {
  return principal.studio.chainId === chainId ? principal.studio.vaultAddress : null
}

const notFound = (id: bigint) => new InvoiceNotFoundError(`invoice ${id} does not exist`)

async function listItemOf(reads: InvoiceReadDependencies, row: IndexedInvoice): Promise<ListItem> {
  return {
    id: row.id.toString(),
    invoiceNumber: row.invoiceNumber.toString(),
    documentNumber: row.documentNumber,
    merchant: row.merchant,
    agent: null,
    payer: row.payer,
    token: { address: row.token, ...(await reads.tokens(row.token)) },
    amount: row.amount.toString(),
    status: row.status,
    metaHash: row.metaHash,
    issuedAt: row.issuedAt.toString(),
    dueAt: row.dueAt.toString(),
    issuedBlock: row.issuedBlock.toString(),
    paidAt: row.paidAt?.toString() ?? null,
    customerId: row.customerId,
    settledFee: row.settledFee?.toString() ?? null,
    settledFeeBps: row.settledFeeBps,
    refundedAmount: row.refundedAmount.toString(),
  }
}

/** An item with the chain's status, payer and settlement in place of the index's. */
function withChain(item: ListItem, chain: WireInvoice): ListItem {
  return {
    ...item,
    status: chain.status,
    payer: chain.payer,
    paidAt: chain.paidAt,
    settledFee: chain.settledFee ?? item.settledFee,
    settledFeeBps: chain.settledFeeBps ?? item.settledFeeBps,
  }
}

/** A fresh read for strong mode: whatever the reader kept is dropped first. */
async function freshRead(invoices: InvoiceReader, id: bigint) {
  invoices.forget(id)
  return (await invoices.read(id)).invoice
}

async function refundedOnChain(reads: InvoiceReadDependencies, id: bigint): Promise<bigint> {
  return reads.client.readContract({ address: reads.registry, abi: invoiceRegistryAbi, functionName: 'refundedAmount', args: [id] })
}

async function customerOf(reads: InvoiceReadDependencies, id: bigint, customerId: string | null): Promise<MerchantInvoice['customer']> {
  const metadata = await reads.metadata.getMetadata(reads.invoiceKey(id))
  if (!metadata && !customerId) return null
  return { id: customerId, name: metadata?.payer.name ?? null, email: metadata?.payer.email ?? null }
}

const invoiceRoute = apiRoute<InvoiceReadRoutesDependencies>()

/**
 * SPEC 4.8: the merchant's reads of its own invoices, over the index the registry follower keeps
 * (./invoiceIndex.ts) and the chain. Always the caller's vault: another studio's invoice is a 404,
 * as a missing one is. `lookup` comes before `:id`, which would otherwise take its path.
 */
export const invoiceReadRoutes = [
  invoiceRoute({
    method: 'get',
    path: '/v1/invoices',
    summary: "The studio's invoices, a page at a time",
    description:
      'Filters: `status` (Issued, Paid, Canceled, case-sensitive), `customerId`, `payer`, `issuedFrom`/`issuedTo` (inclusive Unix seconds). Order: `orderBy` (issuedBlock, issuedAt, dueAt, amount, invoiceNumber; default issuedBlock) and `orderDirection` (default desc). `limit` 1 to 50, default 25; strong mode lists at most 25. Follow `data.page.cursor` while `hasNextPage`, with the filters and order unchanged. `mode`: eventual (the index alone), hybrid (default: the index, each Issued item read again from the chain while the index is behind its head), strong (every item read from the chain). `merchant` and `agent` are accepted and ignored: the list is always of the caller\'s vault.',
    auth: 'merchant',
    scope: 'invoice:read',
    cors: 'none',
    rateLimits: [invoicesLimit],
    query: invoiceListQuerySchema,
    response: { status: 200, schema: invoiceListResponseSchema, description: 'One page of invoices.' },
    errors: readErrors,
    async handle({ query }, dependencies, c) {
      const reads = readsOf(dependencies)
      if (query.issuedFrom !== undefined && query.issuedTo !== undefined && query.issuedFrom > query.issuedTo) {
        throw new ValidationError([{ path: 'issuedTo', message: 'issuedTo is before issuedFrom: the range is reversed' }])
      }
      const mode: InvoiceReadMode = query.mode ?? 'hybrid'
      const limit = Math.min(query.limit ?? defaultLimit, mode === 'strong' ? strongLimit : 50)
      const orderBy = query.orderBy ?? 'issuedBlock'
      const orderDirection = query.orderDirection ?? 'desc'
      const principal = c.get('principal')
      const binding = {
        studio: principal.studio.id,
        status: query.status,
        customerId: query.customerId?.toLowerCase(),
        payer: query.payer?.toLowerCase(),
        issuedFrom: query.issuedFrom?.toString(),
        issuedTo: query.issuedTo?.toString(),
        orderBy,
        orderDirection,
      }
      const offset = query.cursor === undefined ? 0 : reads.cursors.offsetOf(query.cursor, binding)
      const vault = vaultOf(principal, reads.chainId)
      const [indexedBlock, page] = await Promise.all([
        reads.index.indexedThrough(),
        vault
          ? reads.index.list({ merchant: vault, status: query.status, customerId: query.customerId, payer: query.payer, issuedFrom: query.issuedFrom, issuedTo: query.issuedTo, orderBy, orderDirection, offset, limit })
          : { items: [], hasNextPage: false },
      ])
      const head = mode === 'eventual' ? null : await reads.client.getBlockNumber({ cacheTime: 0 })
      const behind = head !== null && (indexedBlock === null || indexedBlock < head)
      let chainReads = 0
      const items = await Promise.all(
        page.items.map(async (row) => {
          const item = await listItemOf(reads, row)
          // a Paid or Canceled invoice never changes status again: only an Issued one can be behind
          const reread = mode === 'strong' || (mode === 'hybrid' && behind && row.status === 'Issued')
          if (!reread) return item
          chainReads++
          return withChain(item, mode === 'strong' ? await freshRead(reads.invoices, row.id) : (await reads.invoices.read(row.id)).invoice)
        }),
      )
      return {
        data: { items, page: { cursor: page.hasNextPage ? reads.cursors.after(offset + items.length, binding) : null, hasNextPage: page.hasNextPage } },
        metadata: { mode, chainId: reads.chainId, indexedBlock: indexedBlock?.toString() ?? null, headBlock: head?.toString() ?? null, chainReads },
      }
    },
  }),
  invoiceRoute({
    method: 'get',
    path: '/v1/invoices/lookup',
    summary: 'The id of an invoice, from its number and issuance year',
    description:
      "`number` is the registry's sequential number for the caller's vault or the number on the invoice's document (for one issued through this service); `year` the UTC year it was issued in. At most two candidates are read: none is a 404, two a 409 (AMBIGUOUS_INVOICE_NUMBER). Use the returned id for every other route.",
    auth: 'merchant',
    scope: 'invoice:read',
    cors: 'none',
    rateLimits: [invoicesLimit],
    query: invoiceLookupQuerySchema,
    response: { status: 200, schema: invoiceLookupResponseSchema, description: 'The invoice id.' },
    errors: [...readErrors, 'AMBIGUOUS_INVOICE_NUMBER'],
    async handle({ query }, dependencies, c) {
      const reads = readsOf(dependencies)
      const vault = vaultOf(c.get('principal'), reads.chainId)
      const found = vault ? await reads.index.lookup(vault, query.number, query.year) : []
      const [first, second] = found
      if (!first) throw new HttpError(404, 'NOT_FOUND', `no invoice numbered ${query.number} was issued in ${query.year}`)
      if (second) {
        throw new HttpError(409, 'AMBIGUOUS_INVOICE_NUMBER', `more than one invoice numbered ${query.number} was issued in ${query.year}: use the id`, {
          candidates: found.map((candidate) => candidate.id.toString()),
        })
      }
      return { data: { id: first.id.toString(), invoiceNumber: first.invoiceNumber } }
    },
  }),
  invoiceRoute({
    method: 'get',
    path: '/v1/invoices/:id',
    summary: 'One of the studio\'s invoices',
    description:
      '`mode`: eventual (the index alone: an invoice it has not yet read is a 404, tokenURI and fee figures null), hybrid (default: the chain through a read cache of a second), strong (the chain, read now: use it to reconcile after a pending write). Another studio\'s invoice is a 404.',
    auth: 'merchant',
    scope: 'invoice:read',
    cors: 'none',
    rateLimits: [invoicesLimit],
    params: invoiceIdParams,
    query: invoiceDetailQuerySchema,
    response: { status: 200, schema: invoiceDetailResponseSchema, description: 'The invoice.' },
    errors: readErrors,
    async handle({ params: { id }, query }, dependencies, c) {
      const reads = readsOf(dependencies)
      const mode: InvoiceReadMode = query.mode ?? 'hybrid'
      const vault = vaultOf(c.get('principal'), reads.chainId)
      if (!vault) throw notFound(id)
      const [row, indexedBlock] = await Promise.all([reads.index.get(vault, id), reads.index.indexedThrough()])
      const readMetadata = { mode, chainId: reads.chainId, indexedBlock: indexedBlock?.toString() ?? null }
      if (mode === 'eventual') {
        if (!row) throw notFound(id)
        const item = await listItemOf(reads, row)
        const { documentNumber, issuedBlock: _issuedBlock, customerId, refundedAmount, ...fields } = item
        return {
          data: {
            ...fields,
            tokenURI: null,
            effectiveFeeBps: null,
            txHash: row.paidTx,
            documentNumber,
            customer: await customerOf(reads, id, customerId),
            refundedAmount,
          },
          metadata: { ...readMetadata, headBlock: null, source: 'index' as const },
        }
      }
      // not yet indexed (issued a moment ago) or indexed: the chain says, for the caller's vault only
      // strong: nothing the reader kept, the chain as it is now
      if (mode === 'strong') reads.invoices.forget(id)
      const owned = await readOwnedInvoice(reads.invoices, reads.chainId, c.get('principal'), id)
      const head = await reads.client.getBlockNumber({ cacheTime: 0 })
      const refunded = owned.status !== 'Paid' ? null : mode === 'strong' || !row ? (await refundedOnChain(reads, id)).toString() : row.refundedAmount.toString()
      return {
        data: { ...owned, documentNumber: row?.documentNumber ?? null, customer: await customerOf(reads, id, row?.customerId ?? null), refundedAmount: refunded },
        metadata: { ...readMetadata, headBlock: head.toString(), source: 'chain' as const },
      }
    },
  }),
  invoiceRoute({
    method: 'get',
    path: '/v1/invoices/:id/pdf',
    summary: "The invoice's document as a PDF",
    description: "The same document the payer's share link downloads, rendered from the invoice's decrypted metadata. HMAC or a signed-in user; no scope. An invoice without metadata has no document: 404.",
    auth: 'merchant',
    cors: 'none',
    rateLimits: [invoicesLimit],
    params: invoiceIdParams,
    response: { status: 200, contentType: 'application/pdf', description: 'The PDF, as an attachment.' },
    errors: readErrors,
    async handle({ params: { id } }, dependencies, c) {
      const reads = readsOf(dependencies)
      const invoice = await readOwnedInvoice(reads.invoices, reads.chainId, c.get('principal'), id)
      const metadata = await reads.metadata.getMetadata(reads.invoiceKey(id))
      if (!metadata) throw new HttpError(404, 'NOT_FOUND', 'this invoice has no document: it was issued without encrypted metadata')
      const pdf = await invoicePdf(invoice, metadata)
      const filename = `invoice-${metadata.invoiceNumber.replace(/[^\w.-]/g, '_')}.pdf`
      return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="${filename}"`,
        'Cache-Control': 'no-store',
      })
    },
  }),
]
