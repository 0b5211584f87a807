// The server entry, for a merchant's backend (Node 20.19+ or any runtime with fetch and WebCrypto's
// TextDecoder): verify a webhook before acting on it, or read an invoice from the chain.
import { Webhook, WebhookVerificationError as LibraryVerificationError } from 'standardwebhooks'
import { BaseError, ContractFunctionRevertedError, createPublicClient, getAddress, http, parseAbi, parseAbiItem, type Address, type Hex } from 'viem'

/** Where an event happened on the chain: every event's data carries it. Amounts and block numbers
 * are decimal strings (the token's smallest unit), addresses checksummed, times ISO 8601. */
export type OnChainEventData = {
  chainId: number
  registry: string
  invoiceId: string
  merchant: string
  txHash: string
  logIndex: number
  blockNumber: string
  blockTime: string
}

/** The registry's InvoicePaid, with the invoice's token. */
export type InvoicePaidData = OnChainEventData & { payer: string; token: string; amount: string; fee: string; net: string; feeBps: number }
export type InvoiceCanceledData = OnChainEventData
/** `amount` went back to `payer`; `refundedTotal` is all refunded of the invoice so far, this refund included. */
export type InvoiceRefundedData = OnChainEventData & { payer: string; token: string; amount: string; refundedTotal: string }

/** A delivery's body, as Standard Webhooks shapes it (`timestamp`: the block's time). */
export type WebhookEvent =
  | { type: 'invoice.paid'; timestamp: string; data: InvoicePaidData }
  | { type: 'invoice.canceled'; timestamp: string; data: InvoiceCanceledData }
  | { type: 'invoice.refunded'; timestamp: string; data: InvoiceRefundedData }

export type WebhookVerificationCode = 'WEBHOOK_HEADERS_MISSING' | 'WEBHOOK_TIMESTAMP_OUT_OF_RANGE' | 'WEBHOOK_SIGNATURE_MISMATCH' | 'WEBHOOK_PAYLOAD_INVALID'

/** Thrown by `verifyWebhook`: answer the delivery with a 4xx and act on nothing in it. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError'
  constructor(
    readonly code: WebhookVerificationCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/** Request headers in any of the shapes servers hand them over: a fetch `Headers`, Node's
 * `IncomingHttpHeaders`, or a plain record. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>

const headerNames = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const

function standardHeaders(headers: WebhookHeaders): Record<string, string> {
  const read = (name: string): string | undefined => {
    if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined
    const record = headers as Record<string, string | string[] | undefined>
    const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name)
    const value = key === undefined ? undefined : record[key]
    return Array.isArray(value) ? value.join(' ') : value
  }
  const found: Record<string, string> = {}
  for (const name of headerNames) {
    const value = read(name)
    if (!value) throw new WebhookVerificationError('WEBHOOK_HEADERS_MISSING', `the request has no ${name} header: it is not a svc-checkout webhook delivery`)
    found[name] = value
  }
  return found
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

/**
 * Verifies a webhook delivery and returns its event, or throws a `WebhookVerificationError`:
 * headers missing, a timestamp more than 5 minutes from now (a replay), or a signature that no
 * given secret made (a changed body, a wrong or rotated-out secret). `payload` is the raw request
 * body, exactly as received: a body parsed and serialised again no longer matches its signature.
 * `secret` is the endpoint's `whsec_…`; during a rotation pass both, newest first.
 */
