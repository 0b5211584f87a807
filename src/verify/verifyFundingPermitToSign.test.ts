import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { permitTypes } from '../../shared/permit'
import type { PermitToSign } from '../../shared/wire'
import { testDeployment } from './preparedPayment.fixture'
import { verifyFundingPermitToSign } from './verifyFundingPermitToSign'
import type { VerifyPermitToSignReturnType } from './verifyPermitToSign'

const now = Date.UTC(2026, 0, 15, 12)
const nowSeconds = now / 1000
const someAddress = () => privateKeyToAccount(generatePrivateKey()).address

function scenario() {
  const deployment = testDeployment()
  const account = someAddress()
  const vault = someAddress()
  /** The funding permit as an honest server offers it: the account lets its vault take 201 USDC. */
  const permitToSign: PermitToSign = {
    domain: { name: 'USD Coin', version: '2', chainId: deployment.chainId, verifyingContract: deployment.token },
    types: { Permit: permitTypes.Permit.map((field) => ({ ...field })) },
    primaryType: 'Permit',
    message: { owner: account, spender: vault, value: '201000000', nonce: '2', deadline: String(nowSeconds + 3600) },
  }
  const expected = { deployment, account, vault, shortfall: 201_000_000n, nonce: 2n, permitDeadline: BigInt(nowSeconds + 3600), now }
  return { deployment, account, vault, permitToSign, expected }
}

const codes = (result: VerifyPermitToSignReturnType) => (result.ok ? [] : result.problems.map((problem) => problem.code))
const withMessage = (permitToSign: PermitToSign, change: Partial<PermitToSign['message']>): PermitToSign => ({
  ...permitToSign,
  message: { ...permitToSign.message, ...change },
})

describe('verifyFundingPermitToSign', () => {
  test('default: accepts the honest funding permit and returns typed data rebuilt from the pinned token, the account, its vault and the shortfall', () => {
    const { permitToSign, expected, deployment, account, vault } = scenario()
    const result = verifyFundingPermitToSign(permitToSign, expected)
    expect(codes(result)).toEqual([])
    expect(result.ok && result.typedData).toEqual({
      domain: { name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: deployment.token },
      types: permitTypes,
      primaryType: 'Permit',
      message: { owner: account, spender: vault, value: 201_000_000n, nonce: 2n, deadline: BigInt(nowSeconds + 3600) },
    })
  })

  test('behavior: a funding permit letting anyone but the payer\'s vault take from the wallet is unsafe', () => {
    const { permitToSign, expected } = scenario()
    expect(codes(verifyFundingPermitToSign(withMessage(permitToSign, { spender: someAddress() }), expected))).toEqual(['FUNDING_SPENDER_MISMATCH'])
  })

  test('behavior: a funding permit for more or less than the vault lacks is unsafe; so is one when the vault lacks nothing', () => {
    const { permitToSign, expected } = scenario()
    expect(codes(verifyFundingPermitToSign(withMessage(permitToSign, { value: '201000001' }), expected))).toEqual(['FUNDING_AMOUNT_MISMATCH'])
    expect(codes(verifyFundingPermitToSign(withMessage(permitToSign, { value: '1' }), expected))).toEqual(['FUNDING_AMOUNT_MISMATCH'])
    expect(codes(verifyFundingPermitToSign(withMessage(permitToSign, { value: '0' }), { ...expected, shortfall: 0n }))).toEqual(['FUNDING_AMOUNT_MISMATCH'])
  })

  test('behavior: a funding permit from another account than the connected one is unsafe', () => {
    const { permitToSign, expected } = scenario()
    expect(codes(verifyFundingPermitToSign(withMessage(permitToSign, { owner: someAddress() }), expected))).toEqual(['FUNDING_OWNER_MISMATCH'])
  })

  test('behavior: a funding permit outliving the payment permit, or with another nonce than the chain\'s, is unsafe', () => {
    const { permitToSign, expected } = scenario()
    expect(codes(verifyFundingPermitToSign(withMessage(permitToSign, { deadline: String(nowSeconds + 3601) }), expected))).toEqual(['FUNDING_OUTLIVES_PERMIT'])
    expect(codes(verifyFundingPermitToSign(withMessage(permitToSign, { nonce: '3' }), expected))).toEqual(['FUNDING_NONCE_MISMATCH'])
  })

  test('behavior: a funding permit for another token or domain is unsafe', () => {
    const { permitToSign, expected } = scenario()
    const otherToken = { ...permitToSign, domain: { ...permitToSign.domain, verifyingContract: someAddress() } }
    expect(codes(verifyFundingPermitToSign(otherToken, expected))).toEqual(['PERMIT_TOKEN_MISMATCH'])
    const otherDomain = { ...permitToSign, domain: { ...permitToSign.domain, version: '1' } }
    expect(codes(verifyFundingPermitToSign(otherDomain, expected))).toEqual(['PERMIT_DOMAIN_MISMATCH'])
  })
})
