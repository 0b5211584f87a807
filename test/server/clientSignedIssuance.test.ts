import { formatUnits, getAddress, hashTypedData, parseEventLogs, parseUnits, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { demoMerchantParty, demoPayerParty } from '../../devnet/demoInvoices'
import { seedMerchantAccess, type SeededMerchantAccess } from '../../devnet/seedMerchantAccess'
import type { InvoiceMetadata } from '../../shared/metadata'
import { hashMetadata } from '../../shared/metadataHash'
import { createOperationQuota } from '../../server/merchant/signer/operationQuota'
import { merchantVaultTypedData, ownerOperationSignature } from '../../shared/merchantVaultMessage'
import { startTestMailbox, type TestMailbox } from '../support/mailbox'
import { useServer } from '../support/server'
import { signedRequest } from '../support/signedRequest'

let mailbox: TestMailbox
const ctx = useServer({
  overrides: { SUBMIT_WAIT_MS: '3000' },
  async beforeServer() {
    mailbox = await startTestMailbox()
    return { SMTP_URL: mailbox.url, MAIL_FROM: 'Northwind invoices <invoices@northwind.example>' }
  },
})
afterAll(() => mailbox?.close())
const issuedStatus = 1
const hash32 = /^0x[0-9a-f]{64}$/

let merchant: SeededMerchantAccess
let demoCustomerId: string
let token: InvoiceMetadata['token']
beforeAll(async () => {
  merchant = await seedMerchantAccess(ctx.server.stores, ctx.devnet)
  demoCustomerId = (await ctx.server.stores.customers.findCustomerByName(merchant.studioId, demoPayerParty.name))!.id
  const { clients, deployment } = ctx.devnet
  const [symbol, decimals] = await Promise.all([
    clients.public.readContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'symbol' }),
    clients.public.readContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'decimals' }),
  ])
  token = { address: getAddress(deployment.token), symbol, decimals: Number(decimals), chainId: deployment.chainId }
})

const post = (path: string, body: unknown, idempotencyKey?: string) =>
  signedRequest(ctx.server.url, merchant.apiKey, {
    method: 'POST',
    path,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    send: { headers: { 'idempotency-key': idempotencyKey ?? crypto.randomUUID() } },
  })
const onChain = (id: bigint) => ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] })
const invoiceCount = () => ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoiceCount' })
const ownerKey = () => ctx.devnet.seed.merchant.ownerPrivateKey
const day = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString().slice(0, 10)

/** What a merchant's own backend writes before asking to prepare: the record and the fields bound to it. */
async function invoiceFields(amount = parseUnits('480', 6), withMetadata = true) {
  const issuedAt = (await ctx.devnet.clients.public.getBlock()).timestamp
  const dueAt = issuedAt + 30n * 86_400n
  const metadata: InvoiceMetadata = {
    version: '1.0',
    invoiceNumber: `CS-${crypto.randomUUID().slice(0, 8)}`,
    issuedAt: day(issuedAt),
    dueAt: day(dueAt),
    merchant: { ...demoMerchantParty, walletAddress: getAddress(ctx.devnet.seed.merchant.vault) },
    payer: demoPayerParty,
    token,
    amount: formatUnits(amount, token.decimals),
    amountRaw: amount.toString(),
    lineItems: [{ description: 'Gripper calibration, on site', quantity: 1, unitPrice: formatUnits(amount, token.decimals), amount: formatUnits(amount, token.decimals) }],
    createdBy: 'merchant backend',
    createdAt: new Date(Number(issuedAt) * 1000).toISOString(),
    quoteId: 'Q-2026-118',
  }
  return {
    ownerAddress: ctx.devnet.seed.merchant.owner,
    amount: amount.toString(),
    dueAt: dueAt.toString(),
    issuedAt: issuedAt.toString(),
    tokenURI: 'ipfs://none-here',
    metaHash: (withMetadata ? hashMetadata(metadata) : `0x${'ab'.repeat(32)}`) as Hex,
    mandateHash: `0x${'cd'.repeat(32)}`,
    ...(withMetadata ? { metadata, customerId: demoCustomerId } : {}),
  }
}

