import { parseUnits, type Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import { api, payThroughServer, useServer } from '../support/server'

// the server's own executor key (no BUNDLER_URL): its bundle is a transaction in the node's mempool
const ctx = useServer({ overrides: { SUBMIT_WAIT_MS: '400', RECONCILE_INTERVAL_MS: '200', RECONCILE_LEASE_MS: '5000' } })
const base = () => ctx.server.url

describe('the reconciler with the local executor', () => {
  test('behavior: a bundle transaction the node dropped from its mempool is sent again and the invoice is Paid', async () => {
    const invoice = await ctx.devnet.newInvoice(parseUnits('40', 6))
    const payer = await ctx.devnet.newPayer(parseUnits('100', 6))
    await ctx.devnet.test.setAutomine(false)
    let dropped: Hex
    try {
      const { submit } = await payThroughServer(base(), invoice.id, payer)
      expect(submit.status).toBe(202)
      const submission = await ctx.server.stores.payments.getSubmission(submit.body.userOpHash)
      dropped = submission!.bundlerRef as Hex
      await ctx.devnet.test.dropTransaction({ hash: dropped })
    } finally {
      await ctx.devnet.test.setAutomine(true)
    }
    await expect.poll(async () => (await api(base(), `/v1/pay/${invoice.id}`)).body.data.status, { timeout: 15_000, interval: 200 }).toBe('Paid')
    expect(await ctx.devnet.balanceOf(payer.vault)).toBe(parseUnits('60', 6))
    // sent again once: the same executor nonce and bundle make the same transaction, now mined
    const metrics = await (await fetch(`${base()}/metrics`)).text()
    expect(metrics).toMatch(/^svc_checkout_resubmissions_total\{outcome="resubmitted"\} 1$/m)
    const { body } = await api(base(), `/v1/pay/${invoice.id}`)
    expect(body.data.txHash).toBe(dropped)
    expect((await ctx.devnet.clients.public.getTransactionReceipt({ hash: dropped })).status).toBe('success')
  })
})
