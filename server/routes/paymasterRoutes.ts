import type { Context } from 'hono'
import * as z from 'zod/mini'
import { CodedError } from '../../shared/codedError'
import type { PaymasterService } from '../payments/paymasterService'
import { paymasterParamsSchema, paymasterRpcRequestSchema, paymasterRpcResponseSchema, type PaymasterRpcResult } from '../payments/paymasterRequest'
import { PaymasterRefusedError } from '../payments/paymasterRefusedError'
import { SponsorshipLimitError } from '../payments/sponsorshipLimiter'
import { apiRoute } from './apiRoute'
import { partOf, perClientLimit } from '../http/perClientLimit'
import { payLimit } from './payRoutes'

export type PaymasterRoutesDependencies = {
  /** Absent where the server has no paymaster signer: every request is then refused (PAYMASTER_SERVICE_OFF). */
  paymaster?: PaymasterService | undefined
  clientKey?: (c: Context) => string
  /** pm_getPaymasterData's outcomes count with /prepare's (svc_checkout_prepares_total): one sponsorship metric. */
  countSponsorship?: (outcome: string) => void
}

/** JSON-RPC 2.0 error codes: the standard ones, and EIP-1474's for a refused request and a limit. */
export const paymasterRpcCodes = {
  methodNotFound: -32601,
  invalidParams: -32602,
  refused: -32003,
  limitExceeded: -32005,
} as const

type RpcError = { code: number; message: string; data?: { code: string } & Record<string, unknown> }

const methods = {
  pm_getPaymasterStubData: 'stubData',
  pm_getPaymasterData: 'paymasterData',
} as const

/** A refusal as JSON-RPC carries it: a stable code in `data`, with the figures a wallet acts on. */
function rpcErrorOf(error: unknown): RpcError | undefined {
  if (error instanceof PaymasterRefusedError) return { code: paymasterRpcCodes.refused, message: error.message, data: { ...error.details, code: error.code } }
  if (error instanceof SponsorshipLimitError) return { code: paymasterRpcCodes.limitExceeded, message: error.message, data: { ...error.details, code: error.code } }
  return undefined
}

async function answer(body: z.infer<typeof paymasterRpcRequestSchema>, { paymaster, clientKey, countSponsorship }: PaymasterRoutesDependencies, c: Context) {
  const id = body.id ?? null
  const fail = (error: RpcError) => ({ jsonrpc: '2.0' as const, id, error })
  const method = methods[body.method as keyof typeof methods]
  if (!method) {
    return fail({ code: paymasterRpcCodes.methodNotFound, message: `unknown method ${body.method}: this service answers ${Object.keys(methods).join(' and ')}`, data: { code: 'METHOD_NOT_FOUND' } })
  }
  const parsed = paymasterParamsSchema.safeParse(body.params ?? [])
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }))
    return fail({ code: paymasterRpcCodes.invalidParams, message: 'params are [userOp, entryPoint, chainId, context?] as ERC-7677 defines them', data: { code: 'VALIDATION_ERROR', issues } })
  }
  const counted = method === 'paymasterData' ? countSponsorship : undefined
  if (!paymaster) {
    counted?.('PAYMASTER_SERVICE_OFF')
    return fail({ code: paymasterRpcCodes.refused, message: 'this server sponsors through another paymaster service, not its own', data: { code: 'PAYMASTER_SERVICE_OFF' } })
  }
  let result: PaymasterRpcResult
  try {
    result = await paymaster[method]({ params: parsed.data, clientKey: clientKey?.(c) })
  } catch (error) {
    const rpcError = rpcErrorOf(error)
    counted?.(error instanceof CodedError ? error.code : 'error')
    // anything else (the chain down, a bug) is the server's failure, answered as every route answers it
    if (!rpcError) throw error
    return fail(rpcError)
  }
  counted?.('ok')
  return { jsonrpc: '2.0' as const, id, result }
}

const paymasterRoute = apiRoute<PaymasterRoutesDependencies>()

