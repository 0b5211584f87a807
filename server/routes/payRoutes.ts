import type { Context } from 'hono'
import { getAddress } from 'viem'
import * as z from 'zod/mini'
import { ecrecoverV } from '../../shared/permit'
import {
  invoiceResponseSchema,
  metadataResponseSchema,
  permitRequestSchema,
  permitResponseSchema,
  prepareRequestSchema,
  prepareResponseSchema,
  submitRequestSchema,
  submitResponseSchema,
} from '../../shared/wire'
import { apiRoute } from './apiRoute'
import { partOf, perClientLimit } from '../http/perClientLimit'
import { HttpError } from '../http/httpError'
import { invoiceIdParams } from '../http/validate'
import type { PayDependencies } from '../payments/payDependencies'
import type { MetadataAccess } from '../store/openStores'
import { preparePayment } from '../payments/preparePayment'
import { requestPermit } from '../payments/requestPermit'
import { submitPayment } from '../payments/submitPayment'
import { invoicePdf } from '../pdf/invoicePdf'

export type PayRoutesDependencies = {
  pay: PayDependencies
  metadata: MetadataAccess
  /** The client a request is counted under (server/http/clientAddress.ts): sponsorships are limited per client. */
  clientKey?: (c: Context) => string
}

const tokenDescription = 'The `svc_tk_` access token from the share link.'
const tokenQuery = z.object({ token: z.optional(z.string()).register(z.globalRegistry, { description: tokenDescription }) })

/** An overlong token is simply not a valid one: it opens nothing, like any other wrong token. */
function opener(metadata: MetadataAccess) {
  return async (id: bigint, token: string | undefined) => (token && token.length <= 200 ? metadata.open(id, token) : null)
}

/** GET /v1/pay/:id/metadata's answer (SPEC 4.14), which the pay page is also first rendered with. */
export function invoiceDocument({ pay, metadata }: PayRoutesDependencies) {
  const open = opener(metadata)
  return async (id: bigint, token: string | undefined) => {
    const [{ invoice }, opened] = await Promise.all([pay.invoices.read(id), open(id, token)])
    return { success: true as const, accessLevel: opened ? ('full' as const) : ('onchain_only' as const), data: invoice, metadata: opened }
  }
}

/** SPEC 4.14 rule 4 allows any v up to 255: a y-parity bit is taken as the 27 or 28 the token recovers with. */
function recoverable<S extends { v: number }>(signature: S): S {
  return { ...signature, v: ecrecoverV(signature.v) }
}

const payRoute = apiRoute<PayRoutesDependencies>()

/** Every public pay route's and the paymaster service's (server/routes/paymasterRoutes.ts): one
 * count per client across them all, the PDF included. */
export const payLimit = perClientLimit('pay', (settings) => settings.perMinute)
/** On top of `pay`: a permit reads the chain (PERMIT_RATE_LIMIT_PER_MINUTE, else a fifth of it). */
const permitLimit = perClientLimit('permit', (settings) => settings.permitPerMinute ?? partOf(settings, 5))
/** On top of `pay`: a prepare estimates gas and asks for a sponsorship (PREPARE_RATE_LIMIT_PER_MINUTE,
 * else a tenth of it). */
const prepareLimit = perClientLimit('prepare', (settings) => settings.preparePerMinute ?? partOf(settings, 10))

