import { readFileSync } from 'node:fs'
import { getAddress, getContractAddress, type Address, type Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import devnet from '../../shared/devnet.deployment.json'
import type { MerchantVaultCall } from '../../shared/merchantVaultCall'
import { merchantVaultTypedData, merchantVaultTypes } from '../../shared/merchantVaultMessage'
import { typedDataJson } from '../../shared/typedDataJson'
import { bindDescriptor, encodeType, parseEncodeType, renderDescriptor, resolvePath, type Descriptor, type FieldFormat, type TypedDataRequest, type WalletKnowledge } from '../../shared/clearSigning/renderDescriptor'
import { schemaValidator } from './schemaValidator'

const root = new URL('../../clear-signing/', import.meta.url)
const descriptor = JSON.parse(readFileSync(new URL('eip712-svc-checkout-MerchantVault.json', root), 'utf8')) as Descriptor
const schema = JSON.parse(readFileSync(new URL('schemas/erc7730-v2.schema.json', root), 'utf8')) as object

const chainId = devnet.chainId
const token = getAddress(devnet.token)
const registry = getAddress(devnet.registry)
/** The devnet's merchant vault factory (deploy/deployCheckout.ts): its constructor creates the implementation at its first CREATE. */
const merchantVaultFactory: Address = '0x469723C8eD395e702d0cbA0AFdd310373a7800Df'
const implementation = getContractAddress({ from: merchantVaultFactory, nonce: 1n })
const vault: Address = getAddress('0x9f2ce0a4a1b3c5d6e7f8091a2b3c4d5e6f708192')
const payer: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const signer: Address = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
const validUntil = 1_795_529_100n // 2026-11-24T14:05:00Z
const operation: Hex = '0xbbc7d8a698cb7db9ab61929cf861a6b6f16958389efe0a2c8276eb5d21ebdb99'

/** A wallet that knows the devnet token, no names, and reads the vault's clone target. */
const wallet: WalletKnowledge = {
  tokens: [{ chainId, address: token, ticker: devnet.tokenSymbol, decimals: devnet.tokenDecimals }],
  from: signer,
  implementationOf: (chain, address) => (chain === chainId && address === vault ? implementation : undefined),
}

const request = (call: MerchantVaultCall) => JSON.parse(typedDataJson(merchantVaultTypedData({ chainId, vault, call, validUntil, operation }) as never)) as TypedDataRequest
const screenOf = (call: MerchantVaultCall) => {
  const screen = renderDescriptor(descriptor, request(call), wallet)
  return [screen.interpolatedIntent ?? screen.intent, ...screen.lines]
}

const calls: Record<keyof typeof merchantVaultTypes, MerchantVaultCall> = {
  Issue: { kind: 'Issue', registry, token, amount: 248_000_000n, dueAt: 1_796_000_000n, metaHash: `0x${'ab'.repeat(32)}`, tokenURI: '' },
  Cancel: { kind: 'Cancel', registry, invoice: 7n },
  Refund: { kind: 'Refund', registry, invoice: 7n, payer, token, amount: 124_000_000n },
  Withdrawal: { kind: 'Withdrawal', token, amount: 1_000_000_000n, to: payer },
  StartSession: { kind: 'StartSession', signer, registry, sessionUntil: 1_803_305_100n },
  EndSession: { kind: 'EndSession' },
}

describe('the merchant vault descriptor', () => {
  test('behavior: it validates against the ERC-7730 v2 schema and binds to the implementation the devnet factory creates', () => {
    const validate = schemaValidator().compile(schema)
    expect(validate(descriptor), JSON.stringify(validate.errors)).toBe(true)
    expect(descriptor.context.eip712!.deployments).toEqual([{ chainId, address: implementation }])
    expect(bindDescriptor(descriptor, request(calls.Cancel), wallet)).toEqual({ key: encodeType(merchantVaultTypes, 'Cancel') })
    expect(bindDescriptor(descriptor, request(calls.Cancel), { ...wallet, implementationOf: () => undefined })).toHaveProperty('refused')
  })

  test('behavior: one format per operation, each the encodeType of the message the vault hashes, every member listed and every path resolving', () => {
    const vaultSource = readFileSync(new URL('../../contracts/MerchantVault.sol', import.meta.url), 'utf8')
    const keys = Object.keys(descriptor.display.formats)
    expect(keys.sort()).toEqual(Object.keys(merchantVaultTypes).map((kind) => encodeType(merchantVaultTypes, kind)).sort())
    for (const key of keys) {
      expect(vaultSource).toContain(`"${key}"`)
      const { primaryType, types } = parseEncodeType(key)
      const fields = descriptor.display.formats[key]!.fields as FieldFormat[]
      const empty: TypedDataRequest = { types, primaryType, domain: { chainId, verifyingContract: vault }, message: {} }
      for (const field of fields) expect(() => resolvePath(field.path!, empty, wallet), field.path).not.toThrow()
      expect(fields.map((field) => field.path).sort(), primaryType).toEqual(types[primaryType]!.map((member) => member.name).sort())
    }
  })

  test('behavior: each operation reads in words: what, how much, to whom, until when; hashes are not shown', () => {
    expect(screenOf(calls.Issue)).toEqual([
      'Issue an invoice for 248 USDC, due 2026-11-30T00:53:20Z',
      'Amount: 248 USDC',
      'Due: 2026-11-30T00:53:20Z',
      `Invoice registry: ${registry}`,
      `Merchant vault: ${vault}`,
      'Valid until: 2026-11-24T14:05:00Z',
    ])
    expect(screenOf(calls.Cancel)).toEqual(['Cancel invoice 7', 'Invoice (registry id): 7', `Invoice registry: ${registry}`, `Merchant vault: ${vault}`, 'Valid until: 2026-11-24T14:05:00Z'])
    expect(screenOf(calls.Refund)).toEqual([
      `Refund 124 USDC of invoice 7 to ${payer}`,
      'Amount: 124 USDC',
      `To: ${payer}`,
      'Invoice (registry id): 7',
      `Invoice registry: ${registry}`,
      `Merchant vault: ${vault}`,
      'Valid until: 2026-11-24T14:05:00Z',
    ])
    expect(screenOf(calls.Withdrawal)).toEqual([`Withdraw 1000 USDC to ${payer}`, 'Amount: 1000 USDC', `To: ${payer}`, `Merchant vault: ${vault}`, 'Valid until: 2026-11-24T14:05:00Z'])
    expect(screenOf({ ...calls.Withdrawal, token: '0x0000000000000000000000000000000000000000', amount: 10n ** 17n } as MerchantVaultCall)[0]).toBe(`Withdraw 0.1 ETH to ${payer}`)
    expect(screenOf(calls.StartSession)).toEqual([
      `Let ${signer} issue and cancel invoices until 2027-02-22T14:05:00Z`,
      `Server signer: ${signer}`,
      `Invoice registry: ${registry}`,
      'Allowed until: 2027-02-22T14:05:00Z',
      `Merchant vault: ${vault}`,
      'Valid until: 2026-11-24T14:05:00Z',
    ])
    expect(screenOf(calls.EndSession)).toEqual(['Remove server signer', `Merchant vault: ${vault}`, 'Valid until: 2026-11-24T14:05:00Z'])
  })
})
