import { invoiceIdParams } from '../../http/validate'
import { perClientLimit } from '../../http/perClientLimit'
import { apiRoute } from '../../routes/apiRoute'
import { refundPrepareRequestSchema, refundPrepareResponseSchema, refundSubmitRequestSchema, refundSubmitResponseSchema } from './refundWire'
import { prepareRefund, refundedOnChain, submitRefund, type RefundDependencies } from './refunds'

export type RefundRoutesDependencies = { refunds?: RefundDependencies }

function refundsOf(dependencies: RefundRoutesDependencies): RefundDependencies {
  if (!dependencies.refunds) throw new Error('the refund routes are mounted without their dependencies')
  return dependencies.refunds
}

const refundsLimit = perClientLimit('refunds', (settings) => settings.perMinute)
const refundRoute = apiRoute<RefundRoutesDependencies>()

/** Refunds (our extension of the SPEC): money back to the payer the registry recorded, signed by the
 * vault's owner, recorded by the registry (InvoiceRefunded, refundedAmount). */
export const refundRoutes = [
  refundRoute({
    method: 'post',
    path: '/v1/invoices/:id/refund/prepare',
    summary: "The vault operation that refunds part or all of a Paid invoice to its payer, for the owner's signature",
    description:
      "Only a Paid invoice of the caller's. The amount must be positive and at most what is left: the gross amount paid less the registry's refundedAmount (REFUND_EXCEEDS_REMAINING), and no more than the vault holds (INSUFFICIENT_FUNDS); both are read from the chain and refused before anything is signed. Nothing is sent. Sign the sponsored operation exactly as returned: its signature is the typed message's validUntil as 6 bytes (big-endian) followed by the owner's 65-byte signature of `typedDataToSign`, the MerchantVault's Refund message (ERC-7730 descriptor in clear-signing/).",
    auth: 'merchant',
    cors: 'none',
    rateLimits: [refundsLimit],
    params: invoiceIdParams,
    body: refundPrepareRequestSchema,
    response: { status: 200, schema: refundPrepareResponseSchema, description: 'The unsigned operation, the message to sign and what it refunds.' },
    errors: ['UNAUTHORIZED', 'NOT_FOUND', 'INVALID_STATUS', 'REFUND_EXCEEDS_REMAINING', 'INSUFFICIENT_FUNDS', 'OWNER_MISMATCH', 'OWNER_OPERATION_PENDING', 'QUOTA_EXCEEDED', 'TRANSACTION_FAILED', 'PAYMASTER_UNAVAILABLE'],
    handle: ({ params: { id }, body }, dependencies, c) => prepareRefund(refundsOf(dependencies), c.get('principal'), id, body),
  }),
  refundRoute({
    method: 'post',
    path: '/v1/invoices/:id/refund',
    summary: 'Refund with the operation the owner signed',
    description:
      'The operation refund/prepare returned, signed by the owner. What is left to refund and the vault\'s balance are read from the chain again first. Recorded before it is sent: a 202 means sent and not yet included, and sending the same operation again follows it; once confirmed or failed it is refused (ALREADY_SUBMITTED).',
    auth: 'merchant',
    cors: 'none',
    rateLimits: [refundsLimit],
    params: invoiceIdParams,
    body: refundSubmitRequestSchema,
    response: {
      status: 200,
      schema: refundSubmitResponseSchema,
      description: "Confirmed with the registry's refunded total, or pending (202).",
      statusFor: (answer) => (answer.status === 'confirmed' ? 200 : 202),
    },
    errors: ['UNAUTHORIZED', 'NOT_FOUND', 'INVALID_STATUS', 'USEROP_CALL_MISMATCH', 'OWNER_SIGNATURE_REQUIRED', 'ALREADY_SUBMITTED', 'REFUND_EXCEEDS_REMAINING', 'INSUFFICIENT_FUNDS', 'OWNER_OPERATION_PENDING', 'TRANSACTION_FAILED', 'BUNDLER_UNAVAILABLE'],
    async handle({ params: { id }, body }, dependencies, c) {
      const refunds = refundsOf(dependencies)
      const outcome = await submitRefund(refunds, c.get('principal'), id, body.userOp)
      if (outcome.status === 'pending') {
        return { status: 'pending' as const, refundId: outcome.refundId, userOpHash: outcome.userOpHash, message: 'the refund is sent and not yet included: send the same signed operation again to follow it' }
      }
      refunds.invoices.forget(id)
      return { status: 'confirmed' as const, refundId: outcome.refundId, userOpHash: outcome.userOpHash, txHash: outcome.txHash, refundedAmount: (await refundedOnChain(refunds, id)).toString() }
    },
  }),
]
