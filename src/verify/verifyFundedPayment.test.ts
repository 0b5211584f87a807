import { concat, getAddress, type Address } from 'viem'
import { getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { decodeFundedPayCallData, encodeFundedPayCallData, type FundedPayCall } from '../../shared/fundedPayCall'
import { encodePayCallData } from '../../shared/payCall'
import { fromWireUserOp } from '../../shared/userOpWire'
import { paymentInvoice } from './paymentInvoice'
import { prepareTestPayment, signTestFunding, signTestPermit, testDeployment, testFeeBps, testInvoice, testOnchainInvoice, type PrepareTestPaymentParameters } from './preparedPayment.fixture'
import { verifyPreparedPayment, type VerifyPreparedPaymentReturnType } from './verifyPreparedPayment'

const now = Date.UTC(2026, 0, 15, 12)
const deadline = BigInt(now / 1000) + 3600n
const someAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address

/** A payer whose vault holds 47 of the 248 USDC: the owner's account funds the other 201. */
async function scenario() {
  const deployment = testDeployment()
  const owner = privateKeyToAccount(generatePrivateKey())
  const vault = someAddress()
  const invoice = testInvoice(deployment)
  const permit = await signTestPermit(owner, { deployment, vault, value: BigInt(invoice.amount), deadline })
  const funding = await signTestFunding(owner, { deployment, vault, value: 201_000_000n, deadline: deadline - 600n })
  const server: PrepareTestPaymentParameters = { deployment, invoice, vault, owner: owner.address, vaultDeployed: true, permit, funding, paymasterSigner: privateKeyToAccount(generatePrivateKey()) }
  const expected = { deployment, invoice: paymentInvoice(invoice, testFeeBps), vault, owner: owner.address, vaultDeployed: true, permit, funding, entryPointNonce: 0n, now }
  /** What a server answers, honest or, with `tamper`, dishonest but consistent in its hash. */
  async function verify(tamper?: PrepareTestPaymentParameters['tamper'], changes: Partial<PrepareTestPaymentParameters> = {}) {
    const prepared = await prepareTestPayment({ ...server, ...changes, ...(tamper ? { tamper } : {}) })
    return { prepared, result: verifyPreparedPayment({ ...expected, prepared }) }
  }
  const verifyCodes = async (...args: Parameters<typeof verify>) => codes((await verify(...args)).result)
  return { deployment, owner, vault, invoice, permit, funding, verify, verifyCodes }
}

const codes = (result: VerifyPreparedPaymentReturnType) => (result.ok ? [] : result.problems.map((problem) => problem.code))

/** A dishonest server rewrites the funded call before hashing the operation. */
function rewriting(change: (call: FundedPayCall) => FundedPayCall) {
  return (userOp: UserOperation<'0.7'>): UserOperation<'0.7'> => ({ ...userOp, callData: encodeFundedPayCallData(change(decodeFundedPayCallData(userOp.callData))) })
}

describe('verifyPreparedPayment of a payment funded from the payer\'s account', () => {
  test('default: accepts exactly payInvoiceFromWallet with the signed permits and amount, sponsored until the earlier permit', async () => {
    const { verify, funding } = await scenario()
    const { result } = await verify()
    expect(codes(result)).toEqual([])
    expect(result.ok && result.window.validUntil).toBe(Number(funding.permit.deadline))
  })

  test('behavior: a funded call taking another amount from the wallet than the payer allowed is unsafe', async () => {
    const { verifyCodes } = await scenario()
    expect(await verifyCodes(rewriting((call) => ({ ...call, funding: { ...call.funding, amount: call.funding.amount + 1n } })))).toEqual(['FUNDING_AMOUNT_MISMATCH'])
    expect(await verifyCodes(rewriting((call) => ({ ...call, funding: { ...call.funding, amount: 0n } })))).toEqual(['FUNDING_AMOUNT_MISMATCH'])
  })

  test('behavior: another funding permit than the one signed, or the payment with another permit, is unsafe', async () => {
    const { verifyCodes } = await scenario()
    const otherR = `0x${'77'.repeat(32)}` as const
    expect(await verifyCodes(rewriting((call) => ({ ...call, funding: { ...call.funding, permit: { ...call.funding.permit, r: otherR } } })))).toEqual(['FUNDING_PERMIT_MISMATCH'])
    expect(await verifyCodes(rewriting((call) => ({ ...call, funding: { ...call.funding, permit: { ...call.funding.permit, deadline: deadline } } })))).toEqual(['FUNDING_PERMIT_MISMATCH'])
    expect(await verifyCodes(rewriting((call) => ({ ...call, permit: { ...call.permit, r: otherR } })))).toEqual(['PERMIT_MISMATCH'])
  })

  test('behavior: the two permits swapped is unsafe', async () => {
    const { verifyCodes } = await scenario()
    expect(await verifyCodes(rewriting((call) => ({ ...call, permit: call.funding.permit, funding: { ...call.funding, permit: call.permit } })))).toEqual([
      'PERMIT_MISMATCH',
      'FUNDING_PERMIT_MISMATCH',
    ])
  })

  test('behavior: a funded payment in another token, through another registry, to another merchant, of another amount or invoice is unsafe', async () => {
    const { verifyCodes } = await scenario()
    expect(await verifyCodes(rewriting((call) => ({ ...call, token: someAddress() })))).toEqual(['TOKEN_MISMATCH'])
    expect(await verifyCodes(rewriting((call) => ({ ...call, registry: someAddress() })))).toEqual(['CALL_TARGET_MISMATCH'])
    expect(await verifyCodes(rewriting((call) => ({ ...call, merchant: someAddress() })))).toEqual(['MERCHANT_MISMATCH'])
    expect(await verifyCodes(rewriting((call) => ({ ...call, amount: call.amount - 1n })))).toEqual(['AMOUNT_MISMATCH'])
    expect(await verifyCodes(rewriting((call) => ({ ...call, invoiceId: 4n })))).toEqual(['INVOICE_ID_MISMATCH'])
  })

  test('behavior: a funded payment naming another invoice number or another fee rate than the chain\'s is unsafe', async () => {
    const { verifyCodes } = await scenario()
    expect(await verifyCodes(rewriting((call) => ({ ...call, invoiceNumber: call.invoiceNumber + 1n })))).toEqual(['INVOICE_NUMBER_MISMATCH'])
    expect(await verifyCodes(rewriting((call) => ({ ...call, feeBps: 0 })))).toEqual(['FEE_MISMATCH'])
    // an honest server that read another fee than the chain's now: the call is refused all the same
    expect(await verifyCodes(undefined, { feeBps: testFeeBps + 50 })).toEqual(['FEE_MISMATCH'])
  })

  test('behavior: anything after the funded call (a second payment, a transfer) is unsafe', async () => {
    const { verifyCodes, deployment, invoice, permit } = await scenario()
    const plain = encodePayCallData({ registry: deployment.registry, invoiceId: BigInt(invoice.id), invoiceNumber: BigInt(invoice.invoiceNumber), merchant: invoice.merchant, token: deployment.token, amount: 1n, feeBps: testFeeBps, permit })
    expect(await verifyCodes((userOp) => ({ ...userOp, callData: concat([userOp.callData, plain]) }))).toEqual(['CALLDATA_NOT_CANONICAL'])
    expect(await verifyCodes((userOp) => ({ ...userOp, callData: concat([userOp.callData, '0x00']) }))).toEqual(['CALLDATA_NOT_CANONICAL'])
  })

  test('behavior: a plain payment where the payer signed a funding permit is unsafe', async () => {
    const { verify, deployment, invoice, permit } = await scenario()
    const plain = (userOp: UserOperation<'0.7'>) => ({
      ...userOp,
      callData: encodePayCallData({
        registry: deployment.registry,
        invoiceId: BigInt(invoice.id),
        invoiceNumber: BigInt(invoice.invoiceNumber),
        merchant: invoice.merchant,
        token: deployment.token,
        amount: BigInt(invoice.amount),
        feeBps: testFeeBps,
        permit,
      }),
    })
    const { result } = await verify(plain)
    expect(codes(result)).toEqual(['CALLDATA_UNDECODABLE'])
    expect(!result.ok && result.problems[0]?.message).toBe('The operation pays from your vault alone, without the funding from your wallet you signed.')
  })

  test('behavior: a sponsorship outliving the funding permit is unsafe', async () => {
    const { verifyCodes } = await scenario()
    expect(await verifyCodes(undefined, { sponsorship: { validUntil: Number(deadline), validAfter: 0 } })).toEqual(['SPONSORSHIP_OUTLIVES_PERMIT'])
  })

  test('behavior: the Payment message names the chain\'s invoice and what comes from the wallet, as signed', async () => {
    const { verify, deployment, invoice, vault, permit, funding } = await scenario()
    const { prepared, result } = await verify()
    if (!result.ok) throw new Error(codes(result).join())
    const onchain = testOnchainInvoice(invoice)
    expect(result.payment).toEqual({
      registry: getAddress(deployment.registry),
      invoice: 3n,
      invoiceNumber: onchain.invoiceNumber,
      merchant: getAddress(onchain.merchant),
      token: getAddress(onchain.token),
      amount: onchain.amount,
      feeBps: testFeeBps,
      fromWallet: funding.amount,
      vault: getAddress(vault),
      validUntil: permit.deadline,
      operation: getUserOperationHash({
        chainId: deployment.chainId,
        entryPointAddress: deployment.entryPoint,
        entryPointVersion: '0.7',
        userOperation: { ...fromWireUserOp(prepared.userOp), signature: '0x' },
      }),
    })
    expect(result.call).toEqual(decodeFundedPayCallData(fromWireUserOp(prepared.userOp).callData))
  })
})
