import { encodeFunctionData, erc20Abi, hexToBigInt, numberToHex, parseSignature, parseUnits, serializeSignature, zeroHash, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { describe, expect, test } from 'vitest'
import { hashMetadata } from '../../shared/metadataHash'
import { payerVaultAbi } from '../../contracts/artifacts/PayerVault'
import { payerVaultFactoryAbi } from '../../contracts/artifacts/PayerVaultFactory'
import { paymentMessage, paymentTypedData } from '../../shared/paymentMessage'
import { decodePayCallData, encodePayCallData } from '../../shared/payCall'
import { permitResponseSchema, prepareResponseSchema } from '../../shared/wire'
import { signPermit } from '../support/devnet'
import { api, payThroughServer, permitAndPrepare, signUserOp, useServer } from '../support/server'

let clockSkewMs = 0
const ctx = useServer({ now: () => Date.now() + clockSkewMs })
const base = () => ctx.server.url

const { balanceOf } = ctx.devnet
const freshInvoice = (amount = parseUnits('25', 6)) => ctx.devnet.newInvoice(amount)
const freshPayer = (funds = parseUnits('1000', 6)) => ctx.devnet.newPayer(funds)
type Payer = Awaited<ReturnType<typeof freshPayer>>

/** secp256k1's order: s and n - s (with the other v) are the same signature to ecrecover. */
const curveOrder = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

/** The malleable twin of a 65-byte signature: the same signer to a lax recovery, refused by
 * OpenZeppelin's ECDSA, which the vault uses. */
function highSTwin(signature: Hex): Hex {
  const { r, s, yParity } = parseSignature(signature)
  return serializeSignature({ r, s: numberToHex(curveOrder - hexToBigInt(s), { size: 32 }), yParity: 1 - yParity! })
}

function tokenOf(shareLink: string) {
  return new URL(shareLink).searchParams.get('token')!
}

/** Every paying route answers an invoice that is no longer Issued the same way, even with a permit
 * and an operation prepared while it still was. */
async function expectUnpayable(id: bigint, payer: Payer, flow: Awaited<ReturnType<typeof permitAndPrepare>>, status: 'Paid' | 'Canceled') {
  expect(flow.prepared.status).toBe(200)
  const signed = await signUserOp(payer, flow.prepared.body.userOp, flow.prepared.body.userOpHash)
  const answers = {
    permit: await api(base(), `/v1/pay/${id}/permit`, { payerAddress: payer.vault }),
    prepare: await api(base(), `/v1/pay/${id}/prepare`, { payerAddress: payer.vault, ownerAddress: payer.owner, permit: flow.permitSignature }),
    submit: await api(base(), `/v1/pay/${id}`, { userOp: signed }),
  }
  for (const [route, answer] of Object.entries(answers)) {
    expect(answer.status, route).toBe(400)
    expect(answer.body, route).toMatchObject({ error: 'INVALID_STATUS', code: 'INVALID_STATUS', status })
  }
}

describe('GET /v1/pay/:id', () => {
  test('default: answers the on-chain invoice with string amounts and the fee override', async () => {
    const demo = ctx.devnet.seed.invoices[0]!
    const { status, body } = await api(base(), `/v1/pay/${demo.id}`)
    expect(status).toBe(200)
    expect(body).toMatchObject({
      success: true,
      data: {
        id: demo.id.toString(),
        invoiceNumber: '1',
        merchant: ctx.devnet.seed.merchant.vault,
        payer: null,
        token: { address: ctx.devnet.deployment.token, symbol: 'USDC', decimals: 6 },
        amount: demo.amount.toString(),
        status: 'Issued',
        metaHash: hashMetadata(demo.metadata),
        dueAt: demo.dueAt.toString(),
        effectiveFeeBps: 0,
        settledFee: null,
        settledFeeBps: null,
      },
      metadata: { chainId: 31337 },
    })
  })

  // malformed ids: test/server/requestValidation.test.ts, without a chain
  test('behavior: an unknown id is 404, and the server keeps serving', async () => {
    expect((await api(base(), '/v1/pay/424242')).body).toMatchObject({ error: 'NOT_FOUND', code: 'NOT_FOUND' })
    expect((await api(base(), `/v1/pay/${ctx.devnet.seed.invoices[0]!.id}`)).status).toBe(200)
  })
})

describe('GET /v1/pay/:id/metadata', () => {
  test('behavior: without a valid token the metadata is onchain_only; missing, wrong and revoked look the same', async () => {
    const id = ctx.devnet.seed.invoices[0]!.id
    for (const query of ['', '?token=', '?token=svc_tk_wrong', `?token=svc_tk_${'x'.repeat(300)}`, `?token=${tokenOf(ctx.shareLinks[1]!.shareLink)}`]) {
      const { status, body } = await api(base(), `/v1/pay/${id}/metadata${query}`)
      expect(status, query).toBe(200)
      expect(body, query).toMatchObject({ success: true, accessLevel: 'onchain_only', metadata: null, data: { id: id.toString() } })
    }
  })

  test('behavior: the share link token opens the decrypted metadata, which hashes to the on-chain metaHash', async () => {
    const demo = ctx.devnet.seed.invoices[0]!
    const link = ctx.shareLinks.find((l) => l.invoiceId === demo.id)!
    expect(link.shareLink).toBe(`${base()}/pay/${demo.id}?token=${tokenOf(link.shareLink)}`)
    const { body, headers } = await api(base(), `/v1/pay/${demo.id}/metadata?token=${tokenOf(link.shareLink)}`)
    expect(body.accessLevel).toBe('full')
    expect(body.metadata).toEqual(demo.metadata)
    expect(hashMetadata(body.metadata)).toBe(body.data.metaHash)
    expect(headers.get('cache-control')).toBe('no-store')
    expect(headers.get('referrer-policy')).toBe('no-referrer')
  })
})

describe('GET /v1/pay/:id/pdf', () => {
  test('behavior: the PDF needs a token (400 TOKEN_REQUIRED) and with one is a real PDF attachment', async () => {
    const demo = ctx.devnet.seed.invoices[0]!
    const missing = await api(base(), `/v1/pay/${demo.id}/pdf`)
    expect(missing.status).toBe(400)
    expect(missing.body).toMatchObject({ error: 'TOKEN_REQUIRED', code: 'TOKEN_REQUIRED' })
    const link = ctx.shareLinks.find((l) => l.invoiceId === demo.id)!
    const response = await fetch(`${base()}/v1/pay/${demo.id}/pdf?token=${tokenOf(link.shareLink)}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="invoice-${demo.metadata.invoiceNumber}.pdf"`)
    const bytes = Buffer.from(await response.arrayBuffer())
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-')
    expect(bytes.length).toBeGreaterThan(1000)
  })

  test('behavior: the PDF with a wrong, another invoice\'s, expired or revoked token is 401 UNAUTHORIZED', async () => {
    const demo = ctx.devnet.seed.invoices[0]!
    const { tokens, invoiceKey } = ctx.server.stores
    const key = invoiceKey(demo.id)
    const expired = await tokens.createToken({ invoice: key, isDefault: false, expiresAt: new Date(Date.now() - 60_000) })
    const revoked = await tokens.createToken({ invoice: key, isDefault: false })
    await tokens.revokeToken(key, revoked.tokenId)
    const cases = {
      wrong: 'svc_tk_wrong',
      overlong: `svc_tk_${'x'.repeat(300)}`,
      otherInvoice: tokenOf(ctx.shareLinks[1]!.shareLink),
      expired: expired.token,
      revoked: revoked.token,
    }
    for (const [name, token] of Object.entries(cases)) {
      const { status, body, headers } = await api(base(), `/v1/pay/${demo.id}/pdf?token=${token}`)
      expect(status, name).toBe(401)
      expect(headers.get('content-type'), name).toMatch(/^application\/json/)
      expect(body, name).toMatchObject({ error: 'UNAUTHORIZED', code: 'UNAUTHORIZED', message: expect.any(String) })
    }
  })
})

describe('POST /v1/pay/:id/permit', () => {
  test('default: EIP-2612 typed data for the vault, the registry and the invoice amount, one hour by default', async () => {
    const invoice = ctx.devnet.seed.invoices[2]!
    const payer = ctx.devnet.seed.payer
    const before = Math.floor(Date.now() / 1000)
    const { status, body } = await api(base(), `/v1/pay/${invoice.id}/permit`, { payerAddress: payer.vault })
    expect(status).toBe(200)
    const { domain, primaryType, message } = body.permitToSign
    expect(domain).toEqual({ name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: ctx.devnet.deployment.token })
    expect(primaryType).toBe('Permit')
    expect(message).toMatchObject({ owner: payer.vault, spender: ctx.devnet.deployment.registry, value: invoice.amount.toString(), nonce: '0' })
    expect(Number(message.deadline) - before).toBeGreaterThanOrEqual(3599)
    expect(Number(message.deadline) - before).toBeLessThanOrEqual(3601)
    expect(body.invoice.id).toBe(invoice.id.toString())
  })

  test('behavior: a deadline under two minutes is 409 PERMIT_EXPIRED, over 24 hours is refused', async () => {
    const invoice = ctx.devnet.seed.invoices[2]!
    const now = Math.floor(Date.now() / 1000)
    const soon = await api(base(), `/v1/pay/${invoice.id}/permit`, { payerAddress: ctx.devnet.seed.payer.vault, permitDeadline: now + 100 })
    expect(soon.status).toBe(409)
    expect(soon.body).toMatchObject({ error: 'PERMIT_EXPIRED', code: 'PERMIT_EXPIRED' })
    const far = await api(base(), `/v1/pay/${invoice.id}/permit`, { payerAddress: ctx.devnet.seed.payer.vault, permitDeadline: now + 86_400 + 60 })
    expect(far.status).toBe(400)
    expect(far.body.code).toBe('PERMIT_DEADLINE_TOO_FAR')
  })

  test('behavior: permitDeadline is an integer or a decimal string; every answer gives a deadline as a decimal string', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const deadline = Math.floor(Date.now() / 1000) + 1800
    for (const permitDeadline of [deadline, String(deadline)]) {
      const { status, body } = await api(base(), `/v1/pay/${invoice.id}/permit`, { payerAddress: payer.vault, permitDeadline })
      expect(status).toBe(200)
      expect(body.permitToSign.message.deadline).toBe(String(deadline))
    }
    const { permit, prepared } = await permitAndPrepare(base(), invoice.id, payer, String(deadline))
    expect(prepared.status).toBe(200)
    expect(prepared.body.permitDeadline).toBe(String(deadline))
    // the widget reads both answers with the shared schemas
    expect(permitResponseSchema.safeParse(permit.body).success).toBe(true)
    expect(prepareResponseSchema.safeParse(prepared.body).success).toBe(true)
  })
})

