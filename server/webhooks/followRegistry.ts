import { getAddress, zeroAddress, zeroHash, type AbiEvent, type Address, type Hex, type PublicClient } from 'viem'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import type { Deployment } from '../../shared/deployment'
import { invoiceStatusOf } from '../../shared/invoiceStatus'
import { revertName } from '../chain/chainErrors'
import type { ChainRecord, IndexedEvent, InvoiceIndex } from '../merchant/invoices/invoiceIndex'
import type { WebhookEvent } from '../../shared/webhookWire'
import type { Logger } from '../http/logger'
import type { Metrics } from '../ops/metrics'
import type { NewWebhookEvent, WebhookOutbox } from '../store/webhookOutbox'

export type RegistryFollowerDependencies = {
  client: PublicClient
  deployment: Pick<Deployment, 'chainId' | 'registry'>
  outbox: Pick<WebhookOutbox, 'readCursor' | 'wantedEvents' | 'advance'>
  logger: Logger
  metrics: Pick<Metrics, 'webhookEvents' | 'webhookReorgs'>
  /** The invoice index (migration 14), kept by the same pass: absent, the pass serves webhooks only. */
  index?: Pick<InvoiceIndex, 'apply' | 'changedBlocks' | 'changedAfter' | 'restore'> | undefined
}

export type RegistryFollowerParameters = {
  /** REGISTRY_FROM_BLOCK: where reading starts on a database that has never read. */
  fromBlock: bigint
  /** WEBHOOK_CONFIRMATIONS: a block is read once it is this deep (1: the head itself). */
  confirmations: number
  intervalMs: number
  /** Blocks per log query: the bound most RPC providers put on eth_getLogs. */
  maxBlocksPerPass?: number
}

const invoiceEvents = ['InvoiceIssued', 'InvoicePaid', 'InvoiceCanceled', 'InvoiceRefunded']

const followedEvents = invoiceRegistryAbi.filter(
  (item): item is Extract<(typeof invoiceRegistryAbi)[number], { type: 'event' }> => item.type === 'event' && invoiceEvents.includes(item.name),
) as unknown as AbiEvent[]

type RegistryLog = {
  eventName: 'InvoiceIssued' | 'InvoicePaid' | 'InvoiceCanceled' | 'InvoiceRefunded'
  args: Record<string, unknown>
  transactionHash: Hex
  logIndex: number
  blockNumber: bigint
  blockHash: Hex
  /** Most nodes (anvil, geth, reth) send the block's time with each log; where one does not, the block is read. */
  blockTimestamp?: bigint | undefined
}
type WebhookLog = RegistryLog & { eventName: 'InvoicePaid' | 'InvoiceCanceled' | 'InvoiceRefunded' }

const isWebhookLog = (log: RegistryLog): log is WebhookLog => log.eventName !== 'InvoiceIssued'
const webhookTypes = { InvoicePaid: 'invoice.paid', InvoiceCanceled: 'invoice.canceled', InvoiceRefunded: 'invoice.refunded' } as const
const typeOf = (log: WebhookLog) => webhookTypes[log.eventName]
/** How many blocks rows last changed in a deep reorganisation's repair checks for one both branches share. */
const sharedBlockSearch = 256

/**
 * Reads the registry's InvoicePaid and InvoiceCanceled logs from the cursor up to the deepest block
 * with the confirmations asked for, and enqueues them (server/store/webhookOutbox.ts). Returns how
 * many events were new, and whether more blocks wait to be read. Every instance may run it at once:
 * the cursor moves only from where it was read, and an event is keyed by its log's place, so each is
 * enqueued once.
 *
 * Both events index the merchant, so a log no endpoint asked for costs no call beyond eth_getLogs: on
 * a busy registry most payments are other merchants'. The chain is read further only for the events
 * kept: their blocks' times, and a payment's token (the invoice's, read at the latest block, where a
 * node that keeps no history still answers). A reorganisation while the range is read leaves the
 * cursor where it was.
 */
