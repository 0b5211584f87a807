import { createPublicClient, formatUnits, http, parseUnits, type Address } from 'viem'
import { stablecoinAbi } from '../contracts/artifacts/Stablecoin'
import { signRequest } from './merchant/signRequest'
import { parseFlags, UsageError } from './usageError'
import { oauthUsage } from './oauth/oauthCommand'

export const merchantUsage = `usage: npm run merchant -- <command> [flags]
  the merchant's API from the command line, signed with the running devnet's API key (\`npm start\`;
  devnet.json in SVC_DEVNET_DIR, default .devnet)

  customer create --name <legal name> --email <email> --street <street> --city <city>
                  --postal <postal code> --country <ISO code, e.g. DE> [--registration <number>] [--person]
      a customer to invoice (an entity needs its registration number; --person for a private person)
  customer list
  invoice issue --customer <id> --amount <USDC, e.g. 250.00> [--due-days <days, default 14>]
                [--description <text>] [--send-email]
      issued on-chain by the server signer; prints the invoice's id and share link
  invoice list [--status Issued|Paid|Canceled]
  invoice share --invoice <id>     the invoice's share link, to open in a browser and pay
  invoice cancel --invoice <id>    cancels an Issued invoice on-chain (server signer)
${oauthUsage}
  --help                           prints this`

/** What the commands need of devnet.json: where the server and the chain are, and the studio's key. */
export type MerchantTarget = {
  serverUrl: string
  rpcUrl: string
  token: Address
  apiKey: { keyId: string; secret: string }
  /** Signed in with `login` to this server: the OAuth access token (refreshed as needed) is sent
   * instead of the API key's signature. */
  bearer?: () => Promise<string>
}

/** An answer the server refused: its status, code and the fields it names. */
export class MerchantCommandError extends Error {
  override name = 'MerchantCommandError'
}

type Send = (method: string, path: string, options?: { query?: Record<string, string>; body?: unknown; headers?: Record<string, string> }) => Promise<any>

/** One request signed as the project's HMAC client signs (SPEC 5.2): the bytes signed are the bytes sent. */
function signedSender(target: MerchantTarget): Send {
  return async (method, path, { query = {}, body, headers = {} } = {}) => {
    const url = new URL(path, target.serverUrl)
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
    const bytes = body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body))
    const signed = target.bearer ? { authorization: `Bearer ${await target.bearer()}` } : await signRequest({ ...target.apiKey, method, path: url.pathname, query: url.search.slice(1), body: bytes })
    const response = await fetch(url, {
      method,
      headers: { ...signed, accept: 'application/json', ...(bytes ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(bytes ? { body: bytes } : {}),
    })
    const answer: any = response.status === 204 ? null : await response.json().catch(() => null)
    if (!response.ok) {
      const fields = Array.isArray(answer?.details) ? ` (${answer.details.map((issue: { path: string; message: string }) => `${issue.path}: ${issue.message}`).join('; ')})` : ''
      throw new MerchantCommandError(`${response.status} ${answer?.code ?? answer?.error ?? 'ERROR'}: ${answer?.message ?? 'refused'}${fields}`)
    }
    return answer
  }
}