export function verifyWebhook(payload: string | Uint8Array, headers: WebhookHeaders, secret: string | readonly string[]): WebhookEvent {
  if (typeof payload !== 'string' && !(payload instanceof Uint8Array)) {
    throw new TypeError('verifyWebhook: pass the raw request body (a string or bytes), not a parsed object: its signature covers the exact bytes sent')
  }
  const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload)
  const standard = standardHeaders(headers)
  const secrets = typeof secret === 'string' ? [secret] : secret
  if (secrets.length === 0) throw new TypeError('verifyWebhook: pass the endpoint\'s secret (whsec_…)')
  let failure: unknown
  for (const candidate of secrets) {
    try {
      new Webhook(candidate).verify(body, standard, { jsonParse: false })
      return eventOf(body)
    } catch (error) {
      if (!(error instanceof LibraryVerificationError)) throw error
      failure = error
      // a timestamp out of range is out of range under every secret
      if (/timestamp|Signature Headers/i.test(error.message)) break
    }
  }
  const message = failure instanceof Error ? failure.message : ''
  if (/timestamp too/i.test(message)) {
    throw new WebhookVerificationError('WEBHOOK_TIMESTAMP_OUT_OF_RANGE', `the delivery's webhook-timestamp (${standard['webhook-timestamp']}) is more than 5 minutes from this server's clock: a replayed delivery, or a clock that is off`, { cause: failure })
  }
  if (/Signature Headers/i.test(message)) {
    throw new WebhookVerificationError('WEBHOOK_HEADERS_MISSING', `the delivery's webhook-timestamp is not a number of seconds`, { cause: failure })
  }
  throw new WebhookVerificationError(
    'WEBHOOK_SIGNATURE_MISMATCH',
    'no webhook-signature matches this body under the given secret: the body was changed on the way, or the secret is not this endpoint\'s current one (after a rotation the old secret signs for 24 hours only)',
    { cause: failure },
  )
}

const eventTypes: readonly string[] = ['invoice.paid', 'invoice.canceled', 'invoice.refunded'] satisfies WebhookEvent['type'][]

function eventOf(body: string): WebhookEvent {
  let event: unknown
  try {
    event = JSON.parse(body)
  } catch (error) {
    throw new WebhookVerificationError('WEBHOOK_PAYLOAD_INVALID', 'the signed body is not JSON', { cause: error })
  }
  if (!isRecord(event) || !eventTypes.includes(event.type as string) || typeof event.timestamp !== 'string' || !isRecord(event.data) || typeof event.data.invoiceId !== 'string') {
    throw new WebhookVerificationError('WEBHOOK_PAYLOAD_INVALID', 'the signed body is not an invoice.paid, invoice.canceled or invoice.refunded event: update @svc-checkout/js, or ignore event types you do not know')
  }
  return event as WebhookEvent
}

/** The registry's status of an invoice. `notFound`: no invoice has this id on this registry. */
export type InvoiceStatus = 'notFound' | 'open' | 'paid' | 'canceled'

export type ReadInvoiceParameters = {
  /** A JSON-RPC endpoint of the deployment's chain. */
  rpcUrl: string
  /** The deployment file `npm run deploy` wrote (or `devnet.json`'s `contracts` with its `chainId`):
   * only `chainId`, `registry` and, to find the payment, `registryFromBlock` are read. */
  deployment: { chainId: number; registry: string; registryFromBlock?: string }
  invoiceId: string | bigint
  /** The first block searched for a paid invoice's `InvoicePaid` log; `deployment.registryFromBlock`
   * (the registry's deployment block) by default. One of the two is required: a search from block 0
   * is a range public RPCs refuse (pass 0 on a devnet only). */
  fromBlock?: bigint | number | string
}

export type ReadInvoiceReturnType = { invoiceId: string; status: 'notFound' } | ReadInvoiceRecord

export type ReadInvoiceRecord = {
  invoiceId: string
  status: Exclude<InvoiceStatus, 'notFound'>
  merchant: Address
  token: Address
  /** The token's smallest unit, as a decimal string. */
  amount: string
  /** ISO 8601. */
  dueAt: string
  metaHash: Hex
  /** Set once paid: who paid, when, and in which transaction. `txHash`, `blockNumber`, `fee` and
   * `net` come from the `InvoicePaid` log, and are null when the search found none: a `fromBlock`
   * after the payment, or a node that no longer serves the log. */
  payment: { payer: Address; paidAt: string; txHash: Hex | null; blockNumber: string | null; fee: string | null; net: string | null } | null
}

const registryAbi = parseAbi([
  'struct Invoice { address merchant; uint8 status; uint64 invoiceNumber; address token; uint64 issuedAt; address payer; uint64 dueAt; uint64 paidAt; uint256 amount; bytes32 metaHash; }',
  'function invoices(uint256 id) view returns (Invoice)',
  'error UnknownInvoice(uint256 id)',
])
const invoicePaidEvent = parseAbiItem('event InvoicePaid(uint256 indexed id, address indexed payer, address indexed merchant, uint256 gross, uint256 fee, uint256 net, uint16 feeBps)')
const statuses = ['notFound', 'open', 'paid', 'canceled'] as const
const iso = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString()