/** What the owner's wallet does with prepare's answer: signs the typed Issue message it shows (eth_signTypedData_v4). */
async function ownerSigns(prepared: any, privateKey: Hex = ownerKey()) {
  const { domain, types, primaryType, message } = prepared.typedDataToSign
  const typed = { ...message, amount: BigInt(message.amount), dueAt: BigInt(message.dueAt), validUntil: BigInt(message.validUntil) }
  const signature = await privateKeyToAccount(privateKey).signTypedData({ domain, types, primaryType, message: typed })
  return { ...prepared.userOp, signature: ownerOperationSignature(BigInt(message.validUntil), signature) }
}

describe('POST /v1/invoices', () => {
  test("default: the owner signs prepare's typed Issue message, the vault issues it through our paymaster, and the share link opens the metadata", async () => {
    const { deployment, seed } = ctx.devnet
    const fields = await invoiceFields()
    const prepared = await post('/v1/invoices/prepare', fields)
    expect(prepared.status).toBe(200)
    expect(prepared.body).toMatchObject({
      success: true,
      userOp: { sender: getAddress(seed.merchant.vault), signature: '0x', paymaster: getAddress(deployment.paymaster) },
      typedDataToSign: { primaryType: 'Issue', message: { amount: fields.amount, dueAt: fields.dueAt, metaHash: fields.metaHash, tokenURI: fields.tokenURI, operation: prepared.body.userOpHash } },
      encryption: { pendingInvoiceId: prepared.body.userOpHash, ipfsCid: null, metaHash: fields.metaHash, shareLink: null },
    })
    // the message is exactly the one the vault checks, bound to this operation, ending with the sponsorship
    const { message } = prepared.body.typedDataToSign
    const call = { kind: 'Issue' as const, registry: deployment.registry, token: deployment.token, amount: BigInt(fields.amount), dueAt: BigInt(fields.dueAt), metaHash: fields.metaHash, tokenURI: fields.tokenURI }
    const expected = merchantVaultTypedData({ chainId: deployment.chainId, vault: seed.merchant.vault, call, validUntil: BigInt(message.validUntil), operation: prepared.body.userOpHash })
    const { domain, types, primaryType } = prepared.body.typedDataToSign
    const shown = { ...message, amount: BigInt(message.amount), dueAt: BigInt(message.dueAt), validUntil: BigInt(message.validUntil) }
    expect(hashTypedData({ domain, types, primaryType, message: shown })).toBe(hashTypedData(expected as never))
    expect(new Date(prepared.body.expiresAt).getTime()).toBe(Number(message.validUntil) * 1000)

    const before = await invoiceCount()
    const key = crypto.randomUUID()
    const submit = { userOp: await ownerSigns(prepared.body), pendingInvoiceId: prepared.body.encryption.pendingInvoiceId }
    const answer = await post('/v1/invoices', submit, key)
    expect(answer).toMatchObject({
      status: 200,
      body: { status: 'confirmed', userOpHash: prepared.body.userOpHash, txHash: expect.stringMatching(hash32), invoiceId: (before + 1n).toString(), idempotency: { key, replayed: false, state: 'confirmed' } },
    })
    const id = BigInt(answer.body.invoiceId)
    expect(answer.body.shareLink).toMatch(new RegExp(`^${ctx.server.publicUrl}/pay/${id}\\?token=svc_tk_[A-Za-z0-9_-]{43}$`))

    // the chain holds it, issued by the vault under the owner's nonce key and paid for by our paymaster
    expect(await onChain(id)).toMatchObject({ merchant: getAddress(seed.merchant.vault), amount: BigInt(fields.amount), dueAt: BigInt(fields.dueAt), metaHash: fields.metaHash, status: issuedStatus })
    expect(await ctx.devnet.clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'tokenURI', args: [id] })).toBe(fields.tokenURI)
    const receipt = await ctx.devnet.clients.public.getTransactionReceipt({ hash: answer.body.txHash })
    const [event] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: receipt.logs })
    expect(event!.args).toMatchObject({ userOpHash: prepared.body.userOpHash, sender: getAddress(seed.merchant.vault), paymaster: getAddress(deployment.paymaster), success: true })
    expect(event!.args.nonce >> 64n).toBe(0n)

    // the share link opens the record as the merchant wrote it, hashing to the chain's metaHash
    const opened = await fetch(`${ctx.server.url}/v1/pay/${id}/metadata?token=${new URL(answer.body.shareLink).searchParams.get('token')}`).then((response) => response.json())
    expect(opened.accessLevel).toBe('full')
    expect(opened.metadata).toEqual(fields.metadata)
    expect(hashMetadata(opened.metadata)).toBe((await onChain(id)).metaHash)

    // the same key and payload: the same answer, replayed, and no second invoice
    const again = await post('/v1/invoices', submit, key)
    expect(again).toMatchObject({ status: 200, body: { ...answer.body, idempotency: { key, replayed: true, state: 'confirmed' } } })
    expect(await invoiceCount()).toBe(before + 1n)
    // the same key with another payload is refused
    expect(await post('/v1/invoices', { ...submit, sendEmail: true, customerId: demoCustomerId }, key)).toMatchObject({ status: 409, body: { error: 'IDEMPOTENCY_CONFLICT' } })
  })

  test('behavior: the vault refuses a signature of the bare userOpHash (as signMessage makes it); the typed signature of the same operation then issues', async () => {
    const prepared = (await post('/v1/invoices/prepare', await invoiceFields(parseUnits('75', 6), false))).body
    expect(prepared.encryption).toBeUndefined()
    const owner = privateKeyToAccount(ownerKey())
    const validUntil = BigInt(prepared.typedDataToSign.message.validUntil)
    const before = await invoiceCount()
    const bare = ownerOperationSignature(validUntil, await owner.signMessage({ message: { raw: prepared.userOpHash } }))
    expect(await post('/v1/invoices', { userOp: { ...prepared.userOp, signature: bare } })).toMatchObject({ status: 400, body: { error: 'TRANSACTION_FAILED', message: expect.stringContaining('AA24') } })
    const stranger = await post('/v1/invoices', { userOp: await ownerSigns(prepared, generatePrivateKey()) })
    expect(stranger).toMatchObject({ status: 400, body: { error: 'TRANSACTION_FAILED', message: expect.stringContaining('AA24') } })
    expect(await invoiceCount()).toBe(before)

    const issued = await post('/v1/invoices', { userOp: await ownerSigns(prepared) })
    expect(issued).toMatchObject({ status: 200, body: { status: 'confirmed', userOpHash: prepared.userOpHash, invoiceId: (before + 1n).toString() } })
    // no metadata was prepared: no share link is invented
    expect(issued.body.shareLink).toBeUndefined()
    expect((await onChain(before + 1n)).metaHash).toBe(`0x${'ab'.repeat(32)}`)
  })

  test('behavior: a gas field changed after signing is refused: by the server for a prepared pendingInvoiceId, by the EntryPoint otherwise', async () => {
    const before = await invoiceCount()
    const withRecord = (await post('/v1/invoices/prepare', await invoiceFields())).body
    const signed = await ownerSigns(withRecord)
    const raised = { ...signed, callGasLimit: (BigInt(signed.callGasLimit) + 1n).toString() }
    expect(await post('/v1/invoices', { userOp: raised, pendingInvoiceId: withRecord.encryption.pendingInvoiceId })).toMatchObject({
      status: 400,
      body: { error: 'USEROP_MISMATCH', message: expect.stringContaining('prepare') },
    })

    const bare = (await post('/v1/invoices/prepare', await invoiceFields(parseUnits('9', 6), false))).body
    const signedBare = await ownerSigns(bare)
    const cheaper = { ...signedBare, maxFeePerGas: (BigInt(signedBare.maxFeePerGas) + 1n).toString() }
    expect(await post('/v1/invoices', { userOp: cheaper })).toMatchObject({ status: 400, body: { error: 'TRANSACTION_FAILED', message: expect.stringMatching(/AA3\d|AA2\d/) } })
    expect(await invoiceCount()).toBe(before)
  })

  test('behavior: sendEmail mails the customer named, once; the answer carries its delivery', async () => {
    const prepared = (await post('/v1/invoices/prepare', await invoiceFields(parseUnits('33', 6)))).body
    const key = crypto.randomUUID()
    const body = { userOp: await ownerSigns(prepared), pendingInvoiceId: prepared.encryption.pendingInvoiceId, sendEmail: true, customerId: demoCustomerId }
    const answer = await post('/v1/invoices', body, key)
    expect(answer).toMatchObject({ status: 200, body: { status: 'confirmed', delivery: { status: 'sent', messageId: expect.stringMatching(/^<.+@.+>$/), to: demoPayerParty.email } } })
    const mail = await mailbox.nextMessage()
    expect(mail.messageId).toBe(answer.body.delivery.messageId)
    expect(mail.to).toMatchObject({ text: demoPayerParty.email })
    expect(mail.text).toContain(answer.body.shareLink)
    expect(await post('/v1/invoices', body, key)).toMatchObject({ status: 200, body: { delivery: answer.body.delivery, idempotency: { replayed: true } } })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(mailbox.files()).toHaveLength(1)
  })

  test('behavior: an operation not on-chain in time answers 202 with its hash and no link; the same request once it is mined answers the invoice and its share link', async () => {
    const fields = await invoiceFields(parseUnits('18', 6))
    const prepared = (await post('/v1/invoices/prepare', fields)).body
    const key = crypto.randomUUID()
    const body = { userOp: await ownerSigns(prepared), pendingInvoiceId: prepared.encryption.pendingInvoiceId }
    const node = ctx.devnet.test
    await node.setAutomine(false)
    let pending
    try {
      pending = await post('/v1/invoices', body, key)
      expect(pending).toMatchObject({ status: 202, body: { status: 'pending', userOpHash: prepared.userOpHash, message: expect.any(String), idempotency: { key, state: 'pending' } } })
      expect(pending.body.invoiceId).toBeUndefined()
      expect(pending.body.shareLink).toBeUndefined()
      await node.mine({ blocks: 1 })
    } finally {
      await node.setAutomine(true)
    }
    const issued = await post('/v1/invoices', body, key)
    expect(issued).toMatchObject({ status: 200, body: { status: 'confirmed', userOpHash: prepared.userOpHash, invoiceId: expect.stringMatching(/^\d+$/), idempotency: { key, replayed: true, state: 'confirmed' } } })
    const opened = await fetch(`${ctx.server.url}/v1/pay/${issued.body.invoiceId}/metadata?token=${new URL(issued.body.shareLink).searchParams.get('token')}`).then((response) => response.json())
    expect(opened.metadata).toEqual(fields.metadata)
  })

  test('behavior: bad input answers 4xx with the code, never a 500', async () => {
    const prepared = (await post('/v1/invoices/prepare', await invoiceFields(parseUnits('5', 6)))).body
    const userOp = await ownerSigns(prepared)
    const otherVault = { ...userOp, sender: privateKeyToAccount(generatePrivateKey()).address }
    const cancelCall = { ...userOp, callData: '0x12345678' }
    const other = await signedRequest(ctx.server.url, merchant.apiKey, {
      method: 'POST',
      path: '/v1/customers',
      body: JSON.stringify({ type: 'person', legalName: `Dana Okafor ${crypto.randomUUID().slice(0, 6)}`, email: 'dana@example.com', address: { street: '3 Quay St', city: 'Dublin', postal: 'D02', country: 'IE' } }),
    })
    expect(other.status).toBe(201)
    const otherCustomerId = other.body.data.id
    const before = await invoiceCount()
    const answers = [
      await post('/v1/invoices', { userOp, sendEmail: true, pendingInvoiceId: prepared.encryption.pendingInvoiceId }),
      await post('/v1/invoices', { userOp, sendEmail: true, customerId: demoCustomerId }),
      await post('/v1/invoices', { userOp: { sender: userOp.sender } }),
      await post('/v1/invoices', { userOp, colour: 'blue' }),
      await post('/v1/invoices', '[]'),
      await post('/v1/invoices', { userOp: otherVault }),
      await post('/v1/invoices', { userOp: cancelCall }),
      await post('/v1/invoices', { userOp, pendingInvoiceId: `0x${'77'.repeat(32)}` }),
      await post('/v1/invoices', { userOp, pendingInvoiceId: prepared.encryption.pendingInvoiceId, customerId: crypto.randomUUID() }),
      await post('/v1/invoices', { userOp }, 'has spaces in it'),
      await post('/v1/invoices', { userOp, pendingInvoiceId: prepared.encryption.pendingInvoiceId, sendEmail: true, customerId: otherCustomerId }),
    ]
    expect(answers.map((answer) => [answer.status, answer.body.error])).toEqual([
      [400, 'VALIDATION_ERROR'],
      [400, 'VALIDATION_ERROR'],
      [400, 'VALIDATION_ERROR'],
      [400, 'VALIDATION_ERROR'],
      [400, 'VALIDATION_ERROR'],
      [400, 'USEROP_CALL_MISMATCH'],
      [400, 'USEROP_CALL_MISMATCH'],
      [404, 'NOT_FOUND'],
      [404, 'NOT_FOUND'],
      [400, 'IDEMPOTENCY_KEY_INVALID'],
      [400, 'CUSTOMER_MISMATCH'],
    ])
    expect(await invoiceCount()).toBe(before)
  })
})

