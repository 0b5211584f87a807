import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { permitTypes } from '../../shared/permit'
import type { PermitToSign } from '../../shared/wire'
import { paymentInvoice } from './paymentInvoice'
import { testDeployment, testInvoice } from './preparedPayment.fixture'
import { verifyPermitToSign, type VerifyPermitToSignReturnType } from './verifyPermitToSign'

const now = Date.UTC(2026, 0, 15, 12)
const nowSeconds = now / 1000

function someAddress() {
  return privateKeyToAccount(generatePrivateKey()).address
}

function scenario() {
  const deployment = testDeployment()
  const vault = someAddress()
  const invoice = testInvoice(deployment)
  /** POST /permit as an honest server answers it. */
  const permitToSign: PermitToSign = {
    domain: { name: 'USD Coin', version: '2', chainId: deployment.chainId, verifyingContract: deployment.token },
    types: { Permit: permitTypes.Permit.map((field) => ({ ...field })) },
    primaryType: 'Permit',
    message: { owner: vault, spender: deployment.registry, value: invoice.amount, nonce: '4', deadline: String(nowSeconds + 3600) },
  }
  // the permit names no fee (only the operation's payment does): the flow asks with none, as here
  const expected = { deployment, vault, invoice: paymentInvoice(invoice, 0), nonce: 4n, now }
  return { deployment, vault, invoice, permitToSign, expected }
}

function codes(result: VerifyPermitToSignReturnType) {
  return result.ok ? [] : result.problems.map((problem) => problem.code)
}

function withMessage(permitToSign: PermitToSign, change: Partial<PermitToSign['message']>): PermitToSign {
  return { ...permitToSign, message: { ...permitToSign.message, ...change } }
}

