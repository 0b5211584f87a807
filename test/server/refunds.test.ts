import { getAddress, hashTypedData, parseEventLogs, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { issueInvoice } from '../../devnet/seed'
import { merchantVaultTypedData } from '../../shared/merchantVaultMessage'
import { freshMerchant, merchantCalls, ownerSigns, paidInvoice, randomAddress, tokenBalance, type FreshMerchant } from '../support/ownerOperations'
import { useServer } from '../support/server'
import { startWebhookReceiver, verified } from '../support/webhookReceiver'

const ctx = useServer({ overrides: { SUBMIT_WAIT_MS: '1500', WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_INTERVAL_MS: '100' } })
const usdc = (value: string) => parseUnits(value, 6)

let merchant: FreshMerchant
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>
const { post } = merchantCalls(ctx, () => merchant)

beforeAll(async () => {
  merchant = await freshMerchant(ctx, 'Refunds GmbH')
  receiver = await startWebhookReceiver()
})
afterAll(() => receiver?.close())

const prepare = (id: bigint, amount: bigint, ownerAddress = merchant.owner) => post(`/v1/invoices/${id}/refund/prepare`, { ownerAddress, amount: amount.toString() })
const submit = (id: bigint, userOp: unknown) => post(`/v1/invoices/${id}/refund`, { userOp })
const refundedOnChain = (id: bigint) => ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'refundedAmount', args: [id] })
const refund = async (id: bigint, amount: bigint) => {
  const prepared = await prepare(id, amount)
  expect(prepared.status).toBe(200)
  return submit(id, await ownerSigns(prepared.body, merchant.ownerPrivateKey))
}

