import { parseUnits, zeroHash } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { decodeFundedPayCallData, encodeFundedPayCallData } from '../../shared/fundedPayCall'
import { signFundingPermit } from '../support/devnet'
import { useServerWithRpcBundler } from '../support/rpcBundlerContext'
import { api, permitAndPrepare, signUserOp, type FundingBody } from '../support/server'

// sponsorships as long as the permits allow: what is tested here is which permit ends them
const ctx = useServerWithRpcBundler({ SPONSORSHIP_WINDOW_SECONDS: '86400' })
const base = () => ctx.server.url
const { balanceOf } = ctx.devnet
const usdc = (amount: string) => parseUnits(amount, 6)
const statusOf = async (id: bigint) => (await api(base(), `/v1/pay/${id}`)).body.data.status
const sponsorshipCalls = () => (ctx.bundler.calls.pm_getPaymasterStubData ?? 0) + (ctx.bundler.calls.pm_getPaymasterData ?? 0)

type Payer = Awaited<ReturnType<typeof ctx.devnet.newPayer>>

/** The owner's permit letting its vault take `amount`, as a client sends it; `signer` and `from` are
 * the payer's own unless a test says otherwise. */
async function fundingFor(payer: Payer, amount: bigint, { signer = payer.ownerPrivateKey, from = payer.owner, spender = payer.vault } = {}): Promise<FundingBody> {
  const { timestamp } = await ctx.devnet.clients.public.getBlock()
  const signed = await signFundingPermit(ctx.devnet.clients.public, ctx.devnet.deployment, {
    ownerPrivateKey: signer,
    owner: from,
    vault: spender,
    value: amount,
    deadline: timestamp + 1_800n,
  })
  return { from, amount: amount.toString(), permit: { deadline: signed.deadline.toString(), v: signed.v, r: signed.r, s: signed.s } }
}

/** permit → prepare with funding → sign → submit. */
async function payFunded(invoiceId: bigint, payer: Payer, funding: FundingBody) {
  const { prepared, permitSignature } = await permitAndPrepare(base(), invoiceId, payer, undefined, { funding: funding })
  if (prepared.status !== 200) throw new Error(`prepare: ${prepared.status} ${JSON.stringify(prepared.body)}`)
  const userOp = await signUserOp(payer, prepared.body.userOp, prepared.body.userOpHash)
  const { v, r, s } = permitSignature
  return { prepared, userOp, submit: await api(base(), `/v1/pay/${invoiceId}`, { userOp, permitSignature: { v, r, s } }) }
}

async function merchantNet(amount: bigint): Promise<bigint> {
  const bps = await ctx.devnet.clients.public.readContract({
    address: ctx.devnet.deployment.registry,
    abi: invoiceRegistryAbi,
    functionName: 'feeBpsFor',
    args: [ctx.devnet.seed.merchant.vault],
  })
  return amount - (amount * BigInt(bps)) / 10_000n
}

