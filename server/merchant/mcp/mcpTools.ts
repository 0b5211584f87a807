import { Context } from 'hono'
import * as z from 'zod/v4'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { Principal } from '../../auth/principal'
import { grantsScope } from '../../auth/scopes'
import { CodedError } from '../../../shared/codedError'
import type { ApiRoute } from '../../routes/apiRoute'
import { recordAgentWrite, type AgentWriteAudit } from '../oauth/agentWriteAudit'
import { toolScopeOf, type OAuthRoute } from '../oauth/oauthRestRoutes'

/** One MCP tool: the REST route whose code it runs, and how its snake_case arguments become that route's
 * input. Its scope is the route's, from the OAuth routes' one table (oauthRestRoutes.ts). */
type ToolSpec = {
  name: string
  description: string
  route: OAuthRoute
  input: z.ZodRawShape
  /** Splits the arguments into the route's params, query, body and headers (keys still snake_case). */
  split(args: Record<string, unknown>): { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: Record<string, unknown>; headers?: Record<string, string> }
  /** What a read did, in a sentence (a write's sentence is the audit log's, agentWriteAudit.ts). */
  read?(answer: any, args: Record<string, unknown>): string
  /** The part of the route's answer the tool gives, where it gives less than the whole. */
  shape?(answer: any): unknown
}

/** A UTC day (YYYY-MM-DD) as Unix seconds: its first second, or with `end` its last. */
const daySeconds = (day: unknown, end = false) => {
  const at = /^\d{4}-\d{2}-\d{2}$/.test(String(day)) ? Date.parse(`${String(day)}T00:00:00Z`) : Number.NaN
  // not a day: left for the route's own validation to refuse, in its words
  return Number.isNaN(at) ? String(day) : String(at / 1000 + (end ? 86_399 : 0))
}

const id = { id: z.string().describe('the invoice id') }
const paging = { limit: z.optional(z.number().int()), cursor: z.optional(z.string()) }
const address = z.object({ street: z.string(), city: z.string(), postal: z.string(), country: z.string().describe('ISO 3166-1 alpha-2') })
const count = (answer: any, field?: string) => {
  const data = answer?.data
  const items = field ? data?.[field] : (data?.items ?? data)
  return Array.isArray(items) ? items.length : 0
}