export async function followRegistryOnce(dependencies: RegistryFollowerDependencies, parameters: RegistryFollowerParameters): Promise<{ enqueued: number; behind: boolean }> {
  const { client, deployment, outbox, logger, metrics, index } = dependencies
  const cursor = await outbox.readCursor(parameters.fromBlock)
  let reorganised = false
  // one head read: the range and its last block follow from it
  const head = await client.getBlockNumber({ cacheTime: 0 })
  const deepest = head - BigInt(Math.max(1, parameters.confirmations) - 1)
  if (cursor.nextBlock > deepest) return { enqueued: 0, behind: false }
  if (cursor.lastBlockHash && cursor.nextBlock > 0n) {
    const lastRead = await client.getBlock({ blockNumber: cursor.nextBlock - 1n })
    if (lastRead.hash !== cursor.lastBlockHash) {
      reorganised = true
      // Events already sent from the replaced blocks may not be on the chain any more, and the new
      // blocks' events below the cursor are not read: an operator decides, nothing is sent twice.
      metrics.webhookReorgs.inc()
      logger.error(
        { code: 'WEBHOOK_REORG', blockNumber: (cursor.nextBlock - 1n).toString(), readHash: cursor.lastBlockHash, nowHash: lastRead.hash, confirmations: parameters.confirmations },
        'webhooks: a block already read was replaced (a reorganisation deeper than WEBHOOK_CONFIRMATIONS): check the events sent from it, and raise WEBHOOK_CONFIRMATIONS',
      )
    }
  }
  const from = cursor.nextBlock
  const rangeEnd = from + BigInt(parameters.maxBlocksPerPass ?? 1_000) - 1n
  const to = rangeEnd < deepest ? rangeEnd : deepest
  // The range's last block is read by number before its logs and again before the range is recorded:
  // the same hash both times means the logs are that chain's (a block's hash fixes every block below
  // it), and it is that hash the cursor keeps for the next pass's check.
  const { hash: toHash } = await client.getBlock({ blockNumber: to })
  const readLogs = async (fromBlock: bigint, toBlock: bigint) =>
    (await client.getLogs({ address: deployment.registry, events: followedEvents, fromBlock, toBlock, strict: true })) as unknown as RegistryLog[]
  // Unlike a webhook, a row of the index can be put right after a reorganisation deeper than the
  // confirmations: the rows whose block is gone are read again from the chain, and the logs from the
  // last block both branches share are applied once more.
  const repair = reorganised && index ? await repairOf(client, deployment, index, { below: cursor.nextBlock, fromBlock: parameters.fromBlock, at: to }) : undefined
  const logs = await readLogs(from, to)
  const earlierLogs = repair && repair.since.block + 1n < from ? await readLogs(repair.since.block + 1n, from - 1n) : []
  const webhookLogs = logs.filter(isWebhookLog)
  // Asked after the logs were read: an endpoint registered later than this came after their blocks.
  const wanted = await outbox.wantedEvents(webhookLogs.map((log) => log.args.merchant as Address))
  const kept = webhookLogs.filter((log) => wanted.get((log.args.merchant as string).toLowerCase())?.has(typeOf(log)))
  const blocks = new Map<bigint, Promise<{ hash: Hex; timestamp: bigint }>>()
  const block = (blockNumber: bigint) => {
    let read = blocks.get(blockNumber)
    if (!read) blocks.set(blockNumber, (read = client.getBlock({ blockNumber }).then(({ hash, timestamp }) => ({ hash, timestamp }))))
    return read
  }
  const events: NewWebhookEvent[] = []
  let moved = false
  for (const log of kept) {
    const { hash, timestamp } = await block(log.blockNumber)
    if (hash !== log.blockHash) {
      moved = true
      break
    }
    events.push(await eventOf(client, deployment, log, new Date(Number(timestamp) * 1000).toISOString()))
  }
  const indexed: IndexedEvent[] = []
  for (const log of index && !moved ? [...earlierLogs, ...logs] : []) {
    let blockTime = log.blockTimestamp
    if (blockTime === undefined) {
      const { hash, timestamp } = await block(log.blockNumber)
      if (hash !== log.blockHash) {
        moved = true
        break
      }
      blockTime = timestamp
    }
    indexed.push(indexedEventOf(log, blockTime))
  }
  const { hash: toHashNow } = await client.getBlock({ blockNumber: to })
  if (moved || toHashNow !== toHash) {
    // reorganised while this pass read: nothing of it is kept, and the next pass reads the range anew
    logger.info({ code: 'WEBHOOK_RANGE_REREAD', blockNumber: to.toString(), readHash: toHash, nowHash: toHashNow }, 'webhooks: the chain changed while its logs were read; they are read again')
    return { enqueued: 0, behind: false }
  }
  const alsoRecord = index
    ? async (tx: Parameters<InvoiceIndex['apply']>[0]) => {
        for (const [id, record] of repair?.records ?? []) await index.restore(tx, id, record, repair!.since)
        await index.apply(tx, indexed)
      }
    : undefined
  const inserted = (await outbox.advance({ from, to, toHash, events, ...(alsoRecord ? { alsoRecord } : {}) })) ?? []
  for (const { event } of inserted) metrics.webhookEvents.inc({ type: event.type })
  return { enqueued: inserted.length, behind: to < deepest }
}

