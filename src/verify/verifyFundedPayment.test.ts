import { encodeFunctionData, type Address, type Hex } from 'viem'
import type { UserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { decodeFundedPayCallData, encodeFundedPayCallData, vaultExecuteBatchAbi, type FundedPayCall } from '../../shared/fundedPayCall'
import { tokenPermitAbi, tokenTransferFromAbi } from '../../shared/tokenAbi'
import { encodePayCallData, registryPayAbi } from '../../shared/payCall'
import { paymentInvoice } from './paymentInvoice'
import { prepareTestPayment, signTestFunding, signTestPermit, testDeployment, testInvoice, type PrepareTestPaymentParameters } from './preparedPayment.fixture'
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
  const expected = { deployment, invoice: paymentInvoice(invoice), vault, owner: owner.address, vaultDeployed: true, permit, funding, entryPointNonce: 0n, now }
  /** What a server answers, honest or, with `tamper`, dishonest but consistent in its hash. */
  async function verify(tamper?: PrepareTestPaymentParameters['tamper'], changes: Partial<PrepareTestPaymentParameters> = {}) {
    const prepared = await prepareTestPayment({ ...server, ...changes, ...(tamper ? { tamper } : {}) })
    return verifyPreparedPayment({ ...expected, prepared })
  }
  return { deployment, owner, vault, invoice, permit, funding, verify }
}

const codes = (result: VerifyPreparedPaymentReturnType) => (result.ok ? [] : result.problems.map((problem) => problem.code))

/** A dishonest server rewrites the funded call before hashing the operation. */
function rewriting(change: (call: FundedPayCall) => FundedPayCall) {
  return (userOp: UserOperation<'0.7'>): UserOperation<'0.7'> => ({ ...userOp, callData: encodeFundedPayCallData(change(decodeFundedPayCallData(userOp.callData))) })
}

/** A dishonest server replaces the batch with its own. */
function batchOf(call: FundedPayCall, { dest, value, func }: { dest?: (calls: Calls) => Address[]; value?: bigint[]; func?: (calls: Calls) => Hex[] }) {
  const calls = callsOf(call)
  return (userOp: UserOperation<'0.7'>): UserOperation<'0.7'> => ({
    ...userOp,
    callData: encodeFunctionData({
      abi: vaultExecuteBatchAbi,
      functionName: 'executeBatch',
      args: [dest ? dest(calls) : [call.token, call.token, call.registry], value ?? [0n, 0n, 0n], func ? func(calls) : [calls.permit, calls.transfer, calls.pay]],
    }),
  })
}

type Calls = ReturnType<typeof callsOf>

function callsOf({ token, invoiceId, permit, funding }: FundedPayCall) {
  const { from, to, amount } = funding
  return {
    token,
    permit: encodeFunctionData({ abi: tokenPermitAbi, functionName: 'permit', args: [from, to, amount, funding.permit.deadline, funding.permit.v, funding.permit.r, funding.permit.s] }),
    transfer: encodeFunctionData({ abi: tokenTransferFromAbi, functionName: 'transferFrom', args: [from, to, amount] }),
    pay: encodeFunctionData({ abi: registryPayAbi, functionName: 'pay', args: [invoiceId, permit.deadline, permit.v, permit.r, permit.s] }),
  }
}

