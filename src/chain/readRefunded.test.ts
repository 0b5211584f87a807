import { encodeFunctionData, encodeFunctionResult, toFunctionSelector, type AbiFunction, type Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { readRefunded, refundedAmountSelector } from './readRefunded'

const registry = '0x00000000000000000000000000000000000000aa'
const refundedAmount = invoiceRegistryAbi.find((item) => item.type === 'function' && item.name === 'refundedAmount') as AbiFunction

describe('readRefunded', () => {
  test("default: the registry's refundedAmount(id), encoded as its ABI says, decoded from the answer", async () => {
    expect(refundedAmountSelector).toBe(toFunctionSelector(refundedAmount))
    const calls: { to: string; data: Hex }[] = []
    const refunded = await readRefunded(
      async (call) => {
        calls.push(call)
        return encodeFunctionResult({ abi: invoiceRegistryAbi, functionName: 'refundedAmount', result: 50_500_000n })
      },
      registry,
      7n,
    )
    expect(refunded).toBe(50_500_000n)
    expect(calls).toEqual([{ to: registry, data: encodeFunctionData({ abi: invoiceRegistryAbi, functionName: 'refundedAmount', args: [7n] }) }])
  })
})
