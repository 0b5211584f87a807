import { concat, encodeFunctionData, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { decodeFundedPayCallData, encodeFundedPayCallData, type FundedPayCall } from './fundedPayCall'
import { decodePayCallData, encodePayCallData, vaultPayAbi } from './payCall'

const address = (): Address => privateKeyToAccount(generatePrivateKey()).address
const word = (byte: string): Hex => `0x${byte.repeat(32)}`

function fundedCall(): FundedPayCall {
  return {
    registry: address(),
    invoiceId: 7n,
    invoiceNumber: 1042n,
    merchant: address(),
    token: address(),
    amount: 248_000_000n,
    feeBps: 100,
    permit: { deadline: 1_800_000_000n, v: 27, r: word('11'), s: word('22') },
    funding: { amount: 201_000_000n, permit: { deadline: 1_799_999_000n, v: 28, r: word('33'), s: word('44') } },
  }
}

const refusedWith = (code: string) => expect.objectContaining({ name: 'PayCallError', code })

describe('the funded pay call', () => {
  test('behavior: decodes to exactly what was encoded', () => {
    const call = fundedCall()
    expect(decodeFundedPayCallData(encodeFundedPayCallData(call))).toEqual(call)
  })

  test('behavior: decodes addresses to their checksummed spelling', () => {
    const call = fundedCall()
    const lower = { ...call, merchant: call.merchant.toLowerCase() as Address, token: call.token.toLowerCase() as Address }
    expect(decodeFundedPayCallData(encodeFundedPayCallData(lower))).toEqual(call)
  })

  test('behavior: the plain payment is not a funded one, nor the funded one a plain one', () => {
    const { funding: _, ...plain } = fundedCall()
    expect(() => decodeFundedPayCallData(encodePayCallData(plain))).toThrow(refusedWith('CALLDATA_UNDECODABLE'))
    expect(() => decodePayCallData(encodeFundedPayCallData(fundedCall()))).toThrow(refusedWith('CALLDATA_UNDECODABLE'))
  })

  test('behavior: another call appended, or any trailing byte, is refused by code', () => {
    const call = fundedCall()
    const { funding: _, ...plain } = call
    expect(() => decodeFundedPayCallData(concat([encodeFundedPayCallData(call), encodePayCallData(plain)]))).toThrow(refusedWith('CALLDATA_NOT_CANONICAL'))
    expect(() => decodeFundedPayCallData(concat([encodeFundedPayCallData(call), '0x00']))).toThrow(refusedWith('CALLDATA_NOT_CANONICAL'))
  })

  test('behavior: a word with dirty high bits is refused by code, though it decodes', () => {
    const call = fundedCall()
    const honest = encodeFundedPayCallData(call)
    // the funding permit's v (28) with a bit set above its byte: a decoder reads 284, which is no uint8
    const dirtyV = honest.replace(`${'00'.repeat(31)}1c`, `${'00'.repeat(30)}011c`) as Hex
    const merchant = call.merchant.slice(2).toLowerCase()
    const dirtyMerchant = honest.replace(`${'00'.repeat(12)}${merchant}`, `${'00'.repeat(11)}ff${merchant}`) as Hex
    // the terms' invoiceNumber (1042, a uint64) and feeBps (100, a uint16) with a bit set above their types
    const dirtyNumber = honest.replace(`${'00'.repeat(30)}0412`, `${'00'.repeat(23)}01${'00'.repeat(6)}0412`) as Hex
    const dirtyFee = honest.replace(`${'00'.repeat(31)}64`, `${'00'.repeat(29)}010064`) as Hex
    for (const dirty of [dirtyV, dirtyMerchant, dirtyNumber, dirtyFee]) {
      expect(dirty).not.toBe(honest)
      expect(() => decodeFundedPayCallData(dirty)).toThrow(refusedWith('CALLDATA_NOT_CANONICAL'))
    }
  })

  test('behavior: truncated data, another selector and empty data are refused by code', () => {
    const data = encodeFundedPayCallData(fundedCall())
    expect(() => decodeFundedPayCallData(data.slice(0, -64) as Hex)).toThrow(refusedWith('CALLDATA_UNDECODABLE'))
    expect(() => decodeFundedPayCallData(`0xa9059cbb${data.slice(10)}`)).toThrow(refusedWith('CALLDATA_UNDECODABLE'))
    expect(() => decodeFundedPayCallData('0x')).toThrow(refusedWith('CALLDATA_UNDECODABLE'))
  })

  test('behavior: the call carries nothing beyond the payment and the amount with its permit', () => {
    const call = fundedCall()
    const data = encodeFundedPayCallData(call)
    // selector, registry, terms (invoice, invoiceNumber, merchant, token, amount, feeBps), permit (4 words),
    // fromWallet, funding permit (4 words)
    expect((data.length - 10) / 64).toBe(16)
    const terms = { invoice: call.invoiceId, invoiceNumber: call.invoiceNumber, merchant: call.merchant, token: call.token, amount: call.amount, feeBps: call.feeBps }
    expect(data).toBe(
      encodeFunctionData({
        abi: vaultPayAbi,
        functionName: 'payInvoiceFromWallet',
        args: [call.registry, terms, call.permit, call.funding.amount, call.funding.permit],
      }),
    )
  })
})