function indexedEventOf(log: RegistryLog, blockTime: bigint): IndexedEvent {
  const place = { id: log.args.id as bigint, block: log.blockNumber, blockHash: log.blockHash, blockTime, txHash: log.transactionHash }
  switch (log.eventName) {
    case 'InvoiceIssued': {
      const args = log.args as { merchant: string; token: string; amount: bigint; invoiceNumber: bigint; dueAt: bigint; metaHash: Hex }
      return { ...place, kind: 'issued', merchant: getAddress(args.merchant), token: getAddress(args.token), amount: args.amount, invoiceNumber: args.invoiceNumber, dueAt: args.dueAt, metaHash: args.metaHash }
    }
    case 'InvoicePaid': {
      const args = log.args as { payer: string; fee: bigint; net: bigint; feeBps: number }
      return { ...place, kind: 'paid', payer: getAddress(args.payer), fee: args.fee, net: args.net, feeBps: Number(args.feeBps) }
    }
    case 'InvoiceCanceled':
      return { ...place, kind: 'canceled' }
    case 'InvoiceRefunded':
      return { ...place, kind: 'refunded', refundedTotal: (log.args as { refundedTotal: bigint }).refundedTotal }
  }
}

/**
 * After a reorganisation deeper than the confirmations: the last block a row changed in that the
 * chain still has (`since`; the registry's first block less one when none is), and, for each row
 * changed after it, the chain's record of the invoice as of `at` (null: gone with the old branch).
 */
async function repairOf(
  client: PublicClient,
  deployment: RegistryFollowerDependencies['deployment'],
  index: NonNullable<RegistryFollowerDependencies['index']>,
  { below, fromBlock, at }: { below: bigint; fromBlock: bigint; at: bigint },
): Promise<{ since: { block: bigint; hash: Hex }; records: [bigint, ChainRecord | null][] }> {
  let since = { block: fromBlock > 0n ? fromBlock - 1n : 0n, hash: zeroHash as Hex }
  for (const changed of await index.changedBlocks(below, sharedBlockSearch)) {
    const { hash } = await client.getBlock({ blockNumber: changed.block })
    if (hash === changed.hash) {
      since = changed
      break
    }
  }
  const ids = await index.changedAfter(since.block)
  const records = await Promise.all(ids.map(async (id): Promise<[bigint, ChainRecord | null]> => [id, await chainRecordOf(client, deployment, id, at)]))
  return { since, records }
}