describe('verifyPreparedPayment of a payment funded from the payer\'s account', () => {
  test('default: accepts exactly [permit, transferFrom, pay] with the signed permits, sponsored until the earlier permit', async () => {
    const { verify, funding } = await scenario()
    const result = await verify()
    expect(codes(result)).toEqual([])
    expect(result.ok && result.window.validUntil).toBe(Number(funding.permit.deadline))
  })

  test('behavior: a funded batch moving the funds to another spender is unsafe', async () => {
    const { verify } = await scenario()
    const stranger = someAddress()
    expect(codes(await verify(rewriting((call) => ({ ...call, funding: { ...call.funding, to: stranger } }))))).toEqual(['FUNDING_SPENDER_MISMATCH'])
  })

  test('behavior: a funded batch taking another value than the vault lacks is unsafe', async () => {
    const { verify } = await scenario()
    expect(codes(await verify(rewriting((call) => ({ ...call, funding: { ...call.funding, amount: call.funding.amount + 1n } }))))).toEqual(['FUNDING_AMOUNT_MISMATCH'])
  })

  test('behavior: a funded batch taking from another owner than the connected account is unsafe', async () => {
    const { verify } = await scenario()
    const stranger = someAddress()
    expect(codes(await verify(rewriting((call) => ({ ...call, funding: { ...call.funding, from: stranger } }))))).toEqual(['FUNDING_OWNER_MISMATCH'])
  })

  test('behavior: another funding permit than the one signed, or the pay call with another permit, is unsafe', async () => {
    const { verify } = await scenario()
    const otherR = `0x${'77'.repeat(32)}` as const
    expect(codes(await verify(rewriting((call) => ({ ...call, funding: { ...call.funding, permit: { ...call.funding.permit, r: otherR } } }))))).toEqual(['FUNDING_PERMIT_MISMATCH'])
    expect(codes(await verify(rewriting((call) => ({ ...call, permit: { ...call.permit, r: otherR } }))))).toEqual(['PERMIT_MISMATCH'])
  })

  test('behavior: the transfer through another token, or the payment to another registry, is unsafe', async () => {
    const { verify } = await scenario()
    expect(codes(await verify(rewriting((call) => ({ ...call, token: someAddress() }))))).toEqual(['CALL_TARGET_MISMATCH'])
    expect(codes(await verify(rewriting((call) => ({ ...call, registry: someAddress() }))))).toEqual(['CALL_TARGET_MISMATCH'])
  })

  test('behavior: an extra call in the batch is unsafe', async () => {
    const { verify, deployment, invoice, permit, funding } = await scenario()
    const call: FundedPayCall = { token: deployment.token, registry: deployment.registry, invoiceId: BigInt(invoice.id), permit, funding }
    const drain = encodeFunctionData({ abi: tokenTransferFromAbi, functionName: 'transferFrom', args: [funding.from, someAddress(), 1n] })
    const extra = batchOf(call, { dest: (c) => [c.token, c.token, deployment.registry, c.token], value: [0n, 0n, 0n, 0n], func: (c) => [c.permit, c.transfer, c.pay, drain] })
    expect(codes(await verify(extra))).toEqual(['CALL_COUNT_MISMATCH'])
  })

  test('behavior: reordered calls are unsafe', async () => {
    const { verify, deployment, invoice, permit, funding } = await scenario()
    const call: FundedPayCall = { token: deployment.token, registry: deployment.registry, invoiceId: BigInt(invoice.id), permit, funding }
    const reordered = batchOf(call, { dest: (c) => [deployment.registry, c.token, c.token], func: (c) => [c.pay, c.permit, c.transfer] })
    expect(codes(await verify(reordered))).toEqual(['CALL_ORDER_MISMATCH'])
  })

  test('behavior: a call sending native currency is unsafe', async () => {
    const { verify, deployment, invoice, permit, funding } = await scenario()
    const call: FundedPayCall = { token: deployment.token, registry: deployment.registry, invoiceId: BigInt(invoice.id), permit, funding }
    expect(codes(await verify(batchOf(call, { value: [0n, 1n, 0n] })))).toEqual(['CALL_VALUE_NONZERO'])
  })

  test('behavior: a plain payment where the payer signed a funding permit is unsafe', async () => {
    const { verify, deployment, invoice, permit } = await scenario()
    const plain = (userOp: UserOperation<'0.7'>) => ({ ...userOp, callData: encodePayCallData({ registry: deployment.registry, invoiceId: BigInt(invoice.id), permit }) })
    expect(codes(await verify(plain))).toEqual(['CALLDATA_UNDECODABLE'])
  })

  test('behavior: a sponsorship outliving the funding permit is unsafe', async () => {
    const { verify } = await scenario()
    expect(codes(await verify(undefined, { sponsorship: { validUntil: Number(deadline), validAfter: 0 } }))).toEqual(['SPONSORSHIP_OUTLIVES_PERMIT'])
  })
})
