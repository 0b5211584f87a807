import { parseUnits } from 'viem'
import { afterAll, describe, expect, test } from 'vitest'
import { startDevnetRpcBundlerServer, type startRpcBundlerServer } from '../support/rpcBundlerServer'
import { api, payThroughServer, useServer } from '../support/server'

let bundler: Awaited<ReturnType<typeof startRpcBundlerServer>>
// the server's clock, moved forward to see an operation outlive its permit
let clockOffsetMs = 0
const ctx = useServer({
  now: () => Date.now() + clockOffsetMs,
  overrides: { SUBMIT_WAIT_MS: '400', RECONCILE_INTERVAL_MS: '200', RECONCILE_LEASE_MS: '5000' },
  async beforeServer(devnet) {
    bundler = await startDevnetRpcBundlerServer(devnet)
    return { BUNDLER_URL: bundler.url, PAYMASTER_URL: bundler.url }
  },
})
afterAll(() => bundler?.stop())
const base = () => ctx.server.url
const statusOf = async (id: bigint) => (await api(base(), `/v1/pay/${id}`)).body.data.status
const sends = () => bundler.calls.eth_sendUserOperation ?? 0
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function resubmissions(outcome: string): Promise<number> {
  const text = await (await fetch(`${base()}/metrics`)).text()
  return Number(new RegExp(`^svc_checkout_resubmissions_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0)
}

describe('the reconciler', () => {
  test('behavior: an operation the bundler accepted and then forgot is resubmitted once, unchanged, and the invoice is Paid', async () => {
    const invoice = await ctx.devnet.newInvoice(parseUnits('40', 6))
    const payer = await ctx.devnet.newPayer(parseUnits('100', 6))
    const sendsBefore = sends()
    bundler.forgetNextOperation()
    const { submit, userOp } = await payThroughServer(base(), invoice.id, payer)
    expect(submit.status).toBe(202)
    expect(submit.body.status).toBe('pending')
    // read from the chain, as the widget does while pending
    await expect.poll(() => statusOf(invoice.id), { timeout: 15_000, interval: 200 }).toBe('Paid')
    // several more passes: nothing is sent again
    await sleep(1_000)
    expect(sends() - sendsBefore).toBe(2)
    expect(await resubmissions('resubmitted')).toBe(1)
    expect(await ctx.devnet.balanceOf(payer.vault)).toBe(parseUnits('60', 6))
    // the payer's retry finds it settled: the reconciler recorded the transaction
    const again = await api(base(), `/v1/pay/${invoice.id}`, { userOp })
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ status: 'confirmed', userOpHash: submit.body.userOpHash, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
  })

  test('behavior: a forgotten operation whose permit has lapsed is not sent again: recorded lost, the invoice stays Issued', async () => {
    const invoice = await ctx.devnet.newInvoice(parseUnits('40', 6))
    const payer = await ctx.devnet.newPayer(parseUnits('100', 6))
    bundler.forgetNextOperation()
    const sendsBefore = sends() + 1
    const paying = payThroughServer(base(), invoice.id, payer)
    // the permit lapses while the submission waits for its receipt, before any reconciler pass can
    // claim the operation: moved after the answer, a pass could resend it first
    await expect.poll(sends, { timeout: 10_000, interval: 20 }).toBe(sendsBefore)
    clockOffsetMs = 25 * 3_600_000
    const { submit, userOp } = await paying
    expect(submit.status).toBe(202)
    await expect.poll(() => resubmissions('lost'), { timeout: 10_000, interval: 200 }).toBe(1)
    expect(sends()).toBe(sendsBefore)
    expect(await ctx.server.stores.payments.getSubmission(submit.body.userOpHash)).toMatchObject({ state: 'lost' })
    expect(await statusOf(invoice.id)).toBe('Issued')
    expect(await ctx.devnet.balanceOf(payer.vault)).toBe(parseUnits('100', 6))
    // the payer's retry is told to start again, not to wait
    const again = await api(base(), `/v1/pay/${invoice.id}`, { userOp })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ error: 'PERMIT_EXPIRED', code: 'PERMIT_EXPIRED' })
    expect(sends()).toBe(sendsBefore)
  })
})
