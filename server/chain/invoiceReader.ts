import { CodedError } from '../../shared/codedError'
import type { Address, Hex, PublicClient } from 'viem'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import type { Deployment } from '../../shared/deployment'
import { invoiceStatusOf } from '../../shared/invoiceStatus'
import type { WireInvoice } from '../../shared/wire'
import { ChainUnavailableError, revertName } from './chainErrors'

const zeroAddress = '0x0000000000000000000000000000000000000000'

export class InvoiceNotFoundError extends CodedError {
  override name = 'InvoiceNotFoundError'
  readonly code = 'INVOICE_NOT_FOUND'
}

export type InvoiceRead = { invoice: WireInvoice; blockNumber: bigint }

export type InvoiceReader = {
  read(id: bigint): Promise<InvoiceRead>
  /** Drops what is cached for an invoice, after we changed it ourselves. */
  forget(id: bigint): void
}

type TokenInfo = { symbol: string; decimals: number }

const maxCached = 10_000
/** Unknown ids remembered at most: anyone can ask for any id, so the most recent misses only. */
const maxUnknown = 10_000

/**
 * Reads invoices from the registry. An Issued invoice is cached for `issuedTtlMs` (it can change at
 * any block); Paid and Canceled are terminal, so they are cached for good. Concurrent reads of one
 * invoice share one round of RPC calls.
 *
 * So an invoice paid elsewhere shows as Issued for at most `issuedTtlMs` (one second) after the
 * paying block, plus one read's round trip: on GET /v1/pay/:id, the share page and its first paint,
 * which all read through here. That is the staleness allowed: the widget reads the registry itself
 * before it shows an invoice as payable, and the registry refuses to settle an invoice twice, so a
 * stale Issued can cost a payer a refused attempt, never a second payment. A payment made through
 * this server is seen at once: submit and the reconciler `forget` the invoice.
 *
 * An id the registry does not know is remembered as unknown for `unknownTtlMs` (five seconds): a
 * client asking for ids that do not exist costs one chain read per id and period, not one per request.
 * An invoice issued meanwhile is found once the period ends. The widget reads the registry itself, so
 * a remembered miss can delay a page by seconds, never make it show a wrong invoice.
 */
export function createInvoiceReader({
  client,
  deployment,
  fromBlock = 0n,
  issuedTtlMs = 1_000,
  unknownTtlMs = 5_000,
  now = Date.now,
}: {
  client: PublicClient
  deployment: Deployment
  fromBlock?: bigint
  issuedTtlMs?: number
  unknownTtlMs?: number
  now?: () => number
}): InvoiceReader {
  const cache = new Map<string, { read: InvoiceRead; at: number }>()
  const unknown = new Map<string, { error: InvoiceNotFoundError; at: number }>()
  const inFlight = new Map<string, Promise<InvoiceRead>>()
  const tokens = new Map<Address, Promise<TokenInfo>>()
  const registry = { address: deployment.registry, abi: invoiceRegistryAbi } as const

  function tokenInfo(address: Address): Promise<TokenInfo> {
    let info = tokens.get(address)
    if (!info) {
      info = Promise.all([
        client.readContract({ address, abi: stablecoinAbi, functionName: 'symbol' }),
        client.readContract({ address, abi: stablecoinAbi, functionName: 'decimals' }),
      ]).then(([symbol, decimals]) => ({ symbol, decimals }))
      info.catch(() => tokens.delete(address))
      tokens.set(address, info)
    }
    return info
  }

  async function settlement(id: bigint) {
    const [event] = await client.getContractEvents({ ...registry, eventName: 'InvoicePaid', args: { id }, fromBlock, strict: true })
    return event ? { fee: event.args.fee, feeBps: event.args.feeBps, txHash: event.transactionHash as Hex } : undefined
  }

  async function fetchInvoice(id: bigint): Promise<InvoiceRead> {
    const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
    let stored
    try {
      stored = await client.readContract({ ...registry, functionName: 'invoices', args: [id], blockNumber })
    } catch (error) {
      if (revertName(error) === 'UnknownInvoice') throw new InvoiceNotFoundError(`invoice ${id} does not exist`)
      throw error
    }
    const status = invoiceStatusOf(stored.status)
    if (!status) throw new InvoiceNotFoundError(`invoice ${id} does not exist`)
    const [token, tokenURI, feeOverride, settled] = await Promise.all([
      tokenInfo(stored.token),
      client.readContract({ ...registry, functionName: 'tokenURI', args: [id], blockNumber }),
      status === 'Issued'
        ? client.readContract({ ...registry, functionName: 'feeOverrideBps', args: [stored.merchant], blockNumber })
        : null,
      status === 'Paid' ? settlement(id) : undefined,
    ])
    const invoice: WireInvoice = {
      id: id.toString(),
      invoiceNumber: stored.invoiceNumber.toString(),
      merchant: stored.merchant,
      agent: null,
      payer: stored.payer === zeroAddress ? null : stored.payer,
      token: { address: stored.token, ...token },
      amount: stored.amount.toString(),
      status,
      metaHash: stored.metaHash,
      tokenURI,
      issuedAt: stored.issuedAt.toString(),
      dueAt: stored.dueAt.toString(),
      paidAt: stored.paidAt === 0n ? null : stored.paidAt.toString(),
      effectiveFeeBps: feeOverride,
      settledFee: settled ? settled.fee.toString() : null,
      settledFeeBps: settled ? settled.feeBps : null,
      txHash: settled ? settled.txHash : null,
    }
    return { invoice, blockNumber }
  }

  return {
    async read(id) {
      const key = id.toString()
      const cached = cache.get(key)
      if (cached && (cached.read.invoice.status !== 'Issued' || now() - cached.at < issuedTtlMs)) return cached.read
      const missed = unknown.get(key)
      if (missed) {
        if (now() - missed.at < unknownTtlMs) throw missed.error
        unknown.delete(key)
      }
      let pending = inFlight.get(key)
      if (!pending) {
        const read: Promise<InvoiceRead> = fetchInvoice(id)
          .then((fetched) => {
            // forgotten while under way: it may predate the change, so it answers its callers only
            if (inFlight.get(key) !== read) return fetched
            // ids are unbounded: keep the most recent reads only (Map iterates oldest first)
            if (cache.size >= maxCached) cache.delete(cache.keys().next().value!)
            cache.set(key, { read: fetched, at: now() })
            return fetched
          })
          .catch((error: unknown) => {
            if (error instanceof InvoiceNotFoundError) {
              if (inFlight.get(key) === read && unknownTtlMs > 0) {
                if (unknown.size >= maxUnknown) unknown.delete(unknown.keys().next().value!)
                unknown.set(key, { error, at: now() })
              }
              throw error
            }
            throw new ChainUnavailableError('the chain did not answer', { cause: error })
          })
          .finally(() => {
            if (inFlight.get(key) === read) inFlight.delete(key)
          })
        inFlight.set(key, read)
        pending = read
      }
      return pending
    },
    forget(id) {
      const key = id.toString()
      cache.delete(key)
      unknown.delete(key)
      // a read already under way may have begun before the change: the next caller starts its own
      inFlight.delete(key)
    },
  }
}