describe('POST /v1/pay/:id', () => {
  test('behavior: a counterfactual payer vault pays: 200 confirmed, the invoice reads Paid, the balances moved', async () => {
    const { seed } = ctx.devnet
    const invoice = seed.invoices[1]!
    const merchantBefore = await balanceOf(seed.merchant.vault)
    expect(await ctx.devnet.clients.public.getCode({ address: seed.payer.vault })).toBeUndefined()

    const { submit, prepared } = await payThroughServer(base(), invoice.id, seed.payer)
    expect(prepared.body.userOp.factory).toBe(ctx.devnet.deployment.vaultFactory)
    expect(prepared.body.userOp.paymaster).toBe(ctx.devnet.deployment.paymaster)
    expect(submit.status).toBe(200)
    expect(submit.body).toEqual({ status: 'confirmed', userOpHash: prepared.body.userOpHash, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })

    const fee = invoice.amount / 100n
    expect(await balanceOf(seed.payer.vault)).toBe(parseUnits('10000', 6) - invoice.amount)
    expect(await balanceOf(seed.merchant.vault)).toBe(merchantBefore + invoice.amount - fee)
    const { body } = await api(base(), `/v1/pay/${invoice.id}`)
    expect(body.data).toMatchObject({ status: 'Paid', payer: seed.payer.vault, settledFee: fee.toString(), settledFeeBps: 100, effectiveFeeBps: null, txHash: submit.body.txHash })
  })

  test('behavior: addresses in any letter case pay: the recorded operation and the submitted one compare equal', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const lower = { ...payer, vault: payer.vault.toLowerCase() as `0x${string}`, owner: payer.owner.toLowerCase() as `0x${string}` }
    const { submit } = await payThroughServer(base(), invoice.id, lower)
    expect(submit.status).toBe(200)
    expect((await api(base(), `/v1/pay/${invoice.id}`)).body.data.status).toBe('Paid')
  })

  test('behavior: paying a Paid invoice is refused with 400 INVALID_STATUS at /permit, /prepare and submit', async () => {
    const invoice = await freshInvoice()
    const [payer, late] = [await freshPayer(), await freshPayer()]
    const lateFlow = await permitAndPrepare(base(), invoice.id, late)
    expect((await payThroughServer(base(), invoice.id, payer)).submit.status).toBe(200)
    await expectUnpayable(invoice.id, late, lateFlow, 'Paid')
    expect(await balanceOf(late.vault)).toBe(parseUnits('1000', 6))
  })

  test('behavior: paying a Canceled invoice is refused with 400 INVALID_STATUS at /permit, /prepare and submit', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const flow = await permitAndPrepare(base(), invoice.id, payer)
    await ctx.devnet.cancelInvoice(invoice.id)
    await expect.poll(async () => (await api(base(), `/v1/pay/${invoice.id}`)).body.data.status).toBe('Canceled')
    await expectUnpayable(invoice.id, payer, flow, 'Canceled')
    expect(await balanceOf(payer.vault)).toBe(parseUnits('1000', 6))
  })

  test('behavior: repeating the same submission never submits twice and answers from what is known', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const { submit, userOp, prepared } = await payThroughServer(base(), invoice.id, payer)
    expect(submit.status).toBe(200)
    const again = await Promise.all([1, 2, 3].map(() => api(base(), `/v1/pay/${invoice.id}`, { userOp })))
    for (const answer of again) expect(answer.body).toEqual(submit.body)
    const events = await ctx.devnet.clients.public.getContractEvents({ address: ctx.devnet.deployment.entryPoint, abi: entryPoint07Abi, eventName: 'UserOperationEvent', args: { userOpHash: prepared.body.userOpHash }, fromBlock: 0n })
    expect(events).toHaveLength(1)
    expect(await balanceOf(payer.vault)).toBe(parseUnits('1000', 6) - invoice.amount)
  })

  test('behavior: two payers racing for one invoice: exactly one Paid, nobody debited twice', async () => {
    const invoice = await freshInvoice()
    const [first, second] = [await freshPayer(), await freshPayer()]
    const [a, b] = await Promise.all([permitAndPrepare(base(), invoice.id, first), permitAndPrepare(base(), invoice.id, second)])
    const submits = await Promise.all(
      [[first, a], [second, b]].map(async ([payer, flow]: any) =>
        api(base(), `/v1/pay/${invoice.id}`, { userOp: await signUserOp(payer, flow.prepared.body.userOp, flow.prepared.body.userOpHash) }),
      ),
    )
    const statuses = submits.map((s) => s.status).sort()
    expect(statuses).toEqual([200, 400])
    expect(submits.find((s) => s.status === 400)!.body.code).toBe('TRANSACTION_FAILED')
    const balances = [await balanceOf(first.vault), await balanceOf(second.vault)].sort()
    expect(balances).toEqual([parseUnits('1000', 6) - invoice.amount, parseUnits('1000', 6)].sort())
    expect((await api(base(), `/v1/pay/${invoice.id}`)).body.data.status).toBe('Paid')
  })

  test('behavior: an operation changed after /prepare is refused; so are an unsigned one and a mismatched permitSignature', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const { prepared, permitSignature } = await permitAndPrepare(base(), invoice.id, payer)
    const signed = await signUserOp(payer, prepared.body.userOp, prepared.body.userOpHash)
    const tampered = await api(base(), `/v1/pay/${invoice.id}`, { userOp: { ...signed, callGasLimit: (BigInt(signed.callGasLimit) + 1n).toString() } })
    expect(tampered.status).toBe(400)
    expect(tampered.body.code).toBe('USEROP_NOT_PREPARED')
    const otherInvoice = await api(base(), `/v1/pay/${ctx.devnet.seed.invoices[0]!.id}`, { userOp: signed })
    expect(otherInvoice.body.code).toBe('USEROP_NOT_PREPARED')
    const unsigned = await api(base(), `/v1/pay/${invoice.id}`, { userOp: prepared.body.userOp })
    expect(unsigned.body.code).toBe('USEROP_SIGNATURE_INVALID')
    const mismatch = await api(base(), `/v1/pay/${invoice.id}`, { userOp: signed, permitSignature: { ...permitSignature, v: permitSignature.v === 27 ? 28 : 27 } })
    expect(mismatch.status).toBe(400)
    expect(mismatch.body.code).toBe('USEROP_PERMIT_MISMATCH')
    // none of that spent the operation: it still pays
    const ok = await api(base(), `/v1/pay/${invoice.id}`, { userOp: signed, permitSignature: { v: permitSignature.v, r: permitSignature.r, s: permitSignature.s } })
    expect(ok.status).toBe(200)
  })

  test('behavior: the operation is signed only as the owner\'s typed Payment message: personal_sign, another invoice or amount, a high-s twin or another key is 400 USEROP_SIGNATURE_INVALID', async () => {
    const invoice = await freshInvoice()
    const other = await freshInvoice()
    const payer = await freshPayer()
    const { prepared } = await permitAndPrepare(base(), invoice.id, payer)
    const { userOp, userOpHash } = prepared.body
    const owner = privateKeyToAccount(payer.ownerPrivateKey)
    const call = decodePayCallData(userOp.callData)
    const message = paymentMessage(call, payer.vault, userOpHash)
    const typed = (changed: object) => owner.signTypedData(paymentTypedData(ctx.devnet.deployment.chainId, { ...message, ...changed }))
    const signatures = {
      personalSign: await owner.signMessage({ message: { raw: userOpHash } }),
      anotherInvoice: await typed({ invoice: other.id }),
      anotherAmount: await typed({ amount: invoice.amount - 1n }),
      anotherChain: await owner.signTypedData(paymentTypedData(1, message)),
      highS: highSTwin(await typed({})),
      anotherKey: await privateKeyToAccount((await freshPayer()).ownerPrivateKey).signTypedData(paymentTypedData(ctx.devnet.deployment.chainId, message)),
    }
    for (const [name, signature] of Object.entries(signatures)) {
      const { status, body } = await api(base(), `/v1/pay/${invoice.id}`, { userOp: { ...userOp, signature } })
      expect(status, name).toBe(400)
      expect(body, name).toMatchObject({ error: 'USEROP_SIGNATURE_INVALID', code: 'USEROP_SIGNATURE_INVALID' })
    }
    // none of that spent the operation: signed as the wallet is asked, it pays
    const ok = await api(base(), `/v1/pay/${invoice.id}`, { userOp: await signUserOp(payer, userOp, userOpHash) })
    expect(ok.status).toBe(200)
  })

  test('behavior: an operation whose callData carries no signed permit is 400 USEROP_PERMIT_MISMATCH', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const { prepared } = await permitAndPrepare(base(), invoice.id, payer)
    const { registry, token } = ctx.devnet.deployment
    const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [payer.owner, invoice.amount] })
    const unsigned = { deadline: BigInt(prepared.body.permitDeadline), v: 27, r: zeroHash, s: zeroHash }
    const callDatas = {
      empty: '0x',
      anotherCall: encodeFunctionData({ abi: payerVaultAbi, functionName: 'execute', args: [token, 0n, transfer] }),
      unsignedPermit: encodePayCallData({ registry, invoiceId: invoice.id, invoiceNumber: invoice.invoiceNumber, merchant: ctx.devnet.seed.merchant.vault, token, amount: invoice.amount, feeBps: 100, permit: unsigned }),
    }
    for (const [name, callData] of Object.entries(callDatas)) {
      const userOp = await signUserOp(payer, { ...prepared.body.userOp, callData }, prepared.body.userOpHash)
      const { status, body } = await api(base(), `/v1/pay/${invoice.id}`, { userOp })
      expect(status, name).toBe(400)
      expect(body, name).toMatchObject({ error: 'USEROP_PERMIT_MISMATCH', code: 'USEROP_PERMIT_MISMATCH' })
    }
    // none of that spent the prepared operation: it still pays
    const ok = await api(base(), `/v1/pay/${invoice.id}`, { userOp: await signUserOp(payer, prepared.body.userOp, prepared.body.userOpHash) })
    expect(ok.status).toBe(200)
  })

  test('behavior: with under two minutes left on the permit, submit is 409 PERMIT_EXPIRED and nothing is sent', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const now = Math.floor(Date.now() / 1000)
    const { prepared } = await permitAndPrepare(base(), invoice.id, payer, now + 600)
    expect(prepared.status).toBe(200)
    expect(prepared.body.permitDeadline).toBe(String(now + 600))
    // the prepared payment ends where submit starts refusing: two minutes before the permit
    expect(Date.parse(prepared.body.expiresAt) / 1000).toBe(now + 600 - 120)
    const signed = await signUserOp(payer, prepared.body.userOp, prepared.body.userOpHash)
    clockSkewMs = 500_000
    try {
      const late = await api(base(), `/v1/pay/${invoice.id}`, { userOp: signed })
      expect(late.status).toBe(409)
      expect(late.body.code).toBe('PERMIT_EXPIRED')
    } finally {
      clockSkewMs = 0
    }
    expect((await api(base(), `/v1/pay/${invoice.id}`)).body.data.status).toBe('Issued')
    expect(await balanceOf(payer.vault)).toBe(parseUnits('1000', 6))
  })
})

