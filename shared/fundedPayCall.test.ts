import { concat, encodeFunctionData, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { decodeFundedPayCallData, encodeFundedPayCallData, vaultExecuteBatchAbi, type FundedPayCall } from './fundedPayCall'
import { tokenPermitAbi, tokenTransferFromAbi } from './tokenAbi'
import { registryPayAbi } from './payCall'

const address = (): Address => privateKeyToAccount(generatePrivateKey()).address
const word = (byte: string): Hex => `0x${byte.repeat(32)}`

function fundedCall(): FundedPayCall {
  return {
    token: address(),
    registry: address(),
    invoiceId: 7n,
    permit: { deadline: 1_800_000_000n, v: 27, r: word('11'), s: word('22') },
    funding: { from: address(), to: address(), amount: 201_000_000n, permit: { deadline: 1_799_999_000n, v: 28, r: word('33'), s: word('44') } },
  }
}

/** The three calls of `call`, for tests that rearrange them. */
function callsOf({ token, registry, invoiceId, permit, funding }: FundedPayCall) {
  const { from, to, amount } = funding
  return {
    permit: encodeFunctionData({ abi: tokenPermitAbi, functionName: 'permit', args: [from, to, amount, funding.permit.deadline, funding.permit.v, funding.permit.r, funding.permit.s] }),
    transfer: encodeFunctionData({ abi: tokenTransferFromAbi, functionName: 'transferFrom', args: [from, to, amount] }),
    pay: encodeFunctionData({ abi: registryPayAbi, functionName: 'pay', args: [invoiceId, permit.deadline, permit.v, permit.r, permit.s] }),
    token,
    registry,
  }
}

const batch = (dest: Address[], value: bigint[], func: Hex[]) => encodeFunctionData({ abi: vaultExecuteBatchAbi, functionName: 'executeBatch', args: [dest, value, func] })

describe('the funded pay call', () => {
  test('behavior: decodes to exactly what was encoded', () => {
    const call = fundedCall()
    expect(decodeFundedPayCallData(encodeFundedPayCallData(call))).toEqual(call)
  })

  test('behavior: an extra call is refused by code', () => {
    const call = fundedCall()
    const c = callsOf(call)
    const data = batch([c.token, c.token, c.registry, c.token], [0n, 0n, 0n, 0n], [c.permit, c.transfer, c.pay, c.transfer])
    expect(() => decodeFundedPayCallData(data)).toThrow(expect.objectContaining({ code: 'CALL_COUNT_MISMATCH' }))
  })

  test('behavior: reordered calls are refused by code', () => {
    const c = callsOf(fundedCall())
    const data = batch([c.token, c.token, c.registry], [0n, 0n, 0n], [c.transfer, c.permit, c.pay])
    expect(() => decodeFundedPayCallData(data)).toThrow(expect.objectContaining({ code: 'CALL_ORDER_MISMATCH' }))
  })

  test('behavior: a call sending native currency is refused by code', () => {
    const c = callsOf(fundedCall())
    const data = batch([c.token, c.token, c.registry], [0n, 0n, 1n], [c.permit, c.transfer, c.pay])
    expect(() => decodeFundedPayCallData(data)).toThrow(expect.objectContaining({ code: 'CALL_VALUE_NONZERO' }))
  })

  test('behavior: the transfer on another token, or to another address than the permit allows, does not re-encode and is refused by code', () => {
    const call = fundedCall()
    const c = callsOf(call)
    const elsewhere = encodeFunctionData({ abi: tokenTransferFromAbi, functionName: 'transferFrom', args: [call.funding.from, address(), call.funding.amount] })
    expect(() => decodeFundedPayCallData(batch([c.token, address(), c.registry], [0n, 0n, 0n], [c.permit, c.transfer, c.pay]))).toThrow(
      expect.objectContaining({ code: 'CALLDATA_NOT_CANONICAL' }),
    )
    expect(() => decodeFundedPayCallData(batch([c.token, c.token, c.registry], [0n, 0n, 0n], [c.permit, elsewhere, c.pay]))).toThrow(
      expect.objectContaining({ code: 'CALLDATA_NOT_CANONICAL' }),
    )
  })

  test('behavior: trailing bytes, an empty value array and a plain execute are refused', () => {
    const call = fundedCall()
    const c = callsOf(call)
    expect(() => decodeFundedPayCallData(concat([encodeFundedPayCallData(call), '0x00']))).toThrow(expect.objectContaining({ code: 'CALLDATA_NOT_CANONICAL' }))
    // SimpleAccount reads an empty value array as "no value": still not the one encoding of a funded payment
    expect(() => decodeFundedPayCallData(batch([c.token, c.token, c.registry], [], [c.permit, c.transfer, c.pay]))).toThrow(
      expect.objectContaining({ code: 'CALL_COUNT_MISMATCH' }),
    )
    expect(() => decodeFundedPayCallData(c.pay)).toThrow(expect.objectContaining({ code: 'CALLDATA_UNDECODABLE' }))
  })
})