const required = (values: Record<string, unknown>, name: string, what: string): string => {
  const value = values[name]
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name}: missing: ${what}`)
  return value
}

const wholeNumber = (value: string, flag: string, what: string) => {
  if (!/^(0|[1-9]\d{0,77})$/.test(value)) throw new UsageError(`--${flag}: not ${what}, a whole number`)
  return value
}

async function tokenDecimals(target: MerchantTarget): Promise<number> {
  const client = createPublicClient({ transport: http(target.rpcUrl) })
  return Number(await client.readContract({ address: target.token, abi: stablecoinAbi, functionName: 'decimals' }))
}

/**
 * Runs one command of `npm run merchant` against `target`, and answers the lines to print. Each is
 * one merchant route, as a merchant's backend calls it: the customer and invoice routes of SPEC 4.8,
 * 4.9, 4.11, 4.12 and 4.13. Throws UsageError for a command line it cannot read, and
 * MerchantCommandError with the server's status and code for a refusal.
 */
export async function runMerchantCommand(target: MerchantTarget, argv: readonly string[]): Promise<string[]> {
  const [noun, verb, ...rest] = argv
  const send = signedSender(target)
  const command = `${noun ?? ''} ${verb ?? ''}`.trim()
  switch (command) {
    case 'customer create': {
      const values = parseFlags(rest, {
        name: { type: 'string' },
        email: { type: 'string' },
        street: { type: 'string' },
        city: { type: 'string' },
        postal: { type: 'string' },
        country: { type: 'string' },
        registration: { type: 'string' },
        person: { type: 'boolean' },
      })
      const person = values.person === true
      const body = {
        type: person ? 'person' : 'entity',
        legalName: required(values, 'name', "the customer's legal name"),
        email: required(values, 'email', 'the address its invoices are mailed to'),
        address: {
          street: required(values, 'street', 'the street line'),
          city: required(values, 'city', 'the city'),
          postal: required(values, 'postal', 'the postal code'),
          country: required(values, 'country', 'the ISO 3166 country code, e.g. DE'),
        },
        ...(typeof values.registration === 'string' ? { registrationNumber: values.registration } : {}),
      }
      const created = await send('POST', '/v1/customers', { body })
      const customer = created.data ?? created
      return [`customer ${customer.id}  ${customer.legalName} <${customer.email}>`]
    }
    case 'customer list': {
      parseFlags(rest, {})
      const listed = await send('GET', '/v1/customers')
      const items: any[] = listed.data?.items ?? listed.data ?? []
      return items.length === 0 ? ['no customers yet: npm run merchant -- customer create --help'] : items.map((customer) => `${customer.id}  ${customer.legalName} <${customer.email}>`)
    }
    case 'invoice issue': {
      const values = parseFlags(rest, { customer: { type: 'string' }, amount: { type: 'string' }, 'due-days': { type: 'string' }, description: { type: 'string' }, 'send-email': { type: 'boolean' } })
      const customerId = required(values, 'customer', 'the customer id (npm run merchant -- customer list)')
      const amountText = required(values, 'amount', 'the amount in USDC, e.g. 250.00')
      if (!/^\d+(\.\d+)?$/.test(amountText)) throw new UsageError('--amount: not an amount in USDC, such as 250 or 250.00')
      const dueDays = Number(wholeNumber(typeof values['due-days'] === 'string' ? values['due-days'] : '14', 'due-days', 'a number of days'))
      const amount = parseUnits(amountText, await tokenDecimals(target)).toString()
      const body = {
        customerId,
        amount,
        dueDays,
        ...(typeof values.description === 'string' ? { description: values.description } : {}),
        ...(values['send-email'] === true ? { sendEmail: true } : {}),
      }
      // one key per command: a retry of this process would be a new invoice, said so in the docs
      const issued = await send('POST', '/v1/invoices/issue', { body, headers: { 'idempotency-key': crypto.randomUUID() } })
      if (issued.status === 'pending') return [`sent, not yet on-chain: operation ${issued.userOpHash}; npm run merchant -- invoice list shows it once included`]
      return [
        `invoice ${issued.id} (number ${issued.invoiceNumber}) Issued, due ${new Date(Number(issued.dueAt) * 1000).toISOString().slice(0, 10)}`,
        `share link ${issued.shareLink}`,
        ...(issued.delivery ? [`mail to ${issued.delivery.to}: ${issued.delivery.status}`] : []),
      ]
    }
    case 'invoice list': {
      const values = parseFlags(rest, { status: { type: 'string' } })
      const query: Record<string, string> = {}
      if (typeof values.status === 'string') query.status = values.status
      const listed = await send('GET', '/v1/invoices', { query })
      const items: any[] = listed.data.items
      if (items.length === 0) return ['no invoices']
      return items.map((invoice) => `${invoice.id.padStart(4)}  ${(invoice.documentNumber ?? `#${invoice.invoiceNumber}`).padEnd(14)} ${formatUnits(BigInt(invoice.amount), invoice.token.decimals).padStart(12)} ${invoice.token.symbol}  ${invoice.status}`)
    }
    case 'invoice share': {
      const values = parseFlags(rest, { invoice: { type: 'string' } })
      const id = wholeNumber(required(values, 'invoice', "the invoice's id (npm run merchant -- invoice list)"), 'invoice', "the invoice's id")
      const shared = await send('GET', `/v1/invoices/${id}/share`)
      const link = shared.data?.shareLink ?? shared.shareLink
      return [link ?? `invoice ${id} has no share link to show again: npm run share-link -- --invoice ${id} makes a new one`]
    }
    case 'invoice cancel': {
      const values = parseFlags(rest, { invoice: { type: 'string' } })
      const id = wholeNumber(required(values, 'invoice', "the invoice's id (npm run merchant -- invoice list)"), 'invoice', "the invoice's id")
      const canceled = await send('POST', `/v1/invoices/${id}/cancel/submit`, { body: {} })
      return canceled.status === 'Canceled' ? [`invoice ${id} Canceled (transaction ${canceled.txHash})`] : [`cancel sent, not yet on-chain: run the same command again to follow it (operation ${canceled.userOpHash})`]
    }
    default:
      throw new UsageError(command ? `${command}: not a command` : 'which command?')
  }
}
