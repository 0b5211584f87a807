import { readFileSync } from 'node:fs'
import { getAddress, getContractAddress, type Address, type Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import devnet from '../../shared/devnet.deployment.json'
import type { FundedPayCall } from '../../shared/fundedPayCall'
import type { PayCall } from '../../shared/payCall'
import { paymentMessage, paymentTypedData, paymentTypes } from '../../shared/paymentMessage'
import { permitTypedData, permitTypes } from '../../shared/permit'
import { typedDataJson } from '../../shared/typedDataJson'
import {
  bindDescriptor,
  encodeType,
  parseEncodeType,
  renderDescriptor,
  resolvePath,
  type Descriptor,
  type FieldFormat,
  type TypedDataRequest,
  type WalletKnowledge,
} from '../../shared/clearSigning/renderDescriptor'
import { schemaValidator } from './schemaValidator'

const root = new URL('../../clear-signing/', import.meta.url)
const readJson = (name: string): unknown => JSON.parse(readFileSync(new URL(name, root), 'utf8'))

const paymentFile = 'eip712-svc-checkout-Payment.json'
const permitFile = 'eip712-svc-checkout-devnet-usdc-Permit.json'
const payment = readJson(paymentFile) as Descriptor
const permit = readJson(permitFile) as Descriptor
const descriptors: Record<string, Descriptor> = { [paymentFile]: payment, [permitFile]: permit }

/** What the wallet receives: eth_signTypedData_v4's JSON, exactly as the page serialises it. */
const asRequested = (typedData: Parameters<typeof typedDataJson>[0]) => JSON.parse(typedDataJson(typedData)) as TypedDataRequest

const chainId = devnet.chainId
const token = getAddress(devnet.token)
const registry = getAddress(devnet.registry)
/** The vaults' implementation: PayerVaultFactory's constructor creates it, the factory's first CREATE. */
const vaultImplementation = getContractAddress({ from: getAddress(devnet.vaultFactory), nonce: 1n })
const merchant: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const payer: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const vault: Address = '0x7a417e5e1F0e6F3B2c1D0a9B8C7D6e5F4A3B2c1d'
const validUntil = 1_795_529_100n // 2026-11-24T14:05:00Z
const userOpHash: Hex = '0xbbc7d8a698cb7db9ab61929cf861a6b6f16958389efe0a2c8276eb5d21ebdb99'
const signature = { v: 27, r: `0x${'11'.repeat(32)}` as Hex, s: `0x${'22'.repeat(32)}` as Hex }

const payCall: PayCall = { registry, invoiceId: 2n, invoiceNumber: 2n, merchant, token, amount: 248_000_000n, feeBps: 100, permit: { deadline: validUntil, ...signature } }
const fundedPayCall: FundedPayCall = { ...payCall, funding: { amount: 201_000_000n, permit: { deadline: validUntil, ...signature } } }

/** A wallet that knows the devnet token, no names, and reads the deployed vault's ERC-1967 slot. */
const wallet: WalletKnowledge = {
  tokens: [{ chainId, address: token, ticker: devnet.tokenSymbol, decimals: devnet.tokenDecimals }],
  from: payer,
  implementationOf: (chain, address) => (chain === chainId && address === vault ? vaultImplementation : undefined),
}

const permitDomain = { ...devnet.permitDomain, chainId, verifyingContract: token }

describe('schema', () => {
  const ajv = schemaValidator()
  const descriptorSchema = readJson('schemas/erc7730-v2.schema.json') as object
  const validateDescriptor = ajv.compile(descriptorSchema)

  test.each(Object.keys(descriptors))('behavior: %s validates against the ERC-7730 v2 schema', (file) => {
    const valid = validateDescriptor(descriptors[file])
    expect(validateDescriptor.errors ?? []).toEqual([])
    expect(valid).toBe(true)
  })

  test.each(Object.keys(descriptors))('behavior: %s names the v2 schema in $schema', (file) => {
    expect(descriptors[file]!.$schema).toBe('https://eips.ethereum.org/assets/eip-7730/erc7730-v2.schema.json')
  })

  test('behavior: the schema refuses what the specification forbids', () => {
    const eip712Factory = structuredClone(payment) as unknown as { context: { eip712: Record<string, unknown> } }
    eip712Factory.context.eip712.factory = { deployEvent: 'VaultCreated(address)', deployments: [] }
    expect(validateDescriptor(eip712Factory)).toBe(false)
    const lowercaseDeployment = structuredClone(permit)
    lowercaseDeployment.context.eip712!.deployments![0]!.address = token.toLowerCase()
    expect(validateDescriptor(lowercaseDeployment)).toBe(false)
    const v1Required = structuredClone(payment)
    Object.assign(Object.values(v1Required.display.formats)[0]!, { required: ['invoice'] })
    expect(validateDescriptor(v1Required)).toBe(false)
    const unknownFieldKey = structuredClone(permit)
    Object.assign(Object.values(unknownFieldKey.display.formats)[0]!.fields![0]!, { hidden: true })
    expect(validateDescriptor(unknownFieldKey)).toBe(false)
  })
})

describe('paths', () => {
  const onlyFormat = (descriptor: Descriptor) => {
    const keys = Object.keys(descriptor.display.formats)
    expect(keys).toHaveLength(1)
    return { key: keys[0]!, format: descriptor.display.formats[keys[0]!]! }
  }

  test('behavior: each format key is the encodeType of the message the page builds, and the contract hashes the same string', () => {
    expect(onlyFormat(payment).key).toBe(encodeType(paymentTypes, 'Payment'))
    expect(onlyFormat(permit).key).toBe(encodeType(permitTypes, 'Permit'))
    const vaultSource = readFileSync(new URL('../../contracts/PayerVault.sol', import.meta.url), 'utf8')
    expect(vaultSource).toContain(`"${onlyFormat(payment).key}"`)
  })

  test.each(Object.keys(descriptors))('behavior: every path in %s resolves to a field of its message type, and every field is listed', (file) => {
    const { key, format } = onlyFormat(descriptors[file]!)
    const { primaryType, types } = parseEncodeType(key)
    // a request with no values: resolving checks names and types only
    const request: TypedDataRequest = { types, primaryType, domain: { chainId, verifyingContract: vault }, message: {} }
    const fields = format.fields as FieldFormat[]
    const paths = [
      ...fields.map((field) => field.path!),
      ...fields.flatMap((field) => (typeof field.params?.tokenPath === 'string' ? [field.params.tokenPath] : [])),
      ...[...(format.interpolatedIntent ?? '').matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!),
    ]
    for (const path of paths) expect(() => resolvePath(path, request, wallet), path).not.toThrow()
    for (const field of fields.filter((f) => f.format === 'tokenAmount')) {
      expect(resolvePath(field.params!.tokenPath as string, request, wallet).type).toBe('address')
    }
    // the v2 schema wants every member listed, hidden ones with visible: never
    expect(fields.map((field) => field.path).sort()).toEqual(types[primaryType]!.map((member) => member.name).sort())
  })
})

describe('binding', () => {
  const request = asRequested(paymentTypedData(chainId, paymentMessage(payCall, vault, userOpHash)))

  test('behavior: the deployment listed is the vault implementation the devnet factory creates', () => {
    expect(payment.context.eip712!.deployments).toEqual([{ chainId, address: vaultImplementation }])
    expect(vaultImplementation).toBe('0x25BF66Bc2F93031EbA418e5A394c737D1e7CE2FC')
    expect(permit.context.eip712!.deployments).toEqual([{ chainId, address: token }])
  })

  test('behavior: the Payment descriptor applies to a vault that proxies to the implementation', () => {
    expect(bindDescriptor(payment, request, wallet)).toEqual({ key: encodeType(paymentTypes, 'Payment') })
  })

  test('behavior: it does not apply to a contract that is not a vault, a vault not yet deployed, another chain or another domain', () => {
    const noProxies: WalletKnowledge = { ...wallet, implementationOf: () => undefined }
    expect(bindDescriptor(payment, request, noProxies)).toHaveProperty('refused')
    expect(bindDescriptor(payment, { ...request, domain: { ...request.domain, chainId: 1 } }, wallet)).toHaveProperty('refused')
    expect(bindDescriptor(payment, { ...request, domain: { ...request.domain, version: '1' } }, wallet)).toHaveProperty('refused')
    expect(bindDescriptor(payment, { ...request, domain: { ...request.domain, name: 'svc-checkout' } }, wallet)).toHaveProperty('refused')
  })

  test('behavior: a message whose type differs by one member finds no format', () => {
    const types = { ...request.types, Payment: request.types.Payment!.filter((member) => member.name !== 'fromWallet') }
    expect(bindDescriptor(payment, { ...request, types }, wallet)).toEqual({ refused: expect.stringContaining('no format for') })
  })
})

describe('render', () => {
  test('behavior: a payment from the vault', () => {
    const request = asRequested(paymentTypedData(chainId, paymentMessage(payCall, vault, userOpHash)))
    const screen = renderDescriptor(payment, request, wallet)
    expect([screen.intent, ...screen.lines]).toEqual([
      'Pay invoice',
      'Invoice no.: 2',
      'Amount: 248 USDC',
      'To: 0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      "Merchant's fee: 1%",
      `Invoice registry: ${registry}`,
      'Payment account: 0x7a417e5e1F0e6F3B2c1D0a9B8C7D6e5F4A3B2c1d',
      'Valid until: 2026-11-24T14:05:00Z',
    ])
    expect(screen.interpolatedIntent).toBe('Pay invoice no. 2: 248 USDC to 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 until 2026-11-24T14:05:00Z')
  })

  test('behavior: a funded payment also shows what comes from the wallet', () => {
    const request = asRequested(paymentTypedData(chainId, paymentMessage(fundedPayCall, vault, userOpHash)))
    const screen = renderDescriptor(payment, request, wallet)
    expect([screen.intent, ...screen.lines]).toEqual([
      'Pay invoice',
      'Invoice no.: 2',
      'Amount: 248 USDC',
      'From your wallet: 201 USDC',
      'To: 0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      "Merchant's fee: 1%",
      `Invoice registry: ${registry}`,
      'Payment account: 0x7a417e5e1F0e6F3B2c1D0a9B8C7D6e5F4A3B2c1d',
      'Valid until: 2026-11-24T14:05:00Z',
    ])
  })

  test('behavior: a wallet with trusted names shows them instead of addresses', () => {
    const request = asRequested(paymentTypedData(chainId, paymentMessage(payCall, vault, userOpHash)))
    const screen = renderDescriptor(payment, request, { ...wallet, names: { [merchant]: 'Northwind', [vault]: 'My svc-checkout vault' } })
    expect(screen.lines).toContain('To: Northwind')
    expect(screen.lines).toContain('Payment account: My svc-checkout vault')
    expect(screen.interpolatedIntent).toBe('Pay invoice no. 2: 248 USDC to Northwind until 2026-11-24T14:05:00Z')
  })

  test('behavior: a wallet that shows moments its own way shows the deadline so, in its lines and in the intent', () => {
    const request = asRequested(paymentTypedData(chainId, paymentMessage(payCall, vault, userOpHash)))
    const screen = renderDescriptor(payment, request, { ...wallet, formatDate: (seconds) => `at ${seconds}` })
    expect(screen.lines).toContain(`Valid until: at ${Date.parse('2026-11-24T14:05:00Z') / 1000}`)
    expect(screen.interpolatedIntent).toMatch(/ until at \d+$/)
  })

  test('behavior: a wallet that writes amounts its own way writes each known token amount so, in its lines and in the intent; the Unlimited threshold and an unknown token stay as the descriptor says', () => {
    const formatAmount = (amount: bigint, token: { ticker: string; decimals: number }) => `${amount}/${token.decimals} ${token.ticker}`
    const funded = renderDescriptor(payment, asRequested(paymentTypedData(chainId, paymentMessage(fundedPayCall, vault, userOpHash))), { ...wallet, formatAmount })
    expect(funded.lines.slice(1, 3)).toEqual(['Amount: 248000000/6 USDC', 'From your wallet: 201000000/6 USDC'])
    expect(funded.interpolatedIntent).toMatch(/^Pay invoice no\. 2: 248000000\/6 USDC to /)
    const unlimited = asRequested(permitTypedData(permitDomain, { owner: payer, spender: vault, value: 2n ** 256n - 1n, nonce: 0n, deadline: validUntil }))
    expect(renderDescriptor(permit, unlimited, { ...wallet, formatAmount }).lines).toContain('Amount: Unlimited USDC')
    const request = asRequested(paymentTypedData(chainId, paymentMessage(payCall, vault, userOpHash)))
    expect(renderDescriptor(payment, request, { ...wallet, tokens: [], formatAmount }).lines).toContain('Amount: 248000000 (Unknown token)')
  })

  test('behavior: a token the wallet does not know is shown raw with a warning', () => {
    const request = asRequested(paymentTypedData(chainId, paymentMessage(payCall, vault, userOpHash)))
    expect(renderDescriptor(payment, request, { ...wallet, tokens: [] }).lines).toContain('Amount: 248000000 (Unknown token)')
  })

  test("behavior: the vault's permit to the registry", () => {
    const request = asRequested(permitTypedData(permitDomain, { owner: vault, spender: registry, value: 248_000_000n, nonce: 0n, deadline: validUntil }))
    const screen = renderDescriptor(permit, request, wallet)
    expect([screen.intent, ...screen.lines]).toEqual([
      'Authorize spending of tokens',
      'Spender: 0xF79F208233f2A182aDcef8415AF21E65aE888181',
      'Amount: 248 USDC',
      'Valid until: 2026-11-24T14:05:00Z',
    ])
  })

  test("behavior: the funding permit from the payer's account to the vault", () => {
    const request = asRequested(permitTypedData(permitDomain, { owner: payer, spender: vault, value: 201_000_000n, nonce: 3n, deadline: validUntil }))
    const screen = renderDescriptor(permit, request, wallet)
    expect([screen.intent, ...screen.lines]).toEqual([
      'Authorize spending of tokens',
      'Spender: 0x7a417e5e1F0e6F3B2c1D0a9B8C7D6e5F4A3B2c1d',
      'Amount: 201 USDC',
      'Valid until: 2026-11-24T14:05:00Z',
    ])
  })

  test('behavior: a permit for the largest amounts reads Unlimited', () => {
    const request = asRequested(permitTypedData(permitDomain, { owner: payer, spender: vault, value: 2n ** 256n - 1n, nonce: 0n, deadline: validUntil }))
    expect(renderDescriptor(permit, request, wallet).lines).toContain('Amount: Unlimited USDC')
  })

  test('behavior: the devnet Permit descriptor does not apply to another token with the same domain', () => {
    const request = asRequested(permitTypedData({ ...permitDomain, verifyingContract: registry }, { owner: payer, spender: vault, value: 1n, nonce: 0n, deadline: validUntil }))
    expect(() => renderDescriptor(permit, request, wallet)).toThrow('does not apply')
  })
})

describe('test vectors', () => {
  // clear-signing/tests/ pairs each descriptor with the messages the page requests and the texts a
  // wallet shows, in the registry's tests format, for wallet vendors to check their rendering against
  const vectors: Record<string, TypedDataRequest[]> = {
    [paymentFile]: [
      asRequested(paymentTypedData(chainId, paymentMessage(payCall, vault, userOpHash))),
      asRequested(paymentTypedData(chainId, paymentMessage(fundedPayCall, vault, userOpHash))),
    ],
    [permitFile]: [
      asRequested(permitTypedData(permitDomain, { owner: vault, spender: registry, value: 248_000_000n, nonce: 0n, deadline: validUntil })),
      asRequested(permitTypedData(permitDomain, { owner: payer, spender: vault, value: 201_000_000n, nonce: 3n, deadline: validUntil })),
    ],
  }
  type TestsFile = { tests: { description: string; data: TypedDataRequest; expectedTexts: string[] }[] }
  const testsFile = (file: string) => readJson(`tests/${file.replace(/\.json$/, '.tests.json')}`) as TestsFile
  const validateTests = schemaValidator().compile(readJson('schemas/erc7730-tests.schema.json') as object)

  test.each(Object.keys(vectors))('behavior: the vectors for %s are the messages the page requests, with the texts rendered', (file) => {
    const vectorsFile = testsFile(file)
    expect(validateTests(vectorsFile), JSON.stringify(validateTests.errors)).toBe(true)
    expect(vectorsFile.tests.map((vector) => vector.data)).toEqual(vectors[file])
    for (const vector of vectorsFile.tests) {
      const screen = renderDescriptor(descriptors[file]!, vector.data, wallet)
      const texts = [screen.intent, ...screen.lines.flatMap((line) => line.split(/: (.*)/s, 2))]
      expect(vector.expectedTexts).toEqual(texts)
    }
  })
})
