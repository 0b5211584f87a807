import { createPublicClient, formatUnits, http, parseUnits, type Address } from 'viem'
import { stablecoinAbi } from '../contracts/artifacts/Stablecoin'
import { signRequest } from './merchant/signRequest'
import { parseFlags, UsageError } from './usageError'
import { oauthUsage } from './oauth/oauthCommand'
import type { TokenInfo } from './oauth/oauthSession'

export const merchantUsage = `usage: npm run merchant -- <command> [flags]   (or, linked with npm link, svc <command> [flags])
  the merchant's API from the command line. Signed in with \`login\`, the commands send that
  sign-in's OAuth token (what you approved, and no more); otherwise they sign with the running
  devnet's API key (\`npm start\`; devnet.json in SVC_DEVNET_DIR, default .devnet). Without a devnet
  they go to the server of \`login --server\`. Payments are always read with the devnet's API key:
  the API keeps them from OAuth sign-ins (SPEC 5.6).
  --json on every read prints the server's answer as JSON instead of lines.

  customers create --name <legal name> --email <email> --street <street> --city <city>
                   --postal <postal code> --country <ISO code, e.g. DE> [--registration <number>] [--person]
      a customer to invoice (an entity needs its registration number; --person for a private person)
  customers list [--search <text>] [--json]
  invoices issue --customer <id> --amount <USDC, e.g. 250.00> [--due-days <days, default 14>]
                 [--description <text>] [--send-email] [--json]
      issued on-chain by the server signer; prints the invoice's id and share link
  invoices list [--status Issued|Paid|Canceled] [--json]
  invoices get --invoice <id> [--json]      one invoice: status, amount, customer, dates
  invoices share --invoice <id> [--json]    the invoice's share link, to open in a browser and pay
  invoices cancel --invoice <id>            cancels an Issued invoice on-chain (server signer)
  payments list [--json]                    payments received, latest first
  payments export --from <YYYY-MM-DD> --to <YYYY-MM-DD> [--format csv|json]
      the payments received in those days (UTC, inclusive), printed as CSV or JSON
  (customer, invoice and payment work as well as the plural)
${oauthUsage}
  --help                           prints this

exit codes: 0 done; 1 the server refused (its status, code, the fields and what to do are printed);
2 the command line is not understood (what is wrong, then this usage)`

/** What the commands need of devnet.json: where the server and the chain are, and the studio's key. */
export type MerchantTarget = {
  serverUrl: string
  /** The chain and token devnet.json names; absent against another server, where the server says
   * the token's decimals (GET /oauth/token-info when signed in, else GET /v1/studios/me/balance). */
  chain?: { rpcUrl: string; token: Address }
  /** The devnet's API key; absent against another server, where only the sign-in is there. */
  apiKey?: { keyId: string; secret: string }
  /** Signed in with `login` to this server: the OAuth access token (refreshed as needed) is sent
   * instead of the API key's signature. */
  bearer?: () => Promise<string>
}

/** An answer the server refused: its status and code, the fields it names and what to do next. */
export class MerchantCommandError extends Error {
  override name = 'MerchantCommandError'
}

type Send = (method: string, path: string, options?: { query?: Record<string, string>; body?: unknown; headers?: Record<string, string>; withKey?: boolean; raw?: boolean }) => Promise<any>

/** The flags a request field is typed with, so a refusal names what the operator typed. */
const flagOfField: Record<string, string> = {
  'body.legalName': '--name',
  'body.email': '--email',
  'body.address.street': '--street',
  'body.address.city': '--city',
  'body.address.postal': '--postal',
  'body.address.country': '--country',
  'body.registrationNumber': '--registration',
  'body.customerId': '--customer',
  'body.amount': '--amount',
  'body.dueDays': '--due-days',
  'body.description': '--description',
  'params.id': '--invoice',
  'query.status': '--status',
  'query.search': '--search',
  'query.startDate': '--from',
  'query.endDate': '--to',
}

