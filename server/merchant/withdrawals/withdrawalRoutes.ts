import { perClientLimit } from '../../http/perClientLimit'
import { apiRoute } from '../../routes/apiRoute'
import {
  withdrawalListQuerySchema,
  withdrawalListResponseSchema,
  withdrawalPrepareRequestSchema,
  withdrawalPrepareResponseSchema,
  withdrawalSubmitRequestSchema,
  withdrawalSubmitResponseSchema,
} from './withdrawalWire'
import { listWithdrawals, prepareWithdrawal, submitWithdrawal, type WithdrawalDependencies } from './withdrawals'

export type WithdrawalRoutesDependencies = { withdrawals?: WithdrawalDependencies }

function withdrawalsOf(dependencies: WithdrawalRoutesDependencies): WithdrawalDependencies {
  if (!dependencies.withdrawals) throw new Error('the withdrawal routes are mounted without their dependencies')
  return dependencies.withdrawals
}

const withdrawalsLimit = perClientLimit('withdrawals', (settings) => settings.perMinute)
const withdrawalRoute = apiRoute<WithdrawalRoutesDependencies>()

const signatureLayout =
  "Its signature is the typed message's validUntil as 6 bytes (big-endian) followed by the owner's 65-byte signature of `typedDataToSign`, the MerchantVault's Withdrawal message (ERC-7730 descriptor in clear-signing/): the vault accepts no signature of a bare hash, and no API key or server signer can sign a withdrawal."

/** SPEC 4.17: money leaves the studio's vault for its withdrawal address, signed by the vault's owner. */
export const withdrawalRoutes = [
  withdrawalRoute({
    method: 'post',
    path: '/v1/withdrawals/prepare',
    summary: "The vault operation that withdraws to the studio's withdrawal address, for its owner's signature",
    description: `Funds are checked against the vault's balance on-chain; the destination can only be the studio's withdrawal address (NO_WITHDRAWAL_ADDRESS until one is set). Nothing is sent. The operation is sponsored by our paymaster: sign it exactly as returned. ${signatureLayout}`,
    auth: 'merchant',
    cors: 'none',
    rateLimits: [withdrawalsLimit],
    body: withdrawalPrepareRequestSchema,
    response: { status: 200, schema: withdrawalPrepareResponseSchema, description: 'The unsigned operation, the message to sign and what it withdraws.' },
    errors: ['UNAUTHORIZED', 'NO_WITHDRAWAL_ADDRESS', 'ADDRESS_MISMATCH', 'OWNER_MISMATCH', 'INSUFFICIENT_FUNDS', 'OWNER_OPERATION_PENDING', 'QUOTA_EXCEEDED', 'TRANSACTION_FAILED', 'PAYMASTER_UNAVAILABLE'],
    handle: ({ body }, dependencies, c) => prepareWithdrawal(withdrawalsOf(dependencies), c.get('principal'), body),
  }),
  withdrawalRoute({
    method: 'post',
    path: '/v1/withdrawals',
    summary: 'Withdraw with the operation the owner signed',
    description:
      'The operation prepare returned, signed by the owner. It is recorded before it is sent: a 202 means sent and not yet included, and sending the same operation again follows it; once confirmed or failed it is refused (ALREADY_SUBMITTED). Any withdrawal or refund left pending is reconciled from the chain first.',
    auth: 'merchant',
    cors: 'none',
    rateLimits: [withdrawalsLimit],
    body: withdrawalSubmitRequestSchema,
    response: {
      status: 200,
      schema: withdrawalSubmitResponseSchema,
      description: 'Confirmed, or pending (202).',
      statusFor: (answer) => (answer.status === 'confirmed' ? 200 : 202),
    },
    errors: ['UNAUTHORIZED', 'NO_WITHDRAWAL_ADDRESS', 'ADDRESS_MISMATCH', 'USEROP_CALL_MISMATCH', 'OWNER_SIGNATURE_REQUIRED', 'ALREADY_SUBMITTED', 'INSUFFICIENT_FUNDS', 'OWNER_OPERATION_PENDING', 'TRANSACTION_FAILED', 'BUNDLER_UNAVAILABLE'],
    async handle({ body }, dependencies, c) {
      const withdrawals = withdrawalsOf(dependencies)
      const outcome = await submitWithdrawal(withdrawals, c.get('principal'), body)
      if (outcome.status === 'pending') {
        return { status: 'pending' as const, withdrawalId: outcome.withdrawalId, userOpHash: outcome.userOpHash, message: 'the withdrawal is sent and not yet included: send the same signed operation again to follow it; a timeout is not proof the funds stayed' }
      }
      return { status: 'confirmed' as const, withdrawalId: outcome.withdrawalId, userOpHash: outcome.userOpHash, txHash: outcome.txHash, explorerUrl: withdrawals.explorerUrl?.(outcome.txHash) ?? null }
    },
  }),
  withdrawalRoute({
    method: 'get',
    path: '/v1/withdrawals',
    summary: "The studio's withdrawals, newest first",
    description: 'Rows as SPEC 2.15. Withdrawals left pending are looked for on the chain first.',
    auth: 'merchant',
    cors: 'none',
    rateLimits: [withdrawalsLimit],
    query: withdrawalListQuerySchema,
    response: { status: 200, schema: withdrawalListResponseSchema, description: 'One page of the history.' },
    errors: ['UNAUTHORIZED', 'VALIDATION_ERROR'],
    handle: ({ query }, dependencies, c) => listWithdrawals(withdrawalsOf(dependencies), c.get('principal'), { limit: query.limit ?? 20, offset: query.offset ?? 0 }),
  }),
]
