import { decodeFunctionData, decodeFunctionResult, encodeAbiParameters, encodeFunctionData, toFunctionSelector, zeroAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { callSelector, CallSelectorError, decodeCall, decodeResult, encodeCall } from './abiCall'
import { registryPayAbi, vaultExecuteAbi, vaultFactoryAbi } from './payCall'
import { vaultExecuteBatchAbi } from './fundedPayCall'

const owner = '0x00000000000000000000000000000000000000A1'
const r = `0x${'11'.repeat(32)}` as const
const s = `0x${'22'.repeat(32)}` as const

// the viem functions these replace in the wallet bridge are the reference they must agree with
describe('abiCall', () => {
  test('behavior: the selector is the one viem derives, for arrays and tuples too', () => {
    const withTuple = { type: 'function', name: 'f', stateMutability: 'view', inputs: [{ type: 'tuple[]', components: [{ type: 'address' }, { type: 'uint8' }] }], outputs: [] } as const
    for (const fn of [registryPayAbi[0], vaultExecuteBatchAbi[0], vaultFactoryAbi[1], withTuple]) expect(callSelector(fn)).toBe(toFunctionSelector(fn))
  })

  test('behavior: encodes as encodeFunctionData and decodes as decodeFunctionData', () => {
    const pay = encodeCall(registryPayAbi[0], [7n, 99n, 27, r, s])
    expect(pay).toBe(encodeFunctionData({ abi: registryPayAbi, functionName: 'pay', args: [7n, 99n, 27, r, s] }))
    const execute = encodeCall(vaultExecuteAbi[0], [owner, 0n, pay])
    expect(decodeCall(vaultExecuteAbi[0], execute)).toEqual(decodeFunctionData({ abi: vaultExecuteAbi, data: execute }).args)
    expect(decodeCall(registryPayAbi[0], pay)).toEqual([7n, 99n, 27, r, s])
  })

  test('behavior: calldata for another function is a CallSelectorError', () => {
    const pay = encodeCall(registryPayAbi[0], [7n, 99n, 27, r, s])
    expect(() => decodeCall(vaultExecuteAbi[0], pay)).toThrow(CallSelectorError)
    expect(() => decodeCall(vaultExecuteAbi[0], pay)).toThrow(expect.objectContaining({ code: 'CALL_SELECTOR_MISMATCH' }))
  })

  test('behavior: a result is its one output, as decodeFunctionResult reads it', () => {
    const data = encodeAbiParameters([{ type: 'address' }], [zeroAddress])
    expect(decodeResult(vaultFactoryAbi[1], data)).toBe(decodeFunctionResult({ abi: vaultFactoryAbi, functionName: 'getAddress', data }))
    const twoOutputs = { type: 'function', name: 'g', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }, { type: 'bool' }] } as const
    expect(decodeResult(twoOutputs, encodeAbiParameters(twoOutputs.outputs, [5n, true]))).toEqual([5n, true])
  })
})
