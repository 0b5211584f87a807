import { parseUnits } from 'viem'
import { afterAll, describe, expect, test } from 'vitest'
import { useInstances } from '../support/instances'
import { startDevnetRpcBundlerServer, type startRpcBundlerServer } from '../support/rpcBundlerServer'
import { api, payThroughServer } from '../support/server'

let bundler: Awaited<ReturnType<typeof startRpcBundlerServer>>
const ctx = useInstances({
  overrides: { SUBMIT_WAIT_MS: '400', RECONCILE_INTERVAL_MS: '100', RECONCILE_LEASE_MS: '5000' },
  async beforeServers(devnet) {
    bundler = await startDevnetRpcBundlerServer(devnet)
    return { BUNDLER_URL: bundler.url, PAYMASTER_URL: bundler.url }
  },
})
afterAll(() => bundler?.stop())
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function resubmitted(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text()
  return Number(/^svc_checkout_resubmissions_total\{outcome="resubmitted"\} (\d+)/m.exec(text)?.[1] ?? 0)
}

describe('the reconciler on two instances sharing one PostgreSQL', () => {
  test('behavior: a dropped operation is resubmitted exactly once across both instances, and the invoice is Paid', async () => {
    const [a, b] = ctx.servers
    const invoice = await ctx.devnet.newInvoice(parseUnits('40', 6))
    const payer = await ctx.devnet.newPayer(parseUnits('100', 6))
    const sendsBefore = bundler.calls.eth_sendUserOperation ?? 0
    bundler.forgetNextOperation()
    const { submit } = await payThroughServer(a.url, invoice.id, payer)
    expect(submit.status).toBe(202)
    await expect.poll(async () => (await api(b.url, `/v1/pay/${invoice.id}`)).body.data.status, { timeout: 15_000, interval: 200 }).toBe('Paid')
    // both loops keep passing over it: still one resubmission
    await sleep(1_000)
    expect((bundler.calls.eth_sendUserOperation ?? 0) - sendsBefore).toBe(2)
    expect((await resubmitted(a.url)) + (await resubmitted(b.url))).toBe(1)
    expect(await ctx.devnet.balanceOf(payer.vault)).toBe(parseUnits('60', 6))
    expect(await a.stores.payments.getSubmission(submit.body.userOpHash)).toMatchObject({ state: 'confirmed' })
  })
})
