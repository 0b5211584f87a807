import { invoiceIdParams } from '../../http/validate'
import { apiRoute } from '../../routes/apiRoute'
import { invoicesLimit } from '../../routes/invoiceShareRoutes'
import { cancelSubmitRequestSchema, cancelSubmitResponseSchema } from './cancelWire'
import { submitCancel, type CancelDependencies } from './submitCancel'

export type CancelRoutesDependencies = { cancel?: CancelDependencies }

function cancelOf(dependencies: CancelRoutesDependencies): CancelDependencies {
  if (!dependencies.cancel) throw new Error('the cancel routes are mounted without their dependencies')
  return dependencies.cancel
}

const cancelRoute = apiRoute<CancelRoutesDependencies>()

/** SPEC 4.11: canceling an Issued invoice on-chain, through the studio's vault. */
export const cancelRoutes = [
  cancelRoute({
    method: 'post',
    path: '/v1/invoices/:id/cancel/submit',
    summary: 'Cancel an Issued invoice, signed by the server signer',
    description:
      "Reads the invoice's status from the chain first: a Paid or Canceled invoice answers INVALID_STATUS. Each invoice has one cancel attempt: repeating the request after a 202 follows the operation already sent instead of sending another. Needs the vault's live session for the server's signer (no_active_signer otherwise).",
    auth: 'merchant',
    cors: 'none',
    rateLimits: [invoicesLimit],
    scope: 'invoice:write',
    params: invoiceIdParams,
    body: cancelSubmitRequestSchema,
    bodyOptional: true,
    response: {
      status: 200,
      schema: cancelSubmitResponseSchema,
      description: 'Canceled on-chain, or pending (202).',
      statusFor: (answer) => (answer.status === 'Canceled' ? 200 : 202),
    },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'INVALID_STATUS', 'no_active_signer', 'CANCEL_IN_PROGRESS', 'QUOTA_EXCEEDED', 'TRANSACTION_FAILED', 'BUNDLER_UNAVAILABLE', 'PAYMASTER_UNAVAILABLE'],
    async handle({ params: { id } }, dependencies, c) {
      const outcome = await submitCancel(cancelOf(dependencies), c.get('principal'), id)
      if (outcome.status === 'pending') {
        return { status: 'pending' as const, userOpHash: outcome.userOpHash, message: 'the cancel is sent and not yet included: repeat this request to follow it, and read the invoice before another write' }
      }
      return { id: id.toString(), status: 'Canceled' as const, userOpHash: outcome.userOpHash, txHash: outcome.txHash }
    },
  }),
]