/** The RPC as an error names it: by its host, never its whole URL (a provider's key may be in it). */
function rpcName(rpcUrl: string): string {
  try {
    return `the RPC at ${new URL(rpcUrl).host}`
  } catch {
    return 'the RPC'
  }
}

/** An RPC call that failed, as an Error saying which, in the node's own words (viem's `details`,
 * after the HTTP status where it answered one), the whole error as its cause. */
function rpcFailure(rpc: string, what: string, error: unknown, advice = ''): Error {
  let reason = String(error)
  if (error instanceof BaseError) {
    const status = (error.walk((cause) => typeof (cause as { status?: unknown }).status === 'number') as { status?: number } | null)?.status
    reason = `${status ? `HTTP ${status} ` : ''}${error.details || error.shortMessage}`
  }
  return new Error(`readInvoice: ${rpc} failed to ${what}: ${reason}${advice}`, { cause: error })
}

/**
 * Reads an invoice's status from the chain, for a merchant who polls rather than receives webhooks:
 * the registry's own record, so it holds whoever served the checkout. The node must be on
 * `deployment.chainId`; another chain is an Error, never a status, and so is an RPC that fails any
 * call (a paid invoice's log search too): nothing it could not read is reported as unpaid.
 */
export async function readInvoice({ rpcUrl, deployment, invoiceId, fromBlock = deployment.registryFromBlock }: ReadInvoiceParameters): Promise<ReadInvoiceReturnType> {
  if (fromBlock === undefined) {
    throw new TypeError(
      "readInvoice: pass fromBlock, or a deployment with registryFromBlock (the deployment file `npm run deploy` writes has it): a paid invoice's InvoicePaid log is searched for from there, and public RPCs refuse a search from block 0",
    )
  }
  const from = BigInt(fromBlock)
  const id = BigInt(invoiceId)
  const registry = getAddress(deployment.registry)
  const client = createPublicClient({ transport: http(rpcUrl) })
  const rpc = rpcName(rpcUrl)
  const chainId = await client.getChainId().catch((error: unknown) => {
    throw rpcFailure(rpc, 'answer eth_chainId', error)
  })
  if (chainId !== deployment.chainId) throw new Error(`readInvoice: ${rpc} serves chain ${chainId}, the deployment is on chain ${deployment.chainId}: pass an RPC of the deployment's chain`)
  let invoice
  try {
    invoice = await client.readContract({ address: registry, abi: registryAbi, functionName: 'invoices', args: [id] })
  } catch (error) {
    const reverted = error instanceof BaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : null
    if (reverted instanceof ContractFunctionRevertedError && reverted.data?.errorName === 'UnknownInvoice') return { invoiceId: id.toString(), status: 'notFound' }
    throw rpcFailure(rpc, `read invoice ${id} from the registry ${registry}`, error)
  }
  const status = statuses[invoice.status]
  if (!status || status === 'notFound') return { invoiceId: id.toString(), status: 'notFound' }
  let payment: ReadInvoiceRecord['payment'] = null
  if (status === 'paid') {
    const [log] = await client.getLogs({ address: registry, event: invoicePaidEvent, args: { id }, fromBlock: from, toBlock: 'latest' }).catch((error: unknown) => {
      throw rpcFailure(
        rpc,
        `search blocks ${from} to latest for invoice ${id}'s InvoicePaid log`,
        error,
        ". Pass the registry's deployment block as fromBlock if it is later, or use an RPC that serves eth_getLogs over this range",
      )
    })
    payment = {
      payer: invoice.payer,
      paidAt: iso(invoice.paidAt),
      txHash: log?.transactionHash ?? null,
      blockNumber: log?.blockNumber?.toString() ?? null,
      fee: log?.args.fee?.toString() ?? null,
      net: log?.args.net?.toString() ?? null,
    }
  }
  return {
    invoiceId: id.toString(),
    status,
    merchant: invoice.merchant,
    token: invoice.token,
    amount: invoice.amount.toString(),
    dueAt: iso(invoice.dueAt),
    metaHash: invoice.metaHash,
    payment,
  }
}