/** SPEC 4.14: the public pay routes. No credentials: a payment is authorised by the payer's signatures. */
export const payRoutes = [
  payRoute({
    method: 'get',
    path: '/v1/pay/:id',
    summary: 'The invoice as the registry records it',
    auth: 'none',
    cors: 'anyOrigin',
    rateLimits: [payLimit],
    params: invoiceIdParams,
    response: { status: 200, schema: invoiceResponseSchema, description: 'The invoice, read from the chain at `metadata.blockNumber`.' },
    errors: ['NOT_FOUND'],
    async handle({ params }, { pay }) {
      const { invoice, blockNumber } = await pay.invoices.read(params.id)
      return { success: true as const, data: invoice, metadata: { chainId: pay.deployment.chainId, blockNumber: blockNumber.toString() } }
    },
  }),
  payRoute({
    method: 'get',
    path: '/v1/pay/:id/metadata',
    summary: 'The invoice with its decrypted metadata',
    description:
      'With a valid token the decrypted metadata (`accessLevel: full`); without one, or with a wrong, expired or revoked one, the on-chain record alone (`onchain_only`). The metadata hashes to the on-chain `metaHash`: a client should check it.',
    auth: 'none',
    cors: 'anyOrigin',
    rateLimits: [payLimit],
    params: invoiceIdParams,
    query: tokenQuery,
    response: { status: 200, schema: metadataResponseSchema, description: 'The invoice and, with a valid token, its metadata.', headers: { 'Cache-Control': 'no-store' } },
    errors: ['NOT_FOUND'],
    handle: ({ params, query }, dependencies) => invoiceDocument(dependencies)(params.id, query.token),
  }),
  payRoute({
    method: 'get',
    path: '/v1/pay/:id/pdf',
    summary: 'The invoice as a PDF',
    auth: 'none',
    cors: 'anyOrigin',
    rateLimits: [payLimit],
    params: invoiceIdParams,
    query: z.object({ token: z.optional(z.string()).register(z.globalRegistry, { description: `${tokenDescription} Required.` }) }),
    response: { status: 200, contentType: 'application/pdf', description: 'The PDF, as an attachment.' },
    errors: ['TOKEN_REQUIRED', 'UNAUTHORIZED', 'NOT_FOUND'],
    async handle({ params: { id }, query: { token } }, { pay, metadata }, c) {
      if (!token) throw new HttpError(400, 'TOKEN_REQUIRED', 'the PDF needs the invoice access token from the share link')
      const [{ invoice }, opened] = await Promise.all([pay.invoices.read(id), opener(metadata)(id, token)])
      // unlike /metadata, which then falls back to the on-chain record, the document needs the token: a
      // wrong, expired or revoked one is a credential failure (SPEC 7.2), told apart from a missing invoice
      if (!opened) throw new HttpError(401, 'UNAUTHORIZED', 'the access token is invalid, expired or revoked: ask the merchant for a current share link')
      const pdf = await invoicePdf(invoice, opened)
      const filename = `invoice-${opened.invoiceNumber.replace(/[^\w.-]/g, '_')}.pdf`
      return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="${filename}"`,
        'Cache-Control': 'no-store',
      })
    },
  }),
  payRoute({
    method: 'post',
    path: '/v1/pay/:id/permit',
    summary: 'The EIP-2612 permit the payer signs',
    description:
      "`payerAddress` is the payer vault: the vault factory's `getAddress(owner, 0)`. The vault's owner signs the returned typed data with `eth_signTypedData_v4`; a `v` of 0 or 1 is accepted wherever the signature is sent back. With `fundingFrom` (an extension of SPEC 4.14: the vault's owner) and while the vault lacks part of the amount, also `fundingPermitToSign`: the owner's account lets the vault take exactly that part, until the same deadline, for `/prepare`'s `funding`.",
    auth: 'none',
    cors: 'anyOrigin',
    rateLimits: [payLimit, permitLimit],
    outcomes: { metric: 'permits' },
    params: invoiceIdParams,
    body: permitRequestSchema,
    response: { status: 200, schema: permitResponseSchema, description: 'The typed data to sign, and the invoice.' },
    errors: ['INVALID_STATUS', 'NOT_FOUND', 'TOKEN_NOT_SUPPORTED', 'MERCHANT_NOT_REGISTERED', 'FUNDING_OWNER_MISMATCH'],
    async handle({ params, body }, { pay }) {
      const permitDeadline = body.permitDeadline === undefined ? undefined : BigInt(body.permitDeadline)
      const result = await requestPermit(pay, {
        invoiceId: params.id,
        payerAddress: getAddress(body.payerAddress),
        permitDeadline,
        fundingFrom: body.fundingFrom && getAddress(body.fundingFrom),
      })
      return { success: true as const, ...result }
    },
  }),
  payRoute({
    method: 'post',
    path: '/v1/pay/:id/prepare',
    summary: 'The sponsored ERC-4337 operation that pays the invoice',
    description:
      "The server verifies the signed permit as the chain will, builds the vault's operation (EntryPoint v0.7) and has the paymaster sponsor it. The owner signs the operation with `eth_signTypedData_v4` as the typed message `Payment(uint256 invoice,address merchant,address token,uint256 amount,uint256 fromWallet,address vault,uint256 validUntil,bytes32 operation)` in the domain { name `svc-checkout vault`, version `2`, chainId, verifyingContract: the vault }, after checking the operation: `invoice`, `merchant`, `token` and `amount` are the callData's (the vault reverts unless the registry holds exactly them, Issued), `fromWallet` the funding amount (0 without funding), `validUntil` the permit's deadline and `operation` the recomputed `userOpHash`; `personal_sign` and `eth_sign` signatures are refused. Optional `funding` (an extension of SPEC 4.14) pays from the owner's own account when the vault lacks part of the amount: `from` is `ownerAddress`, `amount` exactly what the vault lacks, and `permit` the owner's EIP-2612 permit letting `payerAddress` take that amount; the operation is then the vault's `payInvoiceFromWallet`, which takes that amount from `from` and pays, all or nothing, sponsored until the earlier of the two permit deadlines.",
    auth: 'none',
    cors: 'anyOrigin',
    rateLimits: [payLimit, prepareLimit],
    outcomes: { metric: 'prepares' },
    params: invoiceIdParams,
    body: prepareRequestSchema,
    response: { status: 200, schema: prepareResponseSchema, description: 'The operation, its hash and the permit deadline.' },
    errors: [
      'INVALID_STATUS',
      'NOT_FOUND',
      'MERCHANT_NOT_REGISTERED',
      'PERMIT_EXPIRED',
      'PERMIT_SIGNATURE_INVALID',
      'INSUFFICIENT_BALANCE',
      'FUNDING_OWNER_MISMATCH',
      'FUNDING_AMOUNT_MISMATCH',
      'FUNDING_PERMIT_INVALID',
      'PAYMASTER_UNAVAILABLE',
      'PAYMASTER_SPONSORSHIP_INVALID',
      'SPONSORSHIP_LIMIT',
      'UPSTREAM_BUSY',
    ],
    async handle({ params, body: { payerAddress, ownerAddress, permit, funding } }, { pay, clientKey }, c) {
      const result = await preparePayment(pay, {
        invoiceId: params.id,
        clientKey: clientKey?.(c),
        payerAddress: getAddress(payerAddress),
        ownerAddress: getAddress(ownerAddress),
        permit: { ...recoverable(permit), deadline: BigInt(permit.deadline) },
        funding: funding && {
          from: getAddress(funding.from),
          amount: BigInt(funding.amount),
          permit: { ...recoverable(funding.permit), deadline: BigInt(funding.permit.deadline) },
        },
      })
      return { success: true as const, ...result }
    },
  }),
  payRoute({
    method: 'post',
    path: '/v1/pay/:id',
    summary: 'Submit the signed operation',
    description: 'Answers `confirmed` with the transaction once the bundler has a receipt, else `pending` (202): the chain then says what happened.',
    auth: 'none',
    cors: 'anyOrigin',
    rateLimits: [payLimit],
    outcomes: { metric: 'submissions', successes: { 200: 'confirmed', 202: 'pending' }, inFlight: 'pendingOperations' },
    params: invoiceIdParams,
    body: submitRequestSchema,
    response: {
      status: 200,
      schema: submitResponseSchema,
      description: 'Confirmed, or pending (202).',
      statusFor: (result) => (result.status === 'confirmed' ? 200 : 202),
    },
    errors: ['INVALID_STATUS', 'NOT_FOUND', 'MERCHANT_NOT_REGISTERED', 'USEROP_NOT_PREPARED', 'USEROP_PERMIT_MISMATCH', 'USEROP_SIGNATURE_INVALID', 'PERMIT_EXPIRED', 'TRANSACTION_FAILED', 'BUNDLER_UNAVAILABLE', 'UPSTREAM_BUSY'],
    handle: ({ params, body: { userOp, permitSignature } }, { pay }) =>
      submitPayment(pay, { invoiceId: params.id, userOp, permitSignature: permitSignature && recoverable(permitSignature) }),
  }),
]
