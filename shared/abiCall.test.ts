import { decodeFunctionData, decodeFunctionResult, encodeAbiParameters, encodeFunctionData, encodeFunctionResult, toFunctionSelector, zeroAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { CallSelectorError, decodeCall, decodeResult, encodeCall } from './abiCall'
import { callSelector } from './staticAbiCall'
import { decodeStaticResult, encodeStaticCall, StaticResultError } from './staticAbiCall'
import { vaultPayAbi } from './payCall'
import { vaultFactoryAbi } from './vaultFactoryAbi'

const owner = '0x00000000000000000000000000000000000000A1'
const r = `0x${'11'.repeat(32)}` as const
const s = `0x${'22'.repeat(32)}` as const
// the vault's terms: the invoice, the merchant's number for it, merchant, token, amount and fee rate
const terms = { invoice: 7n, invoiceNumber: 1042n, merchant: owner, token: owner, amount: 248n, feeBps: 100 } as const

// the viem functions these replace in the wallet bridge are the reference they must agree with
describe('abiCall', () => {
  test('behavior: the selector is the one viem derives, for arrays and tuples too', () => {
    const withTuple = { type: 'function', name: 'f', stateMutability: 'view', inputs: [{ type: 'tuple[]', components: [{ type: 'address' }, { type: 'uint8' }] }], outputs: [] } as const
    for (const fn of [vaultPayAbi[0], vaultPayAbi[1], vaultFactoryAbi[0], vaultFactoryAbi[1], withTuple]) expect(callSelector(fn)).toBe(toFunctionSelector(fn))
  })

  test('behavior: encodes as encodeFunctionData and decodes as decodeFunctionData', () => {
    const permit = { deadline: 99n, v: 27, r, s }
    const args = [owner, terms, permit] as const
    const pay = encodeCall(vaultPayAbi[0], args)
    expect(pay).toBe(encodeFunctionData({ abi: vaultPayAbi, functionName: 'payInvoice', args }))
    const funded = encodeCall(vaultPayAbi[1], [...args, 201n, permit])
    expect(decodeCall(vaultPayAbi[1], funded)).toEqual(decodeFunctionData({ abi: vaultPayAbi, data: funded }).args)
    expect(decodeCall(vaultPayAbi[0], pay)).toEqual([owner, terms, permit])
  })

  test('behavior: calldata for another function is a CallSelectorError', () => {
    const pay = encodeCall(vaultPayAbi[0], [owner, terms, { deadline: 99n, v: 27, r, s }])
    expect(() => decodeCall(vaultPayAbi[1], pay)).toThrow(CallSelectorError)
    expect(() => decodeCall(vaultPayAbi[1], pay)).toThrow(expect.objectContaining({ code: 'CALL_SELECTOR_MISMATCH' }))
  })

  test('behavior: a result is its one output, as decodeFunctionResult reads it', () => {
    const data = encodeAbiParameters([{ type: 'address' }], [zeroAddress])
    expect(decodeResult(vaultFactoryAbi[1], data)).toBe(decodeFunctionResult({ abi: vaultFactoryAbi, functionName: 'getAddress', data }))
    const twoOutputs = { type: 'function', name: 'g', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }, { type: 'bool' }] } as const
    expect(decodeResult(twoOutputs, encodeAbiParameters(twoOutputs.outputs, [5n, true]))).toEqual([5n, true])
  })

  const invoices = {
    type: 'function',
    name: 'invoices',
    stateMutability: 'view',
    inputs: [{ name: 'id', type: 'uint256' }, { name: 'ok', type: 'bool' }, { name: 'key', type: 'uint192' }],
    outputs: [
      {
        type: 'tuple',
        components: [
          { name: 'merchant', type: 'address' },
          { name: 'status', type: 'uint8' },
          { name: 'at', type: 'uint64' },
          { name: 'small', type: 'uint48' },
          { name: 'paid', type: 'bool' },
          { name: 'amount', type: 'uint256' },
          { name: 'hash', type: 'bytes32' },
        ],
      },
    ],
  } as const

  test('behavior: fixed-size calls encode as encodeFunctionData and results decode as decodeFunctionResult', () => {
    for (const args of [[0n, false, 0n], [2n ** 256n - 1n, true, 2n ** 192n - 1n], [7n, true, 12345n]] as const)
      expect(encodeStaticCall(invoices, args)).toBe(encodeFunctionData({ abi: [invoices], args }))
    expect(encodeStaticCall(vaultFactoryAbi[1], [owner, 0n])).toBe(encodeFunctionData({ abi: [vaultFactoryAbi[1]], args: [owner, 0n] }))
    const value = { merchant: '0xabc0000000000000000000000000000000000001', status: 3, at: 2n ** 64n - 1n, small: 2 ** 48 - 1, paid: true, amount: 10n ** 30n, hash: r } as const
    const data = encodeFunctionResult({ abi: [invoices], result: value })
    expect(decodeStaticResult(invoices, data)).toEqual(decodeFunctionResult({ abi: [invoices], data }))
    const address = encodeFunctionResult({ abi: [vaultFactoryAbi[1]], result: '0x00000000000000000000000000000000000000a1' })
    expect(decodeStaticResult(vaultFactoryAbi[1], address)).toBe(owner)
  })

  test('behavior: a fixed-size result that is short or out of its types\' range is refused, and so is a value out of range', () => {
    const data = encodeFunctionResult({ abi: [vaultFactoryAbi[1]], result: owner })
    expect(() => decodeStaticResult(vaultFactoryAbi[1], '0x')).toThrow(StaticResultError)
    expect(() => decodeStaticResult(vaultFactoryAbi[1], data.slice(0, -2) as `0x${string}`)).toThrow(StaticResultError)
    expect(() => decodeStaticResult(vaultFactoryAbi[1], `0x01${data.slice(4)}`)).toThrow(StaticResultError)
    const tuple = encodeFunctionResult({ abi: [invoices], result: { merchant: owner, status: 1, at: 1n, small: 1, paid: false, amount: 1n, hash: r } })
    expect(() => decodeStaticResult(invoices, `${tuple.slice(0, 66 + 62)}01${tuple.slice(130)}` as `0x${string}`)).not.toThrow()
    expect(() => decodeStaticResult(invoices, `${tuple.slice(0, 66 + 60)}0100${tuple.slice(130)}` as `0x${string}`)).toThrow(StaticResultError)
    expect(() => encodeStaticCall(invoices, [2n ** 256n, false, 0n])).toThrow(StaticResultError)
    expect(() => encodeStaticCall(invoices, [-1n, false, 0n])).toThrow(StaticResultError)
  })
})