const tools: readonly ToolSpec[] = [
  { name: 'invoices_list', description: "List the studio's invoices, latest first.", route: 'GET /v1/invoices', input: { ...paging, status: z.optional(z.string()) }, split: (args) => ({ query: args }), read: (answer) => `listed ${count(answer)} invoices` },
  { name: 'invoice_get', description: 'One invoice by id.', route: 'GET /v1/invoices/:id', input: id, split: ({ id: invoice }) => ({ params: { id: invoice } }), read: (answer, args) => `read invoice ${String(args.id)} (${String(answer?.data?.status ?? answer?.status ?? 'status unknown')})` },
  { name: 'invoice_lookup', description: 'Find an invoice by its number or payment reference.', route: 'GET /v1/invoices/lookup', input: { invoice_number: z.optional(z.string()), q: z.optional(z.string()) }, split: (args) => ({ query: args }), read: () => 'looked up an invoice' },
  {
    name: 'invoice_issue',
    description: "Issue an invoice to one of the studio's customers with the server signer. The same idempotency_key replays the first answer instead of issuing twice.",
    route: 'POST /v1/invoices/issue',
    input: { idempotency_key: z.string(), customer_id: z.string(), amount: z.string().describe("base units of the studio's token"), due_days: z.number().int(), description: z.optional(z.string()), send_email: z.optional(z.boolean()) },
    split: ({ idempotency_key, ...body }) => ({ body, headers: { 'idempotency-key': String(idempotency_key) } }),
  },
  { name: 'invoice_cancel', description: 'Cancel an unpaid invoice with the server signer.', route: 'POST /v1/invoices/:id/cancel/submit', input: id, split: ({ id: invoice }) => ({ params: { id: invoice } }) },
  {
    name: 'invoice_send_email',
    description: "Mail an Issued invoice's link to its customer again (at most five a day per invoice).",
    route: 'POST /v1/invoices/:id/send-email',
    input: { ...id, customer_id: z.optional(z.string()) },
    split: ({ id: invoice, ...body }) => ({ params: { id: invoice }, body }),
  },
  { name: 'invoice_share_link', description: "An invoice's share link, for the payer.", route: 'GET /v1/invoices/:id/share', input: id, split: ({ id: invoice }) => ({ params: { id: invoice } }), read: (_, args) => `read the share link of invoice ${String(args.id)}` },
  { name: 'customers_list', description: "List the studio's customers.", route: 'GET /v1/customers', input: { search: z.optional(z.string()), limit: z.optional(z.number().int()), offset: z.optional(z.number().int()) }, split: (args) => ({ query: args }), read: (answer) => `listed ${count(answer)} customers` },
  {
    name: 'customer_create',
    description: 'Create a customer (type entity or person).',
    route: 'POST /v1/customers',
    input: { type: z.enum(['entity', 'person']), legal_name: z.string(), email: z.string(), registration_number: z.optional(z.string()), trade_name: z.optional(z.string()), tax_id: z.optional(z.string()), vat_number: z.optional(z.string()), wallet_address: z.optional(z.string()), notes: z.optional(z.string()), address },
    split: (body) => ({ body }),
  },
  {
    name: 'customer_update',
    description: "Change some of a customer's fields; omitted ones are kept, an address is sent whole.",
    route: 'PATCH /v1/customers/:id',
    input: { id: z.string().describe('the customer id'), legal_name: z.optional(z.string()), email: z.optional(z.string()), registration_number: z.optional(z.string()), trade_name: z.optional(z.string()), tax_id: z.optional(z.string()), vat_number: z.optional(z.string()), wallet_address: z.optional(z.string()), notes: z.optional(z.string()), address: z.optional(address) },
    split: ({ id: customer, ...body }) => ({ params: { id: customer }, body }),
  },
  { name: 'payments_list', description: 'List the payments received, latest first.', route: 'GET /v1/payments', input: paging, split: (args) => ({ query: args }), read: (answer) => `listed ${count(answer, 'payments')} payments` },
  {
    name: 'payments_export',
    description: 'The summary of the payments received between two UTC days, inclusive (at most 366 days): how many, gross, fees, net and refunded, in display units and base units.',
    route: 'GET /v1/payments/export',
    input: { from: z.string().describe('the first day, YYYY-MM-DD'), to: z.string().describe('the last day, YYYY-MM-DD') },
    split: ({ from, to }) => ({ query: { format: 'json', start_date: daySeconds(from), end_date: daySeconds(to, true) } }),
    shape: (answer) => ({ dateRange: answer?.dateRange, summary: answer?.summary }),
    read: (answer, args) => `summed ${String(answer?.summary?.totalPayments ?? 0)} payments received from ${String(args.from)} to ${String(args.to)}`,
  },
  { name: 'balance', description: "The studio vault's balance, read from the chain.", route: 'GET /v1/studios/me/balance', input: {}, split: () => ({}), read: () => "read the vault's balance" },
  { name: 'stats', description: "The studio's invoice statistics.", route: 'GET /v1/studios/me/invoices/stats', input: {}, split: () => ({}), read: () => "read the studio's invoice statistics" },
]

const camel = (key: string) => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())
function camelKeys(value: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!value) return undefined
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined).map(([key, item]) => [camel(key), item]))
}
/** A query is text on the wire: the route's schema parses it from strings. */
const asQuery = (value: Record<string, unknown> | undefined) => value && Object.fromEntries(Object.entries(value).map(([key, item]) => [key, String(item)]))

/** The route's answer as JSON first (what a program reads), then what was done in a sentence (what a
 * person reads, and for a write the audit log's words). */