describe('POST /v1/invoices/prepare', () => {
  test('behavior: the same Idempotency-Key and payload answer the same operation, counted once; another payload is refused', async () => {
    const fields = await invoiceFields(parseUnits('61', 6))
    const key = crypto.randomUUID()
    // read only: the limit given here plays no part in what is counted
    const quota = createOperationQuota(ctx.server.stores.db, { perDay: 500, perMonth: 10_000 })
    const usedBefore = (await quota.usage(merchant.studioId)).used
    const first = await post('/v1/invoices/prepare', fields, key)
    expect(first).toMatchObject({ status: 200, body: { idempotency: { key, replayed: false, state: 'confirmed' } } })
    const again = await post('/v1/invoices/prepare', fields, key)
    expect(again).toMatchObject({ status: 200, body: { ...first.body, idempotency: { key, replayed: true, state: 'confirmed' } } })
    // one sponsored operation of the studio's day, however often it is asked for
    expect((await quota.usage(merchant.studioId)).used).toBe(usedBefore + 1)
    expect(await post('/v1/invoices/prepare', { ...fields, tokenURI: 'ipfs://another' }, key)).toMatchObject({ status: 409, body: { error: 'IDEMPOTENCY_CONFLICT' } })
    // the replayed operation is the one that issues
    expect(await post('/v1/invoices', { userOp: await ownerSigns(again.body), pendingInvoiceId: again.body.encryption.pendingInvoiceId })).toMatchObject({ status: 200, body: { status: 'confirmed', userOpHash: first.body.userOpHash } })
  })

  test('behavior: refusals: not the owner, metadata that is not metaHash, a past due time, bad fields, an unknown customer', async () => {
    const fields = await invoiceFields()
    const stranger = privateKeyToAccount(generatePrivateKey()).address
    const answers = [
      await post('/v1/invoices/prepare', { ...fields, ownerAddress: stranger }),
      await post('/v1/invoices/prepare', { ...fields, metaHash: `0x${'ee'.repeat(32)}` }),
      await post('/v1/invoices/prepare', { ...fields, metadata: { ...fields.metadata, amountRaw: '1' } }),
      await post('/v1/invoices/prepare', { ...fields, dueAt: '1000', issuedAt: '900', metadata: undefined, customerId: undefined }),
      await post('/v1/invoices/prepare', { ...fields, mandateHash: '0x1234' }),
      await post('/v1/invoices/prepare', { ...fields, amount: '0' }),
      await post('/v1/invoices/prepare', { ...fields, amount: '1.5' }),
      await post('/v1/invoices/prepare', { ...fields, issuedAt: (BigInt(fields.dueAt) + 1n).toString() }),
      await post('/v1/invoices/prepare', { ...fields, memo: 'extra' }),
      await post('/v1/invoices/prepare', { ...fields, customerId: crypto.randomUUID() }),
    ]
    expect(answers.map((answer) => [answer.status, answer.body.error])).toEqual([
      [400, 'OWNER_MISMATCH'],
      [400, 'VALIDATION_ERROR'],
      [400, 'VALIDATION_ERROR'],
      [400, 'VALIDATION_ERROR'],
      [400, 'VALIDATION_ERROR'],
      [400, 'VALIDATION_ERROR'],
      [400, 'VALIDATION_ERROR'],
      [400, 'VALIDATION_ERROR'],
      [400, 'VALIDATION_ERROR'],
      [404, 'NOT_FOUND'],
    ])
    expect(answers[1]!.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'body.metaHash' })]))
    expect(answers[3]!.body.details).toEqual([expect.objectContaining({ path: 'body.dueAt' })])
  })
})
