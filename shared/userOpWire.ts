import type { UserOperation } from 'viem/account-abstraction'

/** SPEC 2.16: a v0.7 UserOperation as JSON carries it, numeric fields as decimal strings. Kept apart
 * from the zod schemas so code that only converts does not bundle them. */
export type WireUserOp = {
  sender: `0x${string}`
  nonce: string
  factory?: `0x${string}` | undefined
  factoryData?: `0x${string}` | undefined
  callData: `0x${string}`
  callGasLimit: string
  verificationGasLimit: string
  preVerificationGas: string
  maxFeePerGas: string
  maxPriorityFeePerGas: string
  paymaster?: `0x${string}` | undefined
  paymasterVerificationGasLimit?: string | undefined
  paymasterPostOpGasLimit?: string | undefined
  paymasterData?: `0x${string}` | undefined
  signature: `0x${string}`
}

const numericUserOpFields = [
  'nonce',
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
] as const

export function toWireUserOp(userOp: UserOperation<'0.7'>): WireUserOp {
  const wire: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(userOp)) {
    if (value === undefined) continue
    wire[key] = typeof value === 'bigint' ? value.toString() : value
  }
  return wire as WireUserOp
}

export function fromWireUserOp(wire: WireUserOp): UserOperation<'0.7'> {
  const userOp: Record<string, unknown> = { ...wire }
  for (const key of numericUserOpFields) {
    const value = wire[key]
    if (value !== undefined) userOp[key] = BigInt(value)
  }
  return userOp as unknown as UserOperation<'0.7'>
}
