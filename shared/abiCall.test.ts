import { decodeFunctionData, decodeFunctionResult, encodeAbiParameters, encodeFunctionData, toFunctionSelector, zeroAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { callSelector, CallSelectorError, decodeCall, decodeResult, encodeCall } from './abiCall'
import { vaultFactoryAbi, vaultPayAbi } from './payCall'

const owner = '0x00000000000000000000000000000000000000A1'
const r = `0x${'11'.repeat(32)}` as const
const s = `0x${'22'.repeat(32)}` as const

// the viem functions these replace in the wallet bridge are the reference they must agree with
describe('abiCall', () => {
  test('behavior: the selector is the one viem derives, for arrays and tuples too', () => {
    const withTuple = { type: 'function', name: 'f', stateMutability: 'view', inputs: [{ type: 'tuple[]', components: [{ type: 'address' }, { type: 'uint8' }] }], outputs: [] } as const
    for (const fn of [vaultPayAbi[0], vaultPayAbi[1], vaultFactoryAbi[0], vaultFactoryAbi[1], withTuple]) expect(callSelector(fn)).toBe(toFunctionSelector(fn))
  })

  test('behavior: encodes as encodeFunctionData and decodes as decodeFunctionData', () => {
    const permit = { deadline: 99n, v: 27, r, s }
    const args = [owner, 7n, owner, owner, 248n, permit] as const
    const pay = encodeCall(vaultPayAbi[0], args)
    expect(pay).toBe(encodeFunctionData({ abi: vaultPayAbi, functionName: 'payInvoice', args }))
    const funded = encodeCall(vaultPayAbi[1], [...args, 201n, permit])
    expect(decodeCall(vaultPayAbi[1], funded)).toEqual(decodeFunctionData({ abi: vaultPayAbi, data: funded }).args)
    expect(decodeCall(vaultPayAbi[0], pay)).toEqual([owner, 7n, owner, owner, 248n, permit])
  })

  test('behavior: calldata for another function is a CallSelectorError', () => {
    const pay = encodeCall(vaultPayAbi[0], [owner, 7n, owner, owner, 248n, { deadline: 99n, v: 27, r, s }])
    expect(() => decodeCall(vaultPayAbi[1], pay)).toThrow(CallSelectorError)
    expect(() => decodeCall(vaultPayAbi[1], pay)).toThrow(expect.objectContaining({ code: 'CALL_SELECTOR_MISMATCH' }))
  })

  test('behavior: a result is its one output, as decodeFunctionResult reads it', () => {
    const data = encodeAbiParameters([{ type: 'address' }], [zeroAddress])
    expect(decodeResult(vaultFactoryAbi[1], data)).toBe(decodeFunctionResult({ abi: vaultFactoryAbi, functionName: 'getAddress', data }))
    const twoOutputs = { type: 'function', name: 'g', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }, { type: 'bool' }] } as const
    expect(decodeResult(twoOutputs, encodeAbiParameters(twoOutputs.outputs, [5n, true]))).toEqual([5n, true])
  })
})
