import { encodeFunctionData, numberToHex, type Hex } from 'viem'
import type { PinnedDeployment } from '../../../shared/pinnedDeployment'
import type { PaymentCall } from '../../wallet/sendPaymentCalls'

const approveAbi = [
  {
    type: 'function',
    name: 'approve',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'spender', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [{ type: 'bool' }],
  },
] as const

const registryPayAbi = [
  {
    type: 'function',
    name: 'pay',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'id', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
      { name: 'v', type: 'uint8' },
      { name: 'r', type: 'bytes32' },
      { name: 's', type: 'bytes32' },
    ],
    outputs: [],
  },
] as const

const zero32: Hex = `0x${'00'.repeat(32)}`

export type PaymentCallsParameters = { deployment: PinnedDeployment; invoiceId: bigint; amount: bigint }

/**
 * The whole payment from a smart account, built from the pinned deployment and the invoice as read
 * from the chain, never from the service: the pinned token's approval of exactly the invoice amount to
 * the pinned registry, then the registry's `pay` of this invoice with an empty permit (the registry
 * tries the permit, which fails, and takes the allowance: contracts/InvoiceRegistry.sol). Sent
 * atomically, the allowance is spent in the same batch and nothing is left approved.
 */
export function paymentCalls({ deployment, invoiceId, amount }: PaymentCallsParameters): PaymentCall[] {
  return [
    { to: deployment.token, data: encodeFunctionData({ abi: approveAbi, functionName: 'approve', args: [deployment.registry, amount] }), value: numberToHex(0) },
    { to: deployment.registry, data: encodeFunctionData({ abi: registryPayAbi, functionName: 'pay', args: [invoiceId, 0n, 0, zero32, zero32] }), value: numberToHex(0) },
  ]
}

/** Whether `calls` (the frame's, over the bridge) are exactly `expected`, call for call. */
export function samePaymentCalls(calls: unknown, expected: PaymentCall[]): boolean {
  if (!Array.isArray(calls) || calls.length !== expected.length) return false
  return expected.every((call, index) => {
    const given = calls[index] as Record<string, unknown> | null
    if (typeof given !== 'object' || given === null) return false
    const keys = Object.keys(given).filter((key) => key !== 'value')
    const value = given.value === undefined ? '0x0' : given.value
    return (
      keys.length === 2 &&
      typeof given.to === 'string' &&
      typeof given.data === 'string' &&
      typeof value === 'string' &&
      given.to.toLowerCase() === call.to.toLowerCase() &&
      given.data.toLowerCase() === call.data.toLowerCase() &&
      BigInt(value) === 0n
    )
  })
}
