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

/** A delivery's body, as Standard Webhooks shapes it (`timestamp`: the block's time). */
export type WebhookEvent =
  | { type: 'invoice.paid'; timestamp: string; data: InvoicePaidData }
  | { type: 'invoice.canceled'; timestamp: string; data: InvoiceCanceledData }

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

function eventOf(body: string): WebhookEvent {
  let event: unknown
  try {
    event = JSON.parse(body)
  } catch (error) {
    throw new WebhookVerificationError('WEBHOOK_PAYLOAD_INVALID', 'the signed body is not JSON', { cause: error })
  }
  if (!isRecord(event) || (event.type !== 'invoice.paid' && event.type !== 'invoice.canceled') || typeof event.timestamp !== 'string' || !isRecord(event.data) || typeof event.data.invoiceId !== 'string') {
    throw new WebhookVerificationError('WEBHOOK_PAYLOAD_INVALID', 'the signed body is not an invoice.paid or invoice.canceled event: update @svc-checkout/js, or ignore event types you do not know')
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
  /** Set once paid: who paid, when, and in which transaction (null when the node no longer serves
   * the log, e.g. a pruned RPC). */
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

/**
 * Reads an invoice's status from the chain, for a merchant who polls rather than receives webhooks:
 * the registry's own record, so it holds whoever served the checkout. The node must be on
 * `deployment.chainId`; another chain is an Error, never a status.
 */
export async function readInvoice({ rpcUrl, deployment, invoiceId }: ReadInvoiceParameters): Promise<ReadInvoiceReturnType> {
  const id = BigInt(invoiceId)
  const registry = getAddress(deployment.registry)
  const client = createPublicClient({ transport: http(rpcUrl) })
  const chainId = await client.getChainId()
  if (chainId !== deployment.chainId) throw new Error(`readInvoice: ${rpcUrl} serves chain ${chainId}, the deployment is on chain ${deployment.chainId}: pass an RPC of the deployment's chain`)
  let invoice
  try {
    invoice = await client.readContract({ address: registry, abi: registryAbi, functionName: 'invoices', args: [id] })
  } catch (error) {
    const reverted = error instanceof BaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : null
    if (reverted instanceof ContractFunctionRevertedError && reverted.data?.errorName === 'UnknownInvoice') return { invoiceId: id.toString(), status: 'notFound' }
    throw error
  }
  const status = statuses[invoice.status]
  if (!status || status === 'notFound') return { invoiceId: id.toString(), status: 'notFound' }
  let payment: ReadInvoiceRecord['payment'] = null
  if (status === 'paid') {
    const [log] = await client
      .getLogs({ address: registry, event: invoicePaidEvent, args: { id }, fromBlock: BigInt(deployment.registryFromBlock ?? '0'), toBlock: 'latest' })
      .catch(() => [])
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