describe('paying from the wallet the payer already has', () => {
  test('behavior: an empty vault is funded from the owner account and pays in one sponsored operation; the account needs no ETH', async () => {
    const invoice = await ctx.devnet.newInvoice(usdc('248'))
    const payer = await ctx.devnet.newPayer(0n, usdc('300'))
    expect(await ctx.devnet.clients.public.getBalance({ address: payer.owner })).toBe(0n)
    const merchantBefore = await balanceOf(ctx.devnet.seed.merchant.vault)
    const { submit, prepared } = await payFunded(invoice.id, payer, await fundingFor(payer, usdc('248')))
    expect(submit.status).toBe(200)
    expect(await statusOf(invoice.id)).toBe('Paid')
    expect(await balanceOf(payer.owner)).toBe(usdc('52'))
    expect(await balanceOf(payer.vault)).toBe(0n)
    expect((await balanceOf(ctx.devnet.seed.merchant.vault)) - merchantBefore).toBe(await merchantNet(usdc('248')))
    const call = decodeFundedPayCallData(prepared.body.userOp.callData)
    // the vault takes only from its own owner into itself (contracts/PayerVault.sol): the call names the amount
    expect(call).toMatchObject({
      token: ctx.devnet.deployment.token,
      registry: ctx.devnet.deployment.registry,
      invoiceId: invoice.id,
      merchant: ctx.devnet.seed.merchant.vault,
      amount: usdc('248'),
      funding: { amount: usdc('248') },
    })
  })

  test('behavior: /permit with fundingFrom offers the owner\'s permit for exactly what the vault lacks, until the same deadline; none while the vault holds enough', async () => {
    const invoice = await ctx.devnet.newInvoice(usdc('248'))
    const payer = await ctx.devnet.newPayer(usdc('47'), usdc('500'))
    const { status, body } = await api(base(), `/v1/pay/${invoice.id}/permit`, { payerAddress: payer.vault, fundingFrom: payer.owner })
    expect(status).toBe(200)
    expect(body.fundingPermitToSign.domain).toEqual(body.permitToSign.domain)
    expect(body.fundingPermitToSign.message).toEqual({
      owner: payer.owner,
      spender: payer.vault,
      value: usdc('201').toString(),
      nonce: '0',
      deadline: body.permitToSign.message.deadline,
    })
    const rich = await ctx.devnet.newPayer(usdc('300'))
    const enough = await api(base(), `/v1/pay/${invoice.id}/permit`, { payerAddress: rich.vault, fundingFrom: rich.owner })
    expect(enough.status).toBe(200)
    expect(enough.body.fundingPermitToSign).toBeUndefined()
    const stranger = await api(base(), `/v1/pay/${invoice.id}/permit`, { payerAddress: payer.vault, fundingFrom: rich.owner })
    expect(stranger.status).toBe(400)
    expect(stranger.body.code).toBe('FUNDING_OWNER_MISMATCH')
  })

  test('behavior: a split payment takes from the account only what the vault lacks, and the vault ends empty', async () => {
    const invoice = await ctx.devnet.newInvoice(usdc('248'))
    const payer = await ctx.devnet.newPayer(usdc('47'), usdc('500'))
    const { submit } = await payFunded(invoice.id, payer, await fundingFor(payer, usdc('201')))
    expect(submit.status).toBe(200)
    expect(await balanceOf(payer.owner)).toBe(usdc('299'))
    expect(await balanceOf(payer.vault)).toBe(0n)
  })

  test('behavior: the sponsorship and the prepared payment end with the earlier of the two permits', async () => {
    const invoice = await ctx.devnet.newInvoice(usdc('10'))
    const payer = await ctx.devnet.newPayer(0n, usdc('10'))
    const funding = await fundingFor(payer, usdc('10'))
    // the vault's permit runs an hour, the funding permit half that
    const { prepared } = await permitAndPrepare(base(), invoice.id, payer, undefined, { funding: funding })
    expect(prepared.status).toBe(200)
    expect(Date.parse(prepared.body.expiresAt) / 1000).toBe(Number(funding.permit.deadline) - 120)
    const validUntil = BigInt(`0x${prepared.body.userOp.paymasterData.slice(2, 66)}`)
    expect(validUntil).toBe(BigInt(funding.permit.deadline))
  })

  test('behavior: a funding permit for another owner, another amount or with a bad signature is refused by code, with zero sponsorship calls', async () => {
    const invoice = await ctx.devnet.newInvoice(usdc('30'))
    const payer = await ctx.devnet.newPayer(usdc('10'), usdc('100'))
    const stranger = await ctx.devnet.newPayer(0n, usdc('100'))
    const cases: [string, FundingBody, string][] = [
      ['another owner', await fundingFor(payer, usdc('20'), { signer: stranger.ownerPrivateKey, from: stranger.owner }), 'FUNDING_OWNER_MISMATCH'],
      ['more than the vault lacks', await fundingFor(payer, usdc('30')), 'FUNDING_AMOUNT_MISMATCH'],
      ['less than the vault lacks', await fundingFor(payer, usdc('19')), 'FUNDING_AMOUNT_MISMATCH'],
      ['signed by another key', await fundingFor(payer, usdc('20'), { signer: generatePrivateKey() }), 'FUNDING_PERMIT_INVALID'],
      ['for another spender', await fundingFor(payer, usdc('20'), { spender: stranger.vault }), 'FUNDING_PERMIT_INVALID'],
    ]
    const before = sponsorshipCalls()
    for (const [name, funding, code] of cases) {
      const { prepared } = await permitAndPrepare(base(), invoice.id, payer, undefined, { funding: funding })
      expect(prepared.status, name).toBe(400)
      expect(prepared.body, name).toMatchObject({ error: code, code })
    }
    expect(sponsorshipCalls()).toBe(before)
    expect(await balanceOf(payer.owner)).toBe(usdc('100'))
  })

  test('behavior: an account that holds less than the vault lacks is told so before anything is sponsored', async () => {
    const invoice = await ctx.devnet.newInvoice(usdc('30'))
    const payer = await ctx.devnet.newPayer(0n, usdc('12'))
    const before = sponsorshipCalls()
    const { prepared } = await permitAndPrepare(base(), invoice.id, payer, undefined, { funding: await fundingFor(payer, usdc('30')) })
    expect(prepared.body).toMatchObject({ code: 'INSUFFICIENT_BALANCE', balance: '12000000', required: '30000000' })
    expect(sponsorshipCalls()).toBe(before)
  })

  test('behavior: a funding permit v given as its y-parity bit is taken as 27 or 28', async () => {
    const invoice = await ctx.devnet.newInvoice(usdc('5'))
    const payer = await ctx.devnet.newPayer(0n, usdc('5'))
    const funding = await fundingFor(payer, usdc('5'))
    const { submit } = await payFunded(invoice.id, payer, { ...funding, permit: { ...funding.permit, v: funding.permit.v - 27 } })
    expect(submit.status).toBe(200)
    expect(await balanceOf(payer.owner)).toBe(0n)
  })

  test('behavior: a payment that fails inside the batch leaves the account\'s funds where they were: the whole operation reverts', async () => {
    const invoice = await ctx.devnet.newInvoice(usdc('40'))
    const payer = await ctx.devnet.newPayer(usdc('15'), usdc('100'))
    const { prepared, permitSignature } = await permitAndPrepare(base(), invoice.id, payer, undefined, { funding: await fundingFor(payer, usdc('25')) })
    const userOp = await signUserOp(payer, prepared.body.userOp, prepared.body.userOpHash)
    ctx.bundler.hold()
    const { v, r, s } = permitSignature
    const submitted = await api(base(), `/v1/pay/${invoice.id}`, { userOp, permitSignature: { v, r, s } })
    expect(submitted.status).toBe(202)
    // the merchant cancels while the operation waits: the registry refuses the pay call on-chain
    await ctx.devnet.cancelInvoice(invoice.id)
    await ctx.bundler.release()
    const settled = await api(base(), `/v1/pay/${invoice.id}`, { userOp, permitSignature: { v, r, s } })
    expect(settled.body.code).toBe('TRANSACTION_FAILED')
    expect(await statusOf(invoice.id)).toBe('Canceled')
    expect(await balanceOf(payer.owner)).toBe(usdc('100'))
    expect(await balanceOf(payer.vault)).toBe(usdc('15'))
  })

  test('behavior: a funded operation without its signed funding permit is 400 USEROP_PERMIT_MISMATCH', async () => {
    const invoice = await ctx.devnet.newInvoice(usdc('8'))
    const payer = await ctx.devnet.newPayer(0n, usdc('8'))
    const { prepared } = await permitAndPrepare(base(), invoice.id, payer, undefined, { funding: await fundingFor(payer, usdc('8')) })
    const call = decodeFundedPayCallData(prepared.body.userOp.callData)
    const unsigned = encodeFundedPayCallData({ ...call, funding: { ...call.funding, permit: { ...call.funding.permit, r: zeroHash, s: zeroHash } } })
    const tampered = await signUserOp(payer, { ...prepared.body.userOp, callData: unsigned }, prepared.body.userOpHash)
    const { status, body } = await api(base(), `/v1/pay/${invoice.id}`, { userOp: tampered })
    expect(status).toBe(400)
    expect(body.code).toBe('USEROP_PERMIT_MISMATCH')
    expect(await balanceOf(payer.owner)).toBe(usdc('8'))
  })

  test('behavior: without funding the route is the SPEC\'s: a vault that lacks funds is INSUFFICIENT_BALANCE', async () => {
    const invoice = await ctx.devnet.newInvoice(usdc('30'))
    const payer = await ctx.devnet.newPayer(usdc('10'), usdc('100'))
    const { prepared } = await permitAndPrepare(base(), invoice.id, payer)
    expect(prepared.body).toMatchObject({ code: 'INSUFFICIENT_BALANCE', balance: '10000000', required: '30000000' })
  })
})