describe('verifyPermitToSign', () => {
  test('default: accepts an honest permit and returns the typed data to sign', () => {
    const { permitToSign, expected, deployment, vault } = scenario()
    const result = verifyPermitToSign(permitToSign, expected)
    expect(codes(result)).toEqual([])
    expect(result.ok && result.typedData).toEqual({
      domain: { name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: deployment.token },
      types: permitTypes,
      primaryType: 'Permit',
      message: { owner: vault, spender: deployment.registry, value: 248_000_000n, nonce: 4n, deadline: BigInt(nowSeconds + 3600) },
    })
  })

  test('behavior: the payer signs the rebuilt typed data, not what else the server sent', async () => {
    const { permitToSign, expected } = scenario()
    const padded = { ...permitToSign, message: { ...permitToSign.message, note: 'ignore me' } } as PermitToSign
    const result = verifyPermitToSign(padded, expected)
    expect(result.ok && Object.keys(result.typedData.message)).toEqual(['owner', 'spender', 'value', 'nonce', 'deadline'])
    const owner = privateKeyToAccount(generatePrivateKey())
    if (result.ok) expect(await owner.signTypedData(result.typedData)).toMatch(/^0x[0-9a-f]{130}$/)
  })

  test.each([
    ['name', { name: 'USD Coin (bridged)' }],
    ['version', { version: '1' }],
  ] as const)('behavior: refuses a permit domain with another %s than the pinned token\'s', (_, change) => {
    const { permitToSign, expected } = scenario()
    expect(codes(verifyPermitToSign({ ...permitToSign, domain: { ...permitToSign.domain, ...change } }, expected))).toEqual(['PERMIT_DOMAIN_MISMATCH'])
  })

  test('behavior: refuses a permit nonce other than the token\'s nonces(vault) read on-chain', () => {
    const { permitToSign, expected } = scenario()
    expect(codes(verifyPermitToSign(withMessage(permitToSign, { nonce: '5' }), expected))).toEqual(['PERMIT_NONCE_MISMATCH'])
    expect(codes(verifyPermitToSign(withMessage(permitToSign, { nonce: '5' }), { ...expected, nonce: 5n }))).toEqual([])
  })

  test('behavior: compares addresses whatever their casing', () => {
    const { permitToSign, expected, deployment, vault } = scenario()
    const lowered: PermitToSign = {
      ...withMessage(permitToSign, { owner: vault.toLowerCase() as never, spender: deployment.registry.toLowerCase() as never }),
      domain: { ...permitToSign.domain, verifyingContract: deployment.token.toLowerCase() as never },
    }
    const result = verifyPermitToSign(lowered, expected)
    expect(codes(result)).toEqual([])
    expect(result.ok && result.typedData.message.owner).toBe(vault)
  })

  test('behavior: refuses a permit for another chain', () => {
    const { permitToSign, expected } = scenario()
    const result = verifyPermitToSign({ ...permitToSign, domain: { ...permitToSign.domain, chainId: 1 } }, expected)
    expect(codes(result)).toEqual(['CHAIN_MISMATCH'])
    expect(!result.ok && result.problems[0]?.message).toBe('The permit is for chain 1, not chain 31337.')
  })

  test('behavior: refuses a permit for another token contract', () => {
    const { permitToSign, expected } = scenario()
    const result = verifyPermitToSign({ ...permitToSign, domain: { ...permitToSign.domain, verifyingContract: someAddress() } }, expected)
    expect(codes(result)).toEqual(['PERMIT_TOKEN_MISMATCH'])
  })

  test('behavior: refuses a primary type other than Permit', () => {
    const { permitToSign, expected } = scenario()
    const result = verifyPermitToSign({ ...permitToSign, primaryType: 'Transfer' } as unknown as PermitToSign, expected)
    expect(codes(result)).toEqual(['PRIMARY_TYPE_MISMATCH'])
  })

  test.each([
    ['a missing field', permitTypes.Permit.slice(0, 4)],
    ['an extra field', [...permitTypes.Permit, { name: 'extra', type: 'uint256' }]],
    ['reordered fields', [permitTypes.Permit[1], permitTypes.Permit[0], ...permitTypes.Permit.slice(2)]],
    ['a changed type', permitTypes.Permit.map((field) => (field.name === 'value' ? { ...field, type: 'uint128' } : field))],
  ])('behavior: refuses a Permit struct with %s', (_, fields) => {
    const { permitToSign, expected } = scenario()
    const result = verifyPermitToSign({ ...permitToSign, types: { Permit: fields as { name: string; type: string }[] } }, expected)
    expect(codes(result)).toEqual(['PERMIT_TYPES_MISMATCH'])
  })

  test('behavior: refuses typed data with a struct besides Permit', () => {
    const { permitToSign, expected } = scenario()
    const types = { ...permitToSign.types, Transfer: [{ name: 'to', type: 'address' }] }
    expect(codes(verifyPermitToSign({ ...permitToSign, types }, expected))).toEqual(['PERMIT_TYPES_MISMATCH'])
  })

  test('behavior: refuses a permit that spends from another account', () => {
    const { permitToSign, expected } = scenario()
    expect(codes(verifyPermitToSign(withMessage(permitToSign, { owner: someAddress() }), expected))).toEqual(['OWNER_MISMATCH'])
  })

  test('behavior: refuses a permit for a spender other than the registry', () => {
    const { permitToSign, expected } = scenario()
    expect(codes(verifyPermitToSign(withMessage(permitToSign, { spender: someAddress() }), expected))).toEqual(['SPENDER_MISMATCH'])
  })

  test('behavior: refuses a permit for more than the invoice amount', () => {
    const { permitToSign, expected } = scenario()
    expect(codes(verifyPermitToSign(withMessage(permitToSign, { value: '248000001' }), expected))).toEqual(['AMOUNT_MISMATCH'])
  })

  test.each([
    ['in the past', nowSeconds - 1, ['DEADLINE_PASSED']],
    ['now', nowSeconds, ['DEADLINE_PASSED']],
    ['one second ahead', nowSeconds + 1, []],
    ['exactly 24 hours ahead', nowSeconds + 86_400, []],
    ['over 24 hours ahead', nowSeconds + 86_401, ['DEADLINE_TOO_FAR']],
  ])('behavior: a deadline %s', (_, deadline, expectedCodes) => {
    const { permitToSign, expected } = scenario()
    expect(codes(verifyPermitToSign(withMessage(permitToSign, { deadline: String(deadline) }), expected))).toEqual(expectedCodes)
  })

  test('behavior: refuses an invoice in a token the build does not accept', () => {
    const { permitToSign, expected } = scenario()
    const result = verifyPermitToSign(permitToSign, { ...expected, invoice: { ...expected.invoice, token: someAddress() } })
    expect(codes(result)).toEqual(['TOKEN_NOT_ACCEPTED'])
  })
})
