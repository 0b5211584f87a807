import { decodeFunctionData, parseAbi } from 'viem'
import { describe, expect, test } from 'vitest'
import { testDeployment } from '../../verify/preparedPayment.fixture'
import { paymentCalls, samePaymentCalls } from './paymentCalls'

const deployment = testDeployment()
const calls = paymentCalls({ deployment, invoiceId: 7n, amount: 5_000_000_000n })

describe('paymentCalls', () => {
  test('behavior: approve exactly the amount to the pinned registry on the pinned token, then pay this invoice with an empty permit', () => {
    expect(calls.map((call) => [call.to, call.value])).toEqual([
      [deployment.token, '0x0'],
      [deployment.registry, '0x0'],
    ])
    expect(decodeFunctionData({ abi: parseAbi(['function approve(address,uint256)']), data: calls[0]!.data }).args).toEqual([deployment.registry, 5_000_000_000n])
    expect(decodeFunctionData({ abi: parseAbi(['function pay(uint256,uint256,uint8,bytes32,bytes32)']), data: calls[1]!.data }).args).toEqual([
      7n,
      0n,
      0,
      `0x${'00'.repeat(32)}`,
      `0x${'00'.repeat(32)}`,
    ])
  })

  test('behavior: only the very same calls match; a larger approval, another spender, an extra call or a value does not', () => {
    expect(samePaymentCalls(calls.map((call) => ({ ...call, to: call.to.toLowerCase() })), calls)).toBe(true)
    expect(samePaymentCalls(paymentCalls({ deployment, invoiceId: 7n, amount: 5_000_000_001n }), calls)).toBe(false)
    expect(samePaymentCalls(paymentCalls({ deployment, invoiceId: 8n, amount: 5_000_000_000n }), calls)).toBe(false)
    expect(samePaymentCalls([...calls, calls[0]], calls)).toBe(false)
    expect(samePaymentCalls([calls[0], { ...calls[1], value: '0x1' }], calls)).toBe(false)
    expect(samePaymentCalls([calls[0], { ...calls[1], chainId: '0x1' }], calls)).toBe(false)
    expect(samePaymentCalls('calls', calls)).toBe(false)
  })
})
