import { getAddress, hashTypedData, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import type { FundedPayCall } from '../../shared/fundedPayCall'
import type { PayCall } from '../../shared/payCall'
import { verifiedPaymentMessage } from './verifiedPaymentMessage'

const address = (): Address => privateKeyToAccount(generatePrivateKey()).address
const word = (byte: string): Hex => `0x${byte.repeat(32)}`

const call: PayCall = {
  registry: address(),
  invoiceId: 2n,
  invoiceNumber: 1042n,
  merchant: address(),
  token: address(),
  amount: 248_000_000n,
  feeBps: 100,
  permit: { deadline: 1_800_000_000n, v: 27, r: word('11'), s: word('22') },
}
const vault = address()
const userOpHash = word('3f')

describe('verifiedPaymentMessage', () => {
  test('default: the vault\'s Payment typed data over the verified call', () => {
    expect(verifiedPaymentMessage({ call, vault, chainId: 31337, userOpHash })).toEqual({
      domain: { name: 'svc-checkout vault', version: '3', chainId: 31337, verifyingContract: vault },
      types: {
        Payment: [
          { name: 'registry', type: 'address' },
          { name: 'invoice', type: 'uint256' },
          { name: 'invoiceNumber', type: 'uint64' },
          { name: 'merchant', type: 'address' },
          { name: 'token', type: 'address' },
          { name: 'amount', type: 'uint256' },
          { name: 'feeBps', type: 'uint16' },
          { name: 'fromWallet', type: 'uint256' },
          { name: 'vault', type: 'address' },
          { name: 'validUntil', type: 'uint256' },
          { name: 'operation', type: 'bytes32' },
        ],
      },
      primaryType: 'Payment',
      message: {
        registry: call.registry,
        invoice: 2n,
        invoiceNumber: 1042n,
        merchant: call.merchant,
        token: call.token,
        amount: 248_000_000n,
        feeBps: 100,
        fromWallet: 0n,
        vault,
        validUntil: 1_800_000_000n,
        operation: userOpHash,
      },
    })
  })

  test('parameters: a funded call names what comes from the payer\'s wallet', () => {
    const funded: FundedPayCall = { ...call, funding: { amount: 201_000_000n, permit: { deadline: 1_799_999_000n, v: 28, r: word('33'), s: word('44') } } }
    expect(verifiedPaymentMessage({ call: funded, vault, chainId: 31337, userOpHash }).message).toMatchObject({ amount: 248_000_000n, fromWallet: 201_000_000n, validUntil: 1_800_000_000n })
  })

  test('behavior: the vault is spelled checksummed in the domain and message, whatever the casing it came in', () => {
    const typed = verifiedPaymentMessage({ call, vault: vault.toLowerCase() as Address, chainId: 31337, userOpHash })
    expect(typed.domain.verifyingContract).toBe(getAddress(vault))
    expect(typed.message.vault).toBe(getAddress(vault))
    // signable as it stands: what eth_signTypedData_v4 is asked for hashes without error
    expect(hashTypedData(typed)).toMatch(/^0x[0-9a-f]{64}$/)
  })

  test('behavior: another chain, vault or operation is another message', () => {
    const digest = (overrides: Partial<Parameters<typeof verifiedPaymentMessage>[0]>) => hashTypedData(verifiedPaymentMessage({ call, vault, chainId: 31337, userOpHash, ...overrides }))
    const base = digest({})
    expect(new Set([base, digest({ chainId: 1 }), digest({ vault: address() }), digest({ userOpHash: word('40') })]).size).toBe(4)
  })

  test('behavior: another registry, invoice number or fee rate in the call is another message', () => {
    const digest = (changes: Partial<PayCall>) => hashTypedData(verifiedPaymentMessage({ call: { ...call, ...changes }, vault, chainId: 31337, userOpHash }))
    const base = digest({})
    expect(new Set([base, digest({ registry: address() }), digest({ invoiceNumber: 1043n }), digest({ feeBps: 101 })]).size).toBe(4)
  })
})