/** What the operator can do about a refusal, by what kind of refusal it is. */
function nextStep(status: number, code: string, signedIn: boolean, retryAfter: string | null): string {
  if (status === 401) return signedIn ? 'sign in again: npm run merchant -- login' : "check devnet.json's API key (npm start writes a fresh one)"
  if (status === 403 && code === 'FORBIDDEN') return signedIn ? 'this sign-in was not granted that: run login again and approve it' : 'this API key lacks the scope: use a key that has it'
  if (status === 404) return 'check the id: the list commands show the ids'
  if (status === 400 || status === 422) return 'correct the flags named above and run the command again'
  if (status === 409) return 'the server already has this or it is in another state: list it to see where it stands'
  if (status === 429) return `wait${retryAfter ? ` ${retryAfter} seconds` : ''} and run it again`
  if (status >= 500) return 'the server could not answer now: try again in a minute; if it persists, read its log'
  return 'see the message above'
}

/** One request, signed with the API key as the project's HMAC client signs (SPEC 5.2: the bytes
 * signed are the bytes sent), or with the sign-in's OAuth token where there is one. */
function sender(target: MerchantTarget): Send {
  return async (method, path, { query = {}, body, headers = {}, withKey = false, raw = false } = {}) => {
    const url = new URL(path, target.serverUrl)
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
    const bytes = body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body))
    const bearer = target.bearer && !(withKey && target.apiKey) ? target.bearer : undefined
    if (!bearer && !target.apiKey) throw new MerchantCommandError('no credential for this server: run login first (npm run merchant -- login --server <URL>)')
    if (withKey && !target.apiKey) {
      throw new MerchantCommandError("payments are read with an API key: SPEC 5.6 keeps them from OAuth sign-ins\n  what to do: run it where the devnet's devnet.json is, or read them with your backend's API key")
    }
    const signed = bearer ? { authorization: `Bearer ${await bearer()}` } : await signRequest({ ...target.apiKey!, method, path: url.pathname, query: url.search.slice(1), body: bytes })
    const response = await fetch(url, {
      method,
      headers: { ...signed, accept: raw ? '*/*' : 'application/json', ...(bytes ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(bytes ? { body: bytes } : {}),
    })
    if (response.ok && raw) return response.text()
    const answer: any = response.status === 204 ? null : await response.json().catch(() => null)
    if (!response.ok) {
      const code = String(answer?.code ?? answer?.error ?? 'ERROR')
      const fields = Array.isArray(answer?.details)
        ? ` (${answer.details.map((issue: { path: string; message: string }) => `${issue.path}${flagOfField[issue.path] ? ` ${flagOfField[issue.path]}` : ''}: ${issue.message}`).join('; ')})`
        : ''
      throw new MerchantCommandError(`${response.status} ${code}: ${answer?.message ?? 'refused'}${fields}\n  what to do: ${nextStep(response.status, code, bearer !== undefined, response.headers.get('retry-after'))}`)
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

/** A UTC day as Unix seconds: its first second, or with `end` its last. */
function dayOf(value: string, flag: string, end = false): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN
  if (Number.isNaN(day)) throw new UsageError(`--${flag}: not a day such as 2026-01-31`)
  return String(day / 1000 + (end ? 86_399 : 0))
}

/** The decimals amounts are typed in: the devnet's chain says them; a sign-in asks who its token
 * stands for (GET /oauth/token-info), which needs no scope, so issuing needs invoice:write alone and
 * not the balance's dashboard:read; an API key alone against another server reads the balance. */
async function tokenDecimals(target: MerchantTarget, send: Send): Promise<number> {
  if (!target.chain && target.bearer) {
    const { invoice_token: token } = (await send('GET', '/oauth/token-info')) as Pick<TokenInfo, 'invoice_token'>
    if (!token) throw new MerchantCommandError("the server cannot say its token's decimals now: it cannot reach its chain\n  what to do: run the command again in a minute")
    return token.decimals
  }
  if (!target.chain) return (await send('GET', '/v1/studios/me/balance')).decimals
  const client = createPublicClient({ transport: http(target.chain.rpcUrl) })
  return Number(await client.readContract({ address: target.chain.token, abi: stablecoinAbi, functionName: 'decimals' }))
}

const day = (seconds: string | number | null | undefined) => (seconds ? new Date(Number(seconds) * 1000).toISOString().slice(0, 10) : '-')
const money = (amount: string, token: { decimals: number; symbol: string }) => `${formatUnits(BigInt(amount), token.decimals)} ${token.symbol}`
const json = (answer: unknown) => [JSON.stringify(answer, null, 2)]

/** The plural is the command's name; the singular, which the first version had, still works. */
const nouns: Record<string, string> = { customer: 'customers', customers: 'customers', invoice: 'invoices', invoices: 'invoices', payment: 'payments', payments: 'payments' }

/**
 * Runs one command of `npm run merchant` against `target`, and answers the lines to print. Each is
 * one merchant route, as a merchant's backend calls it: the customer, invoice and payment routes of
 * SPEC 4.8, 4.9, 4.11 to 4.13 and 4.15. Throws UsageError for a command line it cannot read, and
 * MerchantCommandError with the server's status, code, fields and what to do for a refusal.
 */
export async function runMerchantCommand(target: MerchantTarget, argv: readonly string[]): Promise<string[]> {
  const [noun, verb, ...rest] = argv
  const send = sender(target)
  const command = `${nouns[noun ?? ''] ?? noun ?? ''} ${verb ?? ''}`.trim()
  const invoiceId = (values: Record<string, unknown>) => wholeNumber(required(values, 'invoice', "the invoice's id (npm run merchant -- invoices list)"), 'invoice', "the invoice's id")
  switch (command) {
    case 'customers create': {
      const values = parseFlags(rest, {
        name: { type: 'string' },
        email: { type: 'string' },
        street: { type: 'string' },
        city: { type: 'string' },
        postal: { type: 'string' },
        country: { type: 'string' },
        registration: { type: 'string' },
        person: { type: 'boolean' },
        json: { type: 'boolean' },
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
      if (values.json) return json(created)
      const customer = created.data ?? created
      return [`customer ${customer.id}  ${customer.legalName} <${customer.email}>`]
    }
    case 'customers list': {
      const values = parseFlags(rest, { search: { type: 'string' }, json: { type: 'boolean' } })
      const listed = await send('GET', '/v1/customers', { query: typeof values.search === 'string' ? { search: values.search } : {} })
      if (values.json) return json(listed)
      const items: any[] = listed.data?.items ?? listed.data ?? []
      return items.length === 0 ? ['no customers yet: npm run merchant -- customers create --help'] : items.map((customer) => `${customer.id}  ${customer.legalName} <${customer.email}>`)
    }
    case 'invoices issue': {
      const values = parseFlags(rest, { customer: { type: 'string' }, amount: { type: 'string' }, 'due-days': { type: 'string' }, description: { type: 'string' }, 'send-email': { type: 'boolean' }, json: { type: 'boolean' } })
      const customerId = required(values, 'customer', 'the customer id (npm run merchant -- customers list)')
      const amountText = required(values, 'amount', 'the amount in USDC, e.g. 250.00')
      if (!/^\d+(\.\d+)?$/.test(amountText)) throw new UsageError('--amount: not an amount in USDC, such as 250 or 250.00')
      const dueDays = Number(wholeNumber(typeof values['due-days'] === 'string' ? values['due-days'] : '14', 'due-days', 'a number of days'))
      const amount = parseUnits(amountText, await tokenDecimals(target, send)).toString()
      const body = {
        customerId,
        amount,
        dueDays,
        ...(typeof values.description === 'string' ? { description: values.description } : {}),
        ...(values['send-email'] === true ? { sendEmail: true } : {}),
      }
      // one key per command: a retry of this process would be a new invoice, said so in the docs
      const issued = await send('POST', '/v1/invoices/issue', { body, headers: { 'idempotency-key': crypto.randomUUID() } })
      if (values.json) return json(issued)
      if (issued.status === 'pending') return [`sent, not yet on-chain: operation ${issued.userOpHash}; npm run merchant -- invoices list shows it once included`]
      return [
        `invoice ${issued.id} (number ${issued.invoiceNumber}) Issued, due ${day(issued.dueAt)}`,
        `share link ${issued.shareLink}`,
        ...(issued.delivery ? [`mail to ${issued.delivery.to}: ${issued.delivery.status}`] : []),
      ]
    }
    case 'invoices list': {
      const values = parseFlags(rest, { status: { type: 'string' }, json: { type: 'boolean' } })
      const query: Record<string, string> = {}
      if (typeof values.status === 'string') query.status = values.status
      const listed = await send('GET', '/v1/invoices', { query })
      if (values.json) return json(listed)
      const items: any[] = listed.data.items
      if (items.length === 0) return ['no invoices']
      return items.map((invoice) => `${invoice.id.padStart(4)}  ${(invoice.documentNumber ?? `#${invoice.invoiceNumber}`).padEnd(14)} ${formatUnits(BigInt(invoice.amount), invoice.token.decimals).padStart(12)} ${invoice.token.symbol}  ${invoice.status}`)
    }
    case 'invoices get': {
      const values = parseFlags(rest, { invoice: { type: 'string' }, json: { type: 'boolean' } })
      const id = invoiceId(values)
      const answer = await send('GET', `/v1/invoices/${id}`)
      if (values.json) return json(answer)
      const invoice = answer.data
      return [
        `invoice ${invoice.id} (${invoice.documentNumber ?? `number ${invoice.invoiceNumber}`}) ${invoice.status}`,
        `amount   ${money(invoice.amount, invoice.token)}`,
        `customer ${invoice.customer?.name ?? '-'}${invoice.customer?.email ? ` <${invoice.customer.email}>` : ''}`,
        `issued   ${day(invoice.issuedAt)}, due ${day(invoice.dueAt)}${invoice.paidAt ? `, paid ${day(invoice.paidAt)}` : ''}`,
      ]
    }
    case 'invoices share': {
      const values = parseFlags(rest, { invoice: { type: 'string' }, json: { type: 'boolean' } })
      const id = invoiceId(values)
      const shared = await send('GET', `/v1/invoices/${id}/share`)
      if (values.json) return json(shared)
      const link = shared.data?.shareLink ?? shared.shareLink
      return [link ?? `invoice ${id} has no share link to show again: npm run share-link -- --invoice ${id} makes a new one`]
    }
    case 'invoices cancel': {
      const values = parseFlags(rest, { invoice: { type: 'string' }, json: { type: 'boolean' } })
      const id = invoiceId(values)
      const canceled = await send('POST', `/v1/invoices/${id}/cancel/submit`, { body: {} })
      if (values.json) return json(canceled)
      return canceled.status === 'Canceled' ? [`invoice ${id} Canceled (transaction ${canceled.txHash})`] : [`cancel sent, not yet on-chain: run the same command again to follow it (operation ${canceled.userOpHash})`]
    }
    case 'payments list': {
      const values = parseFlags(rest, { json: { type: 'boolean' } })
      // SPEC 5.6 keeps received payments from OAuth sign-ins: the API key reads them
      const listed = await send('GET', '/v1/payments', { withKey: true })
      if (values.json) return json(listed)
      const payments: any[] = listed.data.payments
      if (payments.length === 0) return ['no payments received yet']
      const decimals = await tokenDecimals(target, send)
      return payments.map((payment) => `${day(payment.paidAt)}  invoice ${payment.id.padStart(4)}  ${formatUnits(BigInt(payment.grossAmount), decimals).padStart(12)} gross  ${formatUnits(BigInt(payment.netAmount), decimals).padStart(12)} net  from ${payment.payer}`)
    }
    case 'payments export': {
      const values = parseFlags(rest, { from: { type: 'string' }, to: { type: 'string' }, format: { type: 'string' } })
      const format = typeof values.format === 'string' ? values.format : 'csv'
      if (format !== 'csv' && format !== 'json') throw new UsageError('--format: csv or json')
      const query = { format, startDate: dayOf(required(values, 'from', 'the first day, e.g. 2026-01-01'), 'from'), endDate: dayOf(required(values, 'to', 'the last day, e.g. 2026-01-31'), 'to', true) }
      const text: string = await send('GET', '/v1/payments/export', { query, withKey: true, raw: true })
      return [text.replace(/\n$/, '')]
    }
    default:
      throw new UsageError(command ? `${argv.slice(0, 2).join(' ')}: not a command` : 'which command?')
  }
}
