import { getAddress, hashTypedData, parseEventLogs, parseUnits, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { sessionNonceKey } from '../../devnet/merchantOperation'
import { merchantVaultTypedData, ownerOperationSignature } from '../../shared/merchantVaultMessage'
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

  test('behavior: an operation that was dropped and whose sponsorship has ended is replaced by a new one', async () => {
    const invoice = await newInvoice()
    const { stores } = ctx.server
    const key = stores.invoiceKey(invoice.id)
    // as an earlier request left it: sent, never included, its paymaster signature long expired
    const dropped = `0x${'5a'.repeat(32)}`
    await stores.db.query(
      `INSERT INTO cancel_attempts (studio_id, chain_id, registry, invoice_id, state, user_op_hash, updated_at) VALUES ($1, $2, $3, $4, 'submitted', $5, now() - interval '1 hour')`,
      [merchant.studioId, key.chainId, key.registry.toLowerCase(), invoice.id.toString(), dropped],
    )
    const answer = await cancel(invoice.id)
    expect(answer).toMatchObject({ status: 200, body: { status: 'Canceled' } })
    expect(answer.body.userOpHash).not.toBe(dropped)
    expect((await onChain(invoice.id)).status).toBe(canceledStatus)
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

/** What the owner's wallet does with cancel/prepare's answer: signs the typed message it shows. */
async function ownerSigns(prepared: any, privateKey: Hex = ctx.devnet.seed.merchant.ownerPrivateKey) {
  const { domain, types, primaryType, message } = prepared.typedDataToSign
  const signature = await privateKeyToAccount(privateKey).signTypedData({ domain, types, primaryType, message: { ...message, invoice: BigInt(message.invoice), validUntil: BigInt(message.validUntil) } })
  return { ...prepared.userOp, signature: ownerOperationSignature(BigInt(message.validUntil), signature) }
}
const call = (path: string, body: unknown) => signedRequest(ctx.server.url, merchant.apiKey, { method: 'POST', path, body: JSON.stringify(body) })

describe('POST /v1/invoices/:id/cancel', () => {
  test("default: the owner signs the vault's typed Cancel message and the vault cancels the invoice, sponsored by our paymaster", async () => {
    const invoice = await newInvoice()
    const { seed, deployment } = ctx.devnet
    const prepared = await call(`/v1/invoices/${invoice.id}/cancel/prepare`, { ownerAddress: seed.merchant.owner })
    expect(prepared.status).toBe(200)
    expect(prepared.body).toMatchObject({
      success: true,
      userOp: { sender: getAddress(seed.merchant.vault), signature: '0x', paymaster: getAddress(deployment.paymaster) },
      expiresAt: expect.any(String),
      typedDataToSign: { primaryType: 'Cancel', message: { registry: getAddress(deployment.registry), invoice: invoice.id.toString(), vault: getAddress(seed.merchant.vault), operation: prepared.body.userOpHash } },
    })
    // the message is exactly the one the vault checks (shared/merchantVaultMessage.ts), bound to this operation
    const { message } = prepared.body.typedDataToSign
    const expected = merchantVaultTypedData({ chainId: deployment.chainId, vault: seed.merchant.vault, call: { kind: 'Cancel', registry: deployment.registry, invoice: invoice.id }, validUntil: BigInt(message.validUntil), operation: prepared.body.userOpHash })
    const { domain, types, primaryType } = prepared.body.typedDataToSign
    expect(hashTypedData({ domain, types, primaryType, message: { ...message, invoice: BigInt(message.invoice), validUntil: BigInt(message.validUntil) } })).toBe(hashTypedData(expected as never))
    expect(new Date(prepared.body.expiresAt).getTime()).toBe(Number(message.validUntil) * 1000)

    const answer = await call(`/v1/invoices/${invoice.id}/cancel`, { userOp: await ownerSigns(prepared.body) })
    expect(answer).toMatchObject({ status: 200, body: { status: 'confirmed', userOpHash: prepared.body.userOpHash, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) } })
    expect((await onChain(invoice.id)).status).toBe(canceledStatus)
    const receipt = await ctx.devnet.clients.public.getTransactionReceipt({ hash: answer.body.txHash })
    const [event] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: receipt.logs })
    expect(event!.args).toMatchObject({ userOpHash: prepared.body.userOpHash, success: true, paymaster: getAddress(deployment.paymaster) })
    // sent again: nothing new, the same outcome
    expect(await call(`/v1/invoices/${invoice.id}/cancel`, { userOp: await ownerSigns(prepared.body) })).toMatchObject({ status: 200, body: { txHash: answer.body.txHash } })
  })

  test('behavior: the vault refuses a signature of the bare hash, and a typed signature by anyone but its owner', async () => {
    const invoice = await newInvoice()
    const owner = privateKeyToAccount(ctx.devnet.seed.merchant.ownerPrivateKey)
    const prepared = (await call(`/v1/invoices/${invoice.id}/cancel/prepare`, { ownerAddress: owner.address })).body
    const validUntil = BigInt(prepared.typedDataToSign.message.validUntil)
    const bareHash = ownerOperationSignature(validUntil, await owner.sign({ hash: prepared.userOpHash }))
    const personalHash = ownerOperationSignature(validUntil, await owner.signMessage({ message: { raw: prepared.userOpHash } }))
    for (const signature of [bareHash, personalHash]) {
      const refused = await call(`/v1/invoices/${invoice.id}/cancel`, { userOp: { ...prepared.userOp, signature } })
      expect(refused).toMatchObject({ status: 400, body: { error: 'TRANSACTION_FAILED', message: expect.stringContaining('AA24') } })
    }
    const stranger = await call(`/v1/invoices/${invoice.id}/cancel`, { userOp: await ownerSigns(prepared, generatePrivateKey()) })
    expect(stranger).toMatchObject({ status: 400, body: { error: 'TRANSACTION_FAILED', message: expect.stringContaining('AA24') } })
    expect((await onChain(invoice.id)).status).toBe(1)
    // the owner's typed signature of the same operation still goes through
    expect(await call(`/v1/invoices/${invoice.id}/cancel`, { userOp: await ownerSigns(prepared) })).toMatchObject({ status: 200, body: { status: 'confirmed' } })
  })

  test("behavior: refusals: another invoice's operation, a malformed body", async () => {
    const [invoice, other] = [await newInvoice(), await newInvoice()]
    const prepared = (await call(`/v1/invoices/${other.id}/cancel/prepare`, { ownerAddress: ctx.devnet.seed.merchant.owner })).body
    expect(await call(`/v1/invoices/${invoice.id}/cancel`, { userOp: await ownerSigns(prepared) })).toMatchObject({ status: 400, body: { error: 'USEROP_CALL_MISMATCH' } })
    expect(await call(`/v1/invoices/${invoice.id}/cancel`, { userOp: { sender: ctx.devnet.seed.merchant.vault } })).toMatchObject({ status: 400, body: { error: 'VALIDATION_ERROR' } })
    expect((await onChain(invoice.id)).status).toBe(1)
  })
})

describe('POST /v1/invoices/:id/cancel/prepare', () => {
  test('behavior: refusals: not the owner, a malformed address, an invoice no longer Issued', async () => {
    const invoice = await newInvoice()
    expect(await call(`/v1/invoices/${invoice.id}/cancel/prepare`, { ownerAddress: privateKeyToAccount(generatePrivateKey()).address })).toMatchObject({ status: 400, body: { error: 'OWNER_MISMATCH' } })
    expect(await call(`/v1/invoices/${invoice.id}/cancel/prepare`, { ownerAddress: 'nope' })).toMatchObject({ status: 400, body: { error: 'VALIDATION_ERROR' } })
    await ctx.devnet.cancelInvoice(invoice.id)
    expect(await call(`/v1/invoices/${invoice.id}/cancel/prepare`, { ownerAddress: ctx.devnet.seed.merchant.owner })).toMatchObject({ status: 400, body: { error: 'INVALID_STATUS' } })
  })
})