const result = (body: unknown, isError = false, said?: string): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(body, (_, item: unknown) => (typeof item === 'bigint' ? item.toString() : item)) }, ...(said ? [{ type: 'text' as const, text: said }] : [])],
  ...(isError ? { isError: true } : {}),
})

export type ToolCaller = {
  /** The principal of this call, re-read from the token's grant (revoked, expired or a lost
   * membership ends the call), or the refusal to answer. */
  principal(): Promise<Principal>
  routes: readonly ApiRoute<unknown, never>[]
  dependencies: unknown
  baseUrl: string
  /** Where each write is kept with the client's name (the studio's audit log). */
  audit?: AgentWriteAudit
}

/**
 * The tools (SPEC 5.4): each runs the REST route's own validation and handler in this process
 * (never HTTP to itself), with the grant's principal, after checking the grant's scope as a key's.
 * A refusal is a tool error carrying the route's code and message, as REST would answer it.
 */
export function registerMerchantTools(server: McpServer, caller: ToolCaller) {
  for (const tool of tools) {
    const [verb, path] = tool.route.split(' ') as [Uppercase<ApiRoute['method']>, string]
    const method = verb.toLowerCase() as ApiRoute['method']
    const scope = toolScopeOf(tool.route)
    const route = caller.routes.find((candidate) => candidate.method === method && candidate.path === path)
    if (!route) continue
    server.registerTool(tool.name, { description: tool.description, inputSchema: tool.input }, async (args: Record<string, unknown>) => {
      try {
        const principal = await caller.principal()
        if (principal.kind === 'oauth' && !grantsScope(principal.scopes, scope)) {
          return result({ error: 'FORBIDDEN', code: 'FORBIDDEN', message: `this connection was not granted ${scope}: reconnect and approve it` }, true)
        }
        const parts = tool.split(args)
        const parse = (schema: unknown, value: unknown) => (schema ? (schema as z.ZodType).parse(value ?? {}) : undefined)
        const params = parse(route.params, parts.params)
        const query = parse(route.query, asQuery(camelKeys(parts.query)))
        const body = parse(route.body, camelKeys(parts.body))
        const c = new Context(new Request(`${caller.baseUrl}${path}`, { method: verb, headers: parts.headers ?? {} }))
        c.set('principal', principal)
        const answer = await route.handle({ params, query, body }, caller.dependencies as never, c as never)
        const answered = answer instanceof Response ? await answer.json() : answer
        if (method === 'get') return result(tool.shape ? tool.shape(answered) : answered, false, tool.read?.(answered, args))
        const write = { route: tool.route, params: params as Record<string, unknown> | undefined, body: body as Record<string, unknown> | undefined, answer: answered }
        const filledPath = path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String((params as Record<string, unknown> | undefined)?.[name] ?? '')))
        // every write is kept with the client's name before the agent is told it happened
        const said = principal.kind === 'oauth' && caller.audit ? await recordAgentWrite(caller.audit, principal, { ...write, method: verb, path: filledPath }) : null
        const replayed = (answered as { idempotency?: { replayed?: boolean } } | null)?.idempotency?.replayed === true
        return result(answered, false, said ?? (replayed ? 'answered again with the first answer to this idempotency_key: nothing new was written' : undefined))
      } catch (error) {
        if (error instanceof CodedError) return result({ error: error.code, code: error.code, message: error.message }, true)
        const issues = error instanceof Error ? (error as { issues?: unknown }).issues : undefined
        if (Array.isArray(issues)) {
          // REST's validation shape (SPEC 7.1), with the fields as the tool names them
          const details = (issues as { path: PropertyKey[]; message: string }[]).map((issue) => ({ path: issue.path.map((part) => String(part).replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)).join('.'), message: issue.message }))
          return result({ error: 'VALIDATION_ERROR', code: 'VALIDATION_ERROR', details }, true)
        }
        throw error
      }
    })
  }
}
