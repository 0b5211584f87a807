import type { UserOperation } from 'viem/account-abstraction'
import type { UserOpLimits } from '../../shared/pinnedDeployment'
import type { UnsafeProblem } from './unsafeProblem'

const fields = [
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
] as const satisfies readonly (keyof UserOpLimits)[]

/** Gas and fees within the bounds the build states, and a priority fee no higher than the fee cap. */
export function checkGasLimits(userOp: Pick<UserOperation<'0.7'>, (typeof fields)[number]>, limits: UserOpLimits): UnsafeProblem[] {
  const over = fields.filter((field) => (userOp[field] ?? 0n) > BigInt(limits[field]))
  if (userOp.maxPriorityFeePerGas > userOp.maxFeePerGas) over.push('maxPriorityFeePerGas')
  if (over.length === 0) return []
  const detail = over.map((field) => `${field} ${userOp[field] ?? 0n} (at most ${field === 'maxPriorityFeePerGas' ? 'min(limit, maxFeePerGas)' : limits[field]})`)
  return [{ code: 'GAS_ABOVE_LIMIT', message: `The operation asks for more than this checkout allows: ${detail.join(', ')}.`, fields: over }]
}
