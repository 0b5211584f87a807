import { getAddress, parseEventLogs, parseUnits } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { sessionNonceKey } from '../../devnet/merchantOperation'
import { endServerSession, serverSessionSeconds, startServerSession } from '../../devnet/seed'
import { seedMerchantAccess, type SeededMerchantAccess } from '../../devnet/seedMerchantAccess'
import { payDirectly } from '../support/payDirectly'
import { useServer } from '../support/server'
import { signedRequest } from '../support/signedRequest'
import { startWebhookReceiver, verified } from '../support/webhookReceiver'

const ctx = useServer({ overrides: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_INTERVAL_MS: '100', SUBMIT_WAIT_MS: '1500' } })
const canceledStatus = 3
const paidStatus = 2

let merchant: SeededMerchantAccess
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>
beforeAll(async () => {
  merchant = await seedMerchantAccess(ctx.server.stores, ctx.devnet)
  receiver = await startWebhookReceiver()
})
afterAll(() => receiver?.close())

const cancel = (id: bigint | string, body: string | undefined = '{}', key = merchant.apiKey) =>
  signedRequest(ctx.server.url, key, { method: 'POST', path: `/v1/invoices/${id}/cancel/submit`, ...(body === undefined ? {} : { body }) })
const onChain = (id: bigint) => ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] })
const newInvoice = () => ctx.devnet.newInvoice(parseUnits('12', 6))

describe('POST /v1/invoices/:id/cancel/submit', () => {
  test("default: the server signer's operation cancels the invoice on-chain; the pay route says Canceled and invoice.canceled is delivered", async () => {
    const endpoint = await signedRequest(ctx.server.url, merchant.apiKey, { method: 'POST', path: '/v1/webhook-endpoints', body: JSON.stringify({ url: `${receiver.url}/canceled`, events: ['invoice.canceled'] }) })
    expect(endpoint.status).toBe(201)
    const invoice = await newInvoice()
    const answer = await cancel(invoice.id, undefined)
    expect(answer).toMatchObject({ status: 200, body: { id: invoice.id.toString(), status: 'Canceled', userOpHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) } })
    expect((await onChain(invoice.id)).status).toBe(canceledStatus)

    // the operation is the vault's own, under the session module's nonce key, signed by the server's session key
    const receipt = await ctx.devnet.clients.public.getTransactionReceipt({ hash: answer.body.txHash })
    const [event] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: receipt.logs })
    expect(event!.args).toMatchObject({ userOpHash: answer.body.userOpHash, sender: getAddress(ctx.devnet.seed.merchant.vault), success: true })
    expect(event!.args.nonce >> 64n).toBe(sessionNonceKey(ctx.devnet.deployment.sessionValidator!))
    const [canceled] = parseEventLogs({ abi: invoiceRegistryAbi, eventName: 'InvoiceCanceled', logs: receipt.logs })
    expect(canceled!.args.id).toBe(invoice.id)

    const shown = await (await fetch(`${ctx.server.url}/v1/pay/${invoice.id}`)).json()
    expect(shown.data).toMatchObject({ id: invoice.id.toString(), status: 'Canceled' })
    await expect.poll(() => receiver.at('/canceled').length, { timeout: 10_000, interval: 50 }).toBe(1)
    expect(verified(endpoint.body.secret, receiver.at('/canceled')[0]!)).toMatchObject({ type: 'invoice.canceled', data: { invoiceId: invoice.id.toString(), txHash: answer.body.txHash } })
    expect(await ctx.server.stores.cancelAttempts.find(ctx.server.stores.invoiceKey(invoice.id))).toMatchObject({ state: 'confirmed', userOpHash: answer.body.userOpHash, txHash: answer.body.txHash })
  })

  test('behavior: a second cancel answers INVALID_STATUS and sends nothing', async () => {
    const invoice = await newInvoice()
    expect((await cancel(invoice.id)).status).toBe(200)
    const blockBefore = await ctx.devnet.clients.public.getBlockNumber()
    expect(await cancel(invoice.id)).toMatchObject({ status: 400, body: { error: 'INVALID_STATUS', code: 'INVALID_STATUS' } })
    expect(await ctx.devnet.clients.public.getBlockNumber()).toBe(blockBefore)
  })

  test('behavior: a paid invoice is refused, and stays Paid', async () => {
    const invoice = await newInvoice()
    await payDirectly(ctx.devnet, invoice.id, invoice.amount)
    expect(await cancel(invoice.id)).toMatchObject({ status: 400, body: { error: 'INVALID_STATUS', message: expect.stringContaining('Paid') } })
    expect((await onChain(invoice.id)).status).toBe(paidStatus)
  })

  test('behavior: a repeat while the operation is pending follows it instead of sending a second one', async () => {
    const invoice = await newInvoice()
    const { test: node } = ctx.devnet
    await node.setAutomine(false)
    try {
      const first = await cancel(invoice.id)
      expect(first).toMatchObject({ status: 202, body: { status: 'pending', userOpHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), message: expect.any(String) } })
      const again = await cancel(invoice.id)
      expect(again).toMatchObject({ status: 202, body: { status: 'pending', userOpHash: first.body.userOpHash } })
      expect(await ctx.devnet.clients.public.request({ method: 'txpool_status' as never })).toMatchObject({ pending: '0x1' })
      await node.mine({ blocks: 1 })
    } finally {
      await node.setAutomine(true)
    }
    expect((await onChain(invoice.id)).status).toBe(canceledStatus)
    // the status is read first: canceled now, so nothing more is sent
    expect(await cancel(invoice.id)).toMatchObject({ status: 400, body: { error: 'INVALID_STATUS' } })
  })

  test("behavior: without the vault's live session for the server's key: no_active_signer, and the invoice stays Issued", async () => {
    const invoice = await newInvoice()
    const { anvil, deployment, seed, clients } = ctx.devnet
    await endServerSession(anvil.rpcUrl, deployment, seed.merchant)
    try {
      expect(await cancel(invoice.id)).toMatchObject({ status: 403, body: { error: 'no_active_signer', code: 'no_active_signer' } })
      expect((await onChain(invoice.id)).status).toBe(1)
    } finally {
      const { timestamp } = await clients.public.getBlock()
      await startServerSession(anvil.rpcUrl, deployment, seed.merchant, seed.serverSigner.address, timestamp + serverSessionSeconds)
    }
    // the session back, the same invoice cancels: the refused attempt left nothing behind
    expect(await cancel(invoice.id)).toMatchObject({ status: 200, body: { status: 'Canceled' } })
  })

  test('behavior: bad input answers 4xx with the code, never a 500', async () => {
    const readOnly = await ctx.server.stores.apiKeys.createApiKey({ studioId: merchant.studioId, name: 'read only', scopes: ['invoice:read'] })
    const invoice = await newInvoice()
    const answers = await Promise.all([
      cancel(invoice.id, JSON.stringify({ reason: 'changed my mind' })),
      cancel(invoice.id, '[]'),
      cancel('0x10'),
      cancel(987_654n),
      cancel(invoice.id, '{}', { keyId: readOnly.keyId, secret: readOnly.secret }),
    ])
    expect(answers.map((answer) => [answer.status, answer.body.error])).toEqual([
      [400, 'VALIDATION_ERROR'],
      [400, 'VALIDATION_ERROR'],
      [400, 'VALIDATION_ERROR'],
      [404, 'NOT_FOUND'],
      [403, 'FORBIDDEN'],
    ])
    expect((await onChain(invoice.id)).status).toBe(1)
  })
})