describe('POST /v1/pay/:id/prepare', () => {
  test('behavior: a permit signed by another key is 400 PERMIT_SIGNATURE_INVALID', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const impostor = await freshPayer()
    const { permitSignature } = await permitAndPrepare(base(), invoice.id, { ...payer, ownerPrivateKey: impostor.ownerPrivateKey })
    const prepared = await api(base(), `/v1/pay/${invoice.id}/prepare`, { payerAddress: payer.vault, ownerAddress: payer.owner, permit: permitSignature })
    expect(prepared.status).toBe(400)
    expect(prepared.body).toMatchObject({ error: 'PERMIT_SIGNATURE_INVALID', code: 'PERMIT_SIGNATURE_INVALID' })
  })

  test('behavior: a permit v given as its y-parity bit (0 or 1) is taken as 27 or 28, and the payment goes through', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const { body } = await api(base(), `/v1/pay/${invoice.id}/permit`, { payerAddress: payer.vault })
    const { deadline } = body.permitToSign.message
    const signed = await signPermit(ctx.devnet.clients.public, ctx.devnet.deployment, { ...payer, value: invoice.amount, deadline: BigInt(deadline) })
    const { r, s } = signed
    const yParity = signed.v - 27
    const prepare = (v: number) => api(base(), `/v1/pay/${invoice.id}/prepare`, { payerAddress: payer.vault, ownerAddress: payer.owner, permit: { deadline, v, r, s } })
    // the other bit is the other 27/28, so a wrong signature: the mapping is exact, not a guess
    expect((await prepare(1 - yParity)).body.code).toBe('PERMIT_SIGNATURE_INVALID')
    const prepared = await prepare(yParity)
    expect(prepared.status).toBe(200)
    expect(decodePayCallData(prepared.body.userOp.callData).permit.v).toBe(signed.v)
    const userOp = await signUserOp(payer, prepared.body.userOp, prepared.body.userOpHash)
    const submit = await api(base(), `/v1/pay/${invoice.id}`, { userOp, permitSignature: { v: yParity, r, s } })
    expect(submit.status).toBe(200)
    expect(submit.body.status).toBe('confirmed')
  })

  test('behavior: a permit v other than 0, 1, 27 or 28 is 400 PERMIT_SIGNATURE_INVALID', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const { permitSignature } = await permitAndPrepare(base(), invoice.id, payer)
    for (const v of [2, 26, 29, 255]) {
      const { status, body } = await api(base(), `/v1/pay/${invoice.id}/prepare`, { payerAddress: payer.vault, ownerAddress: payer.owner, permit: { ...permitSignature, v } })
      expect(status, String(v)).toBe(400)
      expect(body, String(v)).toMatchObject({ error: 'PERMIT_SIGNATURE_INVALID', code: 'PERMIT_SIGNATURE_INVALID' })
    }
  })

  test('behavior: the vault\'s permit is its owner\'s signature for this vault exactly: one for a sibling vault of the same owner, or a high-s twin, is 400 PERMIT_SIGNATURE_INVALID', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const { deployment, clients } = ctx.devnet
    const { body } = await api(base(), `/v1/pay/${invoice.id}/permit`, { payerAddress: payer.vault })
    const deadline = BigInt(body.permitToSign.message.deadline)
    const sibling = await clients.public.readContract({ address: deployment.vaultFactory, abi: payerVaultFactoryAbi, functionName: 'getAddress', args: [payer.owner, 1n] })
    const forSibling = await signPermit(clients.public, deployment, { ...payer, vault: sibling, value: invoice.amount, deadline })
    const right = await signPermit(clients.public, deployment, { ...payer, value: invoice.amount, deadline })
    const twin = parseSignature(highSTwin(right.signature))
    const permits = {
      sibling: { deadline: deadline.toString(), v: forSibling.v, r: forSibling.r, s: forSibling.s },
      highS: { deadline: deadline.toString(), v: twin.yParity! + 27, r: twin.r, s: twin.s },
    }
    for (const [name, permit] of Object.entries(permits)) {
      const prepared = await api(base(), `/v1/pay/${invoice.id}/prepare`, { payerAddress: payer.vault, ownerAddress: payer.owner, permit })
      expect(prepared.status, name).toBe(400)
      expect(prepared.body, name).toMatchObject({ error: 'PERMIT_SIGNATURE_INVALID', code: 'PERMIT_SIGNATURE_INVALID' })
    }
    const prepared = await api(base(), `/v1/pay/${invoice.id}/prepare`, { payerAddress: payer.vault, ownerAddress: payer.owner, permit: { deadline: deadline.toString(), v: right.v, r: right.r, s: right.s } })
    expect(prepared.status).toBe(200)
  })

  test('behavior: a payer address that is not the owner vault is refused', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const other = await freshPayer()
    const { permitSignature } = await permitAndPrepare(base(), invoice.id, payer)
    const prepared = await api(base(), `/v1/pay/${invoice.id}/prepare`, { payerAddress: payer.vault, ownerAddress: other.owner, permit: permitSignature })
    expect(prepared.status).toBe(400)
    expect(prepared.body.code).toBe('PAYER_NOT_OWNER_VAULT')
  })

  test('behavior: a vault without enough funds is told how much it holds and needs before anything is sponsored', async () => {
    const invoice = await freshInvoice(parseUnits('50', 6))
    const payer = await freshPayer(parseUnits('20', 6))
    const { prepared } = await permitAndPrepare(base(), invoice.id, payer)
    expect(prepared.status).toBe(400)
    expect(prepared.body).toMatchObject({ code: 'INSUFFICIENT_BALANCE', balance: '20000000', required: '50000000' })
  })
})