describe('POST /v1/invoices/:id/refund', () => {
  test('default: two partial refunds reach the payer the registry recorded, each recorded on-chain and sent as invoice.refunded; a third beyond the rest is refused before anything is signed', async () => {
    const endpoint = await post('/v1/webhook-endpoints', { url: `${receiver.url}/refunded`, events: ['invoice.refunded'] })
    expect(endpoint.status).toBe(201)
    // another paid invoice's net in the vault too: the vault could pay more than this invoice has left
    await paidInvoice(ctx, merchant, usdc('100'))
    const invoice = await paidInvoice(ctx, merchant, usdc('100'))
    const payerBefore = await tokenBalance(ctx, invoice.payer)

    const prepared = await prepare(invoice.id, usdc('30'))
    expect(prepared).toMatchObject({
      status: 200,
      body: {
        success: true,
        userOp: { sender: getAddress(merchant.vault), signature: '0x', paymaster: getAddress(ctx.devnet.deployment.paymaster) },
        typedDataToSign: { primaryType: 'Refund', message: { invoice: invoice.id.toString(), payer: invoice.payer, amount: '30000000', vault: getAddress(merchant.vault), operation: prepared.body.userOpHash } },
        refundSummary: { invoiceId: invoice.id.toString(), payer: invoice.payer, amount: '30000000', amountFormatted: '30', grossAmount: '100000000', refundedBefore: '0', remainingAfter: '70000000' },
        expiresAt: expect.any(String),
      },
    })
    const { deployment } = ctx.devnet
    const { domain, types, primaryType, message } = prepared.body.typedDataToSign
    const expected = merchantVaultTypedData({
      chainId: deployment.chainId,
      vault: merchant.vault,
      call: { kind: 'Refund', registry: deployment.registry, invoice: invoice.id, payer: invoice.payer, token: deployment.token, amount: usdc('30') },
      validUntil: BigInt(message.validUntil),
      operation: prepared.body.userOpHash,
    })
    const typed = { ...message, invoice: BigInt(message.invoice), amount: BigInt(message.amount), validUntil: BigInt(message.validUntil) }
    expect(hashTypedData({ domain, types, primaryType, message: typed })).toBe(hashTypedData(expected as never))

    const first = await submit(invoice.id, await ownerSigns(prepared.body, merchant.ownerPrivateKey))
    expect(first).toMatchObject({ status: 200, body: { status: 'confirmed', refundId: expect.any(String), userOpHash: prepared.body.userOpHash, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), refundedAmount: '30000000' } })
    const receipt = await ctx.devnet.clients.public.getTransactionReceipt({ hash: first.body.txHash })
    const [refunded] = parseEventLogs({ abi: invoiceRegistryAbi, eventName: 'InvoiceRefunded', logs: receipt.logs })
    expect(refunded!.args).toMatchObject({ id: invoice.id, payer: invoice.payer, merchant: getAddress(merchant.vault), amount: usdc('30'), refundedTotal: usdc('30') })
    const transfers = parseEventLogs({ abi: stablecoinAbi, eventName: 'Transfer', logs: receipt.logs })
    expect(transfers.map((log) => [log.args.from, log.args.to, log.args.value])).toEqual([[getAddress(merchant.vault), invoice.payer, usdc('30')]])

    const second = await refund(invoice.id, usdc('20.5'))
    expect(second).toMatchObject({ status: 200, body: { status: 'confirmed', refundedAmount: '50500000' } })
    expect(await tokenBalance(ctx, invoice.payer)).toBe(payerBefore + usdc('50.5'))
    expect(await refundedOnChain(invoice.id)).toBe(usdc('50.5'))

    // beyond what is left: refused before anything is built, counted or signed
    const used = await ctx.server.stores.db.query<{ used: number }>('SELECT used FROM merchant_operation_usage WHERE studio_id = $1', [merchant.studioId])
    const third = await prepare(invoice.id, usdc('49.5') + 1n)
    expect(third).toMatchObject({ status: 400, body: { error: 'REFUND_EXCEEDS_REMAINING', remaining: '49500000', refundedAmount: '50500000' } })
    expect(await ctx.server.stores.db.query('SELECT used FROM merchant_operation_usage WHERE studio_id = $1', [merchant.studioId])).toEqual(used)
    expect(await refundedOnChain(invoice.id)).toBe(usdc('50.5'))
    // the rest, to the last base unit, is still refundable
    expect(await refund(invoice.id, usdc('49.5'))).toMatchObject({ status: 200, body: { status: 'confirmed', refundedAmount: '100000000' } })
    expect(await tokenBalance(ctx, invoice.payer)).toBe(payerBefore + usdc('100'))
    expect(await prepare(invoice.id, 1n)).toMatchObject({ status: 400, body: { error: 'REFUND_EXCEEDS_REMAINING', remaining: '0' } })

    // the invoice stays Paid; each refund was sent to the endpoint that asked for invoice.refunded
    expect((await ctx.devnet.clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [invoice.id] })).status).toBe(2)
    await expect.poll(() => receiver.at('/refunded').length, { timeout: 10_000, interval: 50 }).toBe(3)
    // deliveries are not ordered (each is sent and retried on its own): the running total orders them
    const events = receiver
      .at('/refunded')
      .map((delivery) => verified(endpoint.body.secret, delivery))
      .sort((a, b) => Number(BigInt(a.data.refundedTotal) - BigInt(b.data.refundedTotal)))
    expect(events.map((event) => [event.type, event.data.amount, event.data.refundedTotal])).toEqual([
      ['invoice.refunded', '30000000', '30000000'],
      ['invoice.refunded', '20500000', '50500000'],
      ['invoice.refunded', '49500000', '100000000'],
    ])
    expect(events[0]).toMatchObject({ data: { invoiceId: invoice.id.toString(), merchant: getAddress(merchant.vault), payer: invoice.payer, token: getAddress(deployment.token), txHash: first.body.txHash } })
  })

  test('behavior: a refund after a withdrawal emptied the vault is refused with INSUFFICIENT_FUNDS, at prepare and at submit, and nothing is half-done', async () => {
    const emptied = await freshMerchant(ctx, 'Emptied Vault')
    const as = merchantCalls(ctx, () => emptied)
    const invoice = await paidInvoice(ctx, emptied, usdc('10'))
    // prepared and signed while the vault still held the invoice's net
    const early = await as.post(`/v1/invoices/${invoice.id}/refund/prepare`, { ownerAddress: emptied.owner, amount: usdc('5').toString() })
    expect(early.status).toBe(200)
    const signedEarly = await ownerSigns(early.body, emptied.ownerPrivateKey)

    const withdrawalAddress = randomAddress()
    await ctx.server.stores.withdrawalAddresses.set(emptied.studioId, withdrawalAddress)
    const held = await tokenBalance(ctx, emptied.vault)
    const withdrawal = await as.post('/v1/withdrawals/prepare', { ownerAddress: emptied.owner, amount: held.toString() })
    expect((await as.post('/v1/withdrawals', { userOp: await ownerSigns(withdrawal.body, emptied.ownerPrivateKey) })).body).toMatchObject({ status: 'confirmed' })
    expect(await tokenBalance(ctx, emptied.vault)).toBe(0n)

    const payerBefore = await tokenBalance(ctx, invoice.payer)
    expect(await as.post(`/v1/invoices/${invoice.id}/refund/prepare`, { ownerAddress: emptied.owner, amount: '1' })).toMatchObject({
      status: 400,
      body: { error: 'INSUFFICIENT_FUNDS', available: '0', message: expect.stringContaining('nothing was signed or sent') },
    })
    expect(await as.post(`/v1/invoices/${invoice.id}/refund`, { userOp: signedEarly })).toMatchObject({ status: 400, body: { error: 'INSUFFICIENT_FUNDS', available: '0' } })
    // nothing on-chain, nothing recorded, the payer's balance as it was
    expect(await refundedOnChain(invoice.id)).toBe(0n)
    expect(await tokenBalance(ctx, invoice.payer)).toBe(payerBefore)
    expect(await ctx.server.stores.refundSubmissions.findByUserOpHash(early.body.userOpHash)).toBeNull()
  })

  test('behavior: a refund that times out answers 202, and is reconciled from the chain before the next write', async () => {
    const invoice = await paidInvoice(ctx, merchant, usdc('40'))
    const prepared = await prepare(invoice.id, usdc('4'))
    const signed = await ownerSigns(prepared.body, merchant.ownerPrivateKey)
    const { test: node } = ctx.devnet
    await node.setAutomine(false)
    try {
      const pending = await submit(invoice.id, signed)
      expect(pending).toMatchObject({ status: 202, body: { status: 'pending', refundId: expect.any(String), userOpHash: prepared.body.userOpHash } })
      expect(await prepare(invoice.id, usdc('1'))).toMatchObject({ status: 409, body: { error: 'OWNER_OPERATION_PENDING', userOpHash: prepared.body.userOpHash } })
      await node.mine({ blocks: 1 })
    } finally {
      await node.setAutomine(true)
    }
    // the same signed operation again follows it: confirmed, nothing sent twice
    const followed = await submit(invoice.id, signed)
    expect(followed).toMatchObject({ status: 200, body: { status: 'confirmed', refundedAmount: '4000000' } })
    expect(await ctx.server.stores.refundSubmissions.findByUserOpHash(prepared.body.userOpHash)).toMatchObject({ status: 'confirmed', txHash: followed.body.txHash })
    expect(await submit(invoice.id, signed)).toMatchObject({ status: 409, body: { error: 'ALREADY_SUBMITTED', txHash: followed.body.txHash } })
    expect(await refundedOnChain(invoice.id)).toBe(usdc('4'))

    // a request that died after sending: the row says pending, the chain has the refund; the next write settles it
    const lostPrepared = await prepare(invoice.id, usdc('1'))
    const lostSigned = await ownerSigns(lostPrepared.body, merchant.ownerPrivateKey)
    const answered = await submit(invoice.id, lostSigned)
    expect(answered.body.status).toBe('confirmed')
    await ctx.server.stores.db.query(`UPDATE refund_submissions SET status = 'pending', tx_hash = NULL, confirmed_at = NULL WHERE user_op_hash = $1`, [lostPrepared.body.userOpHash])
    expect((await prepare(invoice.id, usdc('1'))).status).toBe(200)
    expect(await ctx.server.stores.refundSubmissions.findByUserOpHash(lostPrepared.body.userOpHash)).toMatchObject({ status: 'confirmed', txHash: answered.body.txHash })
  })
})

