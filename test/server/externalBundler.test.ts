import { parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { useServerWithRpcBundler } from '../support/rpcBundlerContext'
import { api, payThroughServer, permitAndPrepare, signUserOp } from '../support/server'

const ctx = useServerWithRpcBundler()
const base = () => ctx.server.url

const { balanceOf } = ctx.devnet
const freshInvoice = () => ctx.devnet.newInvoice(parseUnits('40', 6))
const freshPayer = () => ctx.devnet.newPayer(parseUnits('100', 6))
const statusOf = async (id: bigint) => (await api(base(), `/v1/pay/${id}`)).body.data.status

describe('an external ERC-4337 bundler and ERC-7677 paymaster', () => {
  test('behavior: a payment goes through the bundler and paymaster services over JSON-RPC', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const before = { ...ctx.bundler.calls }
    const { submit } = await payThroughServer(base(), invoice.id, payer)
    expect(submit.status).toBe(200)
    expect(await statusOf(invoice.id)).toBe('Paid')
    expect(await balanceOf(payer.vault)).toBe(parseUnits('60', 6))
    for (const method of ['pm_getPaymasterStubData', 'pm_getPaymasterData', 'eth_estimateUserOperationGas', 'eth_sendUserOperation']) {
      expect((ctx.bundler.calls[method] ?? 0) - (before[method] ?? 0), method).toBe(1)
    }
  })

  test('behavior: a bad permit costs the paymaster nothing: no sponsorship is asked for', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const impostor = await freshPayer()
    const before = { ...ctx.bundler.calls }
    const { prepared } = await permitAndPrepare(base(), invoice.id, { ...payer, ownerPrivateKey: impostor.ownerPrivateKey })
    expect(prepared.body.code).toBe('PERMIT_SIGNATURE_INVALID')
    expect(ctx.bundler.calls).toEqual(before)
  })

  test('behavior: with the bundler unreachable submit is 503 and nothing is lost: the same signed operation pays later', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const { prepared } = await permitAndPrepare(base(), invoice.id, payer)
    const userOp = await signUserOp(payer, prepared.body.userOp, prepared.body.userOpHash)
    await ctx.bundler.stop()
    try {
      const down = await api(base(), `/v1/pay/${invoice.id}`, { userOp })
      expect(down.status).toBe(503)
      expect(down.body).toMatchObject({ error: 'BUNDLER_UNAVAILABLE', code: 'BUNDLER_UNAVAILABLE' })
    } finally {
      await ctx.bundler.start()
    }
    expect(await statusOf(invoice.id)).toBe('Issued')
    const again = await api(base(), `/v1/pay/${invoice.id}`, { userOp })
    expect(again.status).toBe(200)
    expect(again.body.userOpHash).toBe(prepared.body.userOpHash)
    expect(await balanceOf(payer.vault)).toBe(parseUnits('60', 6))
  })

  test('behavior: a reply lost after submission: 202 pending, a retry sends nothing new, and the invoice turns Paid', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const { prepared } = await permitAndPrepare(base(), invoice.id, payer)
    const userOp = await signUserOp(payer, prepared.body.userOp, prepared.body.userOpHash)
    ctx.bundler.hold()
    const sendsBefore = ctx.bundler.calls.eth_sendUserOperation ?? 0
    const first = await api(base(), `/v1/pay/${invoice.id}`, { userOp })
    expect(first.status).toBe(202)
    expect(first.body).toMatchObject({ status: 'pending', userOpHash: prepared.body.userOpHash })
    // the payer never saw that answer and tries again
    const retry = await api(base(), `/v1/pay/${invoice.id}`, { userOp })
    expect(retry.status).toBe(202)
    await ctx.bundler.release()
    // as the widget does while pending: read the invoice until it is Paid (reads are cached up to 1 s)
    await expect.poll(() => statusOf(invoice.id), { timeout: 5_000, interval: 200 }).toBe('Paid')
    const settled = await api(base(), `/v1/pay/${invoice.id}`, { userOp })
    expect(settled.status).toBe(200)
    expect(settled.body.status).toBe('confirmed')
    expect((ctx.bundler.calls.eth_sendUserOperation ?? 0) - sendsBefore).toBe(1)
    expect(await balanceOf(payer.vault)).toBe(parseUnits('60', 6))
  })

  test('behavior: a server restart between prepare and submit loses nothing', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const { prepared } = await permitAndPrepare(base(), invoice.id, payer)
    const userOp = await signUserOp(payer, prepared.body.userOp, prepared.body.userOpHash)
    await ctx.restart()
    const submit = await api(base(), `/v1/pay/${invoice.id}`, { userOp })
    expect(submit.status).toBe(200)
    expect(await statusOf(invoice.id)).toBe('Paid')
  })
})
