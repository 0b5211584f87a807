import { invoiceIdParams } from '../../http/validate'
import { apiRoute } from '../../routes/apiRoute'
import { invoicesLimit } from '../../routes/invoiceShareRoutes'
import { cancelPrepareRequestSchema, cancelPrepareResponseSchema, cancelRequestSchema, cancelResponseSchema, cancelSubmitRequestSchema, cancelSubmitResponseSchema } from './cancelWire'
import { prepareOwnerCancel, submitOwnerCancel } from './ownerCancel'
import { submitCancel, type CancelDependencies } from './submitCancel'

export type CancelRoutesDependencies = { cancel?: CancelDependencies }

function cancelOf(dependencies: CancelRoutesDependencies): CancelDependencies {
  if (!dependencies.cancel) throw new Error('the cancel routes are mounted without their dependencies')
  return dependencies.cancel
}

const cancelRoute = apiRoute<CancelRoutesDependencies>()

/** SPEC 4.11: canceling an Issued invoice on-chain, through the studio's vault: signed by the server
 * signer (cancel/submit) or by the vault's owner (cancel/prepare, then cancel). */
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
    signedInUsers: 'refused',
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
  cancelRoute({
    method: 'post',
    path: '/v1/invoices/:id/cancel/prepare',
    summary: "The vault operation that cancels an Issued invoice, for its owner's signature",
    description:
      "Nothing is sent. The operation is sponsored by our paymaster: sign it exactly as returned. Its signature is the typed message's validUntil as 6 bytes (big-endian) followed by the owner's 65-byte signature of `typedDataToSign`, the MerchantVault's Cancel message (ERC-7730 descriptor in clear-signing/): the vault accepts no signature of a bare hash.",
    auth: 'merchant',
    cors: 'none',
    rateLimits: [invoicesLimit],
    params: invoiceIdParams,
    body: cancelPrepareRequestSchema,
    response: { status: 200, schema: cancelPrepareResponseSchema, description: 'The unsigned operation and the message to sign.' },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'INVALID_STATUS', 'OWNER_MISMATCH', 'QUOTA_EXCEEDED', 'TRANSACTION_FAILED', 'PAYMASTER_UNAVAILABLE'],
    handle: ({ params: { id }, body }, dependencies, c) => prepareOwnerCancel(cancelOf(dependencies), c.get('principal'), id, body.ownerAddress),
  }),
  cancelRoute({
    method: 'post',
    path: '/v1/invoices/:id/cancel',
    summary: 'Cancel an Issued invoice with the operation its owner signed',
    description: 'The operation cancel/prepare returned, signed. Sending the same signed operation again after a 202 follows it.',
    auth: 'merchant',
    cors: 'none',
    rateLimits: [invoicesLimit],
    params: invoiceIdParams,
    body: cancelRequestSchema,
    response: {
      status: 200,
      schema: cancelResponseSchema,
      description: 'Confirmed, or pending (202).',
      statusFor: (answer) => (answer.status === 'confirmed' ? 200 : 202),
    },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'INVALID_STATUS', 'USEROP_CALL_MISMATCH', 'TRANSACTION_FAILED', 'BUNDLER_UNAVAILABLE'],
    async handle({ params: { id }, body }, dependencies, c) {
      const outcome = await submitOwnerCancel(cancelOf(dependencies), c.get('principal'), id, body.userOp)
      if (outcome.status === 'pending') {
        return { status: 'pending' as const, userOpHash: outcome.userOpHash, message: 'the cancel is sent and not yet included: send the same signed operation again to follow it' }
      }
      return outcome
    },
  }),
]