describe('POST /v1/invoices/:id/refund/prepare', () => {
  test("behavior: refusals: an invoice not Paid, another studio's invoice, not the owner, a zero or malformed amount", async () => {
    const { devnet } = ctx
    const { timestamp } = await devnet.clients.public.getBlock()
    const { id: issued } = await issueInvoice(devnet.anvil.rpcUrl, devnet.deployment, merchant, { amount: usdc('5'), dueAt: timestamp + 86_400n, metaHash: `0x${'43'.repeat(32)}` })
    expect(await prepare(issued, 1n)).toMatchObject({ status: 400, body: { error: 'INVALID_STATUS', status: 'Issued' } })
    const paid = await paidInvoice(ctx, merchant, usdc('5'))
    const demoInvoice = devnet.seed.invoices[0]!.id
    expect(await prepare(demoInvoice, 1n)).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } })
    expect(await prepare(paid.id, 1n, privateKeyToAccount(generatePrivateKey()).address)).toMatchObject({ status: 400, body: { error: 'OWNER_MISMATCH' } })
    const malformed = await Promise.all([
      prepare(paid.id, 0n),
      post(`/v1/invoices/${paid.id}/refund/prepare`, { ownerAddress: merchant.owner, amount: '-1' }),
      post(`/v1/invoices/${paid.id}/refund/prepare`, { ownerAddress: merchant.owner }),
      post(`/v1/invoices/${paid.id}/refund/prepare`, { ownerAddress: merchant.owner, amount: '1', payer: randomAddress() }),
      post('/v1/invoices/abc/refund/prepare', { ownerAddress: merchant.owner, amount: '1' }),
    ])
    expect(malformed.map((answer) => [answer.status, answer.body.error])).toEqual(Array(5).fill([400, 'VALIDATION_ERROR']))
    // another invoice's refund operation is not this invoice's
    const other = await paidInvoice(ctx, merchant, usdc('5'))
    const prepared = await prepare(other.id, 1n)
    expect(await submit(paid.id, await ownerSigns(prepared.body, merchant.ownerPrivateKey))).toMatchObject({ status: 400, body: { error: 'USEROP_CALL_MISMATCH' } })
    expect(await refundedOnChain(paid.id)).toBe(0n)
    expect(await refundedOnChain(other.id)).toBe(0n)
  })
})