/** On top of `pay`: each call reads the chain and may sign (PAYMASTER_RATE_LIMIT_PER_MINUTE, else a
 * fifth of it: a payment asks twice, stub, then data). */
const paymasterLimit = perClientLimit('paymaster', (settings) => settings.paymasterPerMinute ?? partOf(settings, 5))

/** ERC-7677: the paymaster service smart wallets call on the checkout's behalf. */
export const paymasterRoutes = [
  paymasterRoute({
    method: 'post',
    path: '/v1/paymaster',
    summary: 'ERC-7677 paymaster service: sponsors a smart wallet\'s payment of an invoice',
    description:
      'JSON-RPC 2.0. `pm_getPaymasterStubData` and `pm_getPaymasterData`, params `[userOp, entryPoint, chainId, context]` (ERC-7677; quantities 0x-hex; `context` is optional and unread). Sponsors only an operation whose callData (SimpleAccount `executeBatch` v0.7 or v0.6, ERC-7579 `execute` in atomic batch mode, Coinbase Smart Wallet `executeBatch`) makes exactly two calls: the invoice token\'s `approve(registry, amount)` or `permit(sender, registry, amount, …)` for exactly the invoice amount, then the registry\'s `pay(id, deadline, v, r, s)` of an Issued invoice in the pinned token, with the sender holding the amount, for an invoice of one of this server\'s studios, at the nonce the EntryPoint expects of the sender now, with gas fields within what the operation measures in simulation plus the margin docs/api.md states, within the sponsorship limits. Answers for EntryPoint v0.7 `{paymaster, paymasterData, paymasterVerificationGasLimit, paymasterPostOpGasLimit, isFinal: false}` (stub) and `{paymaster, paymasterData, paymasterVerificationGasLimit, paymasterPostOpGasLimit}` (data); for v0.6 `{paymasterAndData, isFinal: false}` and `{paymasterAndData}`. A refusal is a JSON-RPC error (HTTP 200) with no signature: `-32003` with `data.code` one of UNSUPPORTED_CHAIN, UNSUPPORTED_ENTRY_POINT, UNKNOWN_ACCOUNT_KIND, EXTRA_CALL, MISSING_CALL, CALL_VALUE, NOT_REGISTRY_PAY, NOT_TOKEN_APPROVAL, TOKEN_MISMATCH, SPENDER_MISMATCH, AMOUNT_MISMATCH, PERMIT_INVALID, PERMIT_EXPIRED, PERMIT_DEADLINE_TOO_FAR, TOKEN_NOT_SUPPORTED, INVOICE_NOT_FOUND, INVALID_STATUS, INSUFFICIENT_BALANCE, MERCHANT_NOT_REGISTERED, NONCE_NOT_CURRENT, EXECUTION_DOES_NOT_PAY, VALIDATION_REVERTS, SIMULATION_UNAVAILABLE, GAS_LIMIT_TOO_HIGH, GAS_FIELDS_MISSING, FEE_TOO_HIGH, PAYMASTER_SERVICE_OFF; `-32005` SPONSORSHIP_LIMIT (with `limit`, `max`, `retryAfterSeconds`); `-32602` VALIDATION_ERROR; `-32601` METHOD_NOT_FOUND. A body that is not a JSON-RPC 2.0 request is a 400 (VALIDATION_ERROR).',
    auth: 'none',
    // a wallet calls it from its own origin (an extension, a wallet's pop-up)
    cors: 'anyOrigin',
    rateLimits: [payLimit, paymasterLimit],
    body: paymasterRpcRequestSchema,
    response: { status: 200, schema: paymasterRpcResponseSchema, description: 'A JSON-RPC 2.0 response: the paymaster fields, or an error with its code in `data.code`.' },
    errors: ['PAYLOAD_TOO_LARGE', 'CHAIN_UNAVAILABLE'],
    handle: ({ body }, dependencies, c) => answer(body, dependencies, c),
  }),
]
