import { encodeAbiParameters, encodeFunctionData, parseAbi, parseAbiParameters, type Address, type Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import { decodeAccountCalls } from '../../server/payments/decodeAccountCalls'

const a: Address = '0x1111111111111111111111111111111111111111'
const b: Address = '0x2222222222222222222222222222222222222222'
const calls = [
  { to: a, value: 0n, data: '0xabcdef01' as Hex },
  { to: b, value: 5n, data: '0x' as Hex },
]
const abi = parseAbi([
  'function executeBatch(address[] dest, uint256[] value, bytes[] func)',
  'function execute(address dest, uint256 value, bytes func)',
  'function execute(bytes32 mode, bytes executionCalldata)',
])
const v06 = parseAbi(['function executeBatch(address[] dest, bytes[] func)'])
const coinbase = parseAbi(['struct Call { address target; uint256 value; bytes data; }', 'function executeBatch(Call[] calls)'])
const executions = encodeAbiParameters(parseAbiParameters('(address target, uint256 value, bytes callData)[]'), [calls.map((c) => ({ target: c.to, value: c.value, callData: c.data }))])
const mode = (callType: string, execType: string, rest = '00'.repeat(30)) => `0x${callType}${execType}${rest}` as Hex

describe('the paymaster service reading account batches', () => {
  test('behavior: each account kind it knows decodes to the same calls, in order', () => {
    expect(decodeAccountCalls(encodeFunctionData({ abi, functionName: 'executeBatch', args: [[a, b], [0n, 5n], [calls[0]!.data, '0x']] }))).toEqual({ kind: 'simpleAccountV07', calls })
    expect(decodeAccountCalls(encodeFunctionData({ abi: coinbase, functionName: 'executeBatch', args: [calls.map((c) => ({ target: c.to, value: c.value, data: c.data }))] }))).toEqual({ kind: 'coinbaseSmartWallet', calls })
    expect(decodeAccountCalls(encodeFunctionData({ abi, functionName: 'execute', args: [mode('01', '00'), executions] }))).toEqual({ kind: 'erc7579', calls })
    // 0.6.0's batch has no values: every call sends none
    expect(decodeAccountCalls(encodeFunctionData({ abi: v06, functionName: 'executeBatch', args: [[a, b], [calls[0]!.data, '0x']] }))).toEqual({
      kind: 'simpleAccountV06',
      calls: calls.map((c) => ({ ...c, value: 0n })),
    })
    // SimpleAccount 0.7.0 reads an empty value array as no value
    expect(decodeAccountCalls(encodeFunctionData({ abi, functionName: 'executeBatch', args: [[a], [], ['0x']] }))?.calls).toEqual([{ to: a, value: 0n, data: '0x' }])
  })

  test('behavior: what the account itself would refuse, or what is not an all-or-nothing batch, reads as no known kind', () => {
    // lengths the account reverts on
    expect(decodeAccountCalls(encodeFunctionData({ abi, functionName: 'executeBatch', args: [[a, b], [0n], ['0x', '0x']] }))).toBeNull()
    // ERC-7579: a single call, a delegatecall, a "try" batch, a mode selector of its own
    expect(decodeAccountCalls(encodeFunctionData({ abi, functionName: 'execute', args: [mode('00', '00'), executions] }))).toBeNull()
    expect(decodeAccountCalls(encodeFunctionData({ abi, functionName: 'execute', args: [mode('ff', '00'), executions] }))).toBeNull()
    expect(decodeAccountCalls(encodeFunctionData({ abi, functionName: 'execute', args: [mode('01', '01'), executions] }))).toBeNull()
    expect(decodeAccountCalls(encodeFunctionData({ abi, functionName: 'execute', args: [mode('01', '00', `${'00'.repeat(4)}deadbeef${'00'.repeat(22)}`), executions] }))).toBeNull()
    // a single SimpleAccount call, another selector, too short, truncated arguments
    expect(decodeAccountCalls(encodeFunctionData({ abi, functionName: 'execute', args: [a, 0n, '0x'] }))).toBeNull()
    expect(decodeAccountCalls('0xdeadbeef')).toBeNull()
    expect(decodeAccountCalls('0x47e1')).toBeNull()
    expect(decodeAccountCalls(encodeFunctionData({ abi, functionName: 'executeBatch', args: [[a], [0n], ['0x']] }).slice(0, 74) as Hex)).toBeNull()
  })
})