async function chainRecordOf(client: PublicClient, deployment: RegistryFollowerDependencies['deployment'], id: bigint, blockNumber: bigint): Promise<ChainRecord | null> {
  const registry = { address: deployment.registry, abi: invoiceRegistryAbi } as const
  try {
    const [stored, refunded] = await Promise.all([
      client.readContract({ ...registry, functionName: 'invoices', args: [id], blockNumber }),
      client.readContract({ ...registry, functionName: 'refundedAmount', args: [id], blockNumber }),
    ])
    const status = invoiceStatusOf(stored.status)
    if (!status) return null
    return {
      merchant: getAddress(stored.merchant),
      status,
      invoiceNumber: stored.invoiceNumber,
      token: getAddress(stored.token),
      issuedAt: stored.issuedAt,
      payer: stored.payer === zeroAddress ? null : getAddress(stored.payer),
      dueAt: stored.dueAt,
      paidAt: stored.paidAt === 0n ? null : stored.paidAt,
      amount: stored.amount,
      metaHash: stored.metaHash,
      refunded,
    }
  } catch (error) {
    if (revertName(error) === 'UnknownInvoice') return null
    throw error
  }
}

async function eventOf(client: PublicClient, deployment: RegistryFollowerDependencies['deployment'], log: WebhookLog, blockTime: string): Promise<NewWebhookEvent> {
  const id = log.args.id as bigint
  const merchant = getAddress(log.args.merchant as string)
  const invoice = { chainId: deployment.chainId, registry: getAddress(deployment.registry), invoiceId: id.toString(), merchant }
  const place = { txHash: log.transactionHash, logIndex: log.logIndex, blockNumber: log.blockNumber.toString(), blockTime }
  let event: WebhookEvent
  // built in the order docs/webhooks.md shows: the body is sent exactly as serialized here
  if (log.eventName === 'InvoicePaid') {
    // The log names no token: the invoice does, and never changes it, so the latest state says the
    // same as the log's block did.
    const read = await client.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] })
    const { payer, gross, fee, net, feeBps } = log.args as { payer: string; gross: bigint; fee: bigint; net: bigint; feeBps: number }
    event = {
      type: 'invoice.paid',
      timestamp: blockTime,
      data: { ...invoice, payer: getAddress(payer), token: getAddress(read.token), amount: gross.toString(), fee: fee.toString(), net: net.toString(), feeBps: Number(feeBps), ...place },
    }
  } else if (log.eventName === 'InvoiceRefunded') {
    // as for a payment: the log names no token, the invoice's never changes
    const read = await client.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] })
    const { payer, amount, refundedTotal } = log.args as { payer: string; amount: bigint; refundedTotal: bigint }
    event = {
      type: 'invoice.refunded',
      timestamp: blockTime,
      data: { ...invoice, payer: getAddress(payer), token: getAddress(read.token), amount: amount.toString(), refundedTotal: refundedTotal.toString(), ...place },
    }
  } else {
    event = { type: 'invoice.canceled', timestamp: blockTime, data: { ...invoice, ...place } }
  }
  return { txHash: log.transactionHash, logIndex: log.logIndex, blockNumber: log.blockNumber, merchant, event }
}

/** One loop per instance, like the reconciler's; `stop` waits for the pass under way. */
export function startRegistryFollower(dependencies: RegistryFollowerDependencies, parameters: RegistryFollowerParameters) {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let pass: Promise<unknown> = Promise.resolve()
  const schedule = (delayMs: number) => {
    timer = setTimeout(() => {
      pass = followRegistryOnce(dependencies, parameters)
        .catch((error: unknown) => {
          dependencies.logger.warn({ error: error instanceof Error ? error.name : 'unknown' }, 'webhooks: reading the registry failed, tried again shortly')
          return { behind: false }
        })
        .then(({ behind }) => {
          // a long way behind (a first start from an old REGISTRY_FROM_BLOCK): the next range at once
          if (!stopped) schedule(behind ? 0 : parameters.intervalMs)
        })
    }, delayMs)
  }
  schedule(0)
  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await pass
    },
  }
}
