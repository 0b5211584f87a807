import { parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { useInstances } from '../support/instances'
import { signedRequest } from '../support/signedRequest'
import { startWebhookReceiver, verified } from '../support/webhookReceiver'

const ctx = useInstances({ overrides: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_INTERVAL_MS: '20' } })
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>
beforeAll(async () => {
  receiver = await startWebhookReceiver()
})
afterAll(() => receiver?.close())
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A counter's samples on one instance's /metrics, by its one label's value (samples of 0 left out). */
async function samples(base: string, counter: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${base}/metrics`)).text()
  const found: Record<string, number> = {}
  for (const [, label, value] of text.matchAll(new RegExp(`^${counter}\\{\\w+="([^"]+)"\\} (\\d+)$`, 'gm'))) {
    if (Number(value) > 0) found[label!] = Number(value)
  }
  return found
}

/** The counter summed over both instances: what they did between them, whichever did it. */
async function onBoth(bases: string[], counter: string): Promise<Record<string, number>> {
  const total: Record<string, number> = {}
  for (const perInstance of await Promise.all(bases.map((base) => samples(base, counter)))) {
    for (const [label, value] of Object.entries(perInstance)) total[label] = (total[label] ?? 0) + value
  }
  return total
}

describe('webhooks on two instances sharing one PostgreSQL', () => {
  test('behavior: both read the registry and send, and each event is enqueued once and delivered once', async () => {
    const [a, b] = ctx.servers
    const created = await signedRequest(a.url, ctx.merchant.apiKey, { method: 'POST', path: '/v1/webhook-endpoints', body: JSON.stringify({ url: `${receiver.url}/hooks` }) })
    expect(created.status).toBe(201)
    // the endpoint registered on one instance is the other's too
    const listed = await signedRequest(b.url, ctx.merchant.apiKey, { method: 'GET', path: '/v1/webhook-endpoints' })
    expect(listed.body.endpoints.map((endpoint: { id: string }) => endpoint.id)).toEqual([created.body.id])
    const invoices = []
    for (let i = 0; i < 6; i++) invoices.push(await ctx.devnet.newInvoice(parseUnits(String(i + 1), 6)))
    for (const invoice of invoices) await ctx.devnet.cancelInvoice(invoice.id)
    await expect.poll(() => receiver.at('/hooks').length, { timeout: 15_000, interval: 50 }).toBe(6)
    // both loops keep passing over the same blocks and outbox: still one each
    await sleep(1_500)
    const received = receiver.at('/hooks')
    expect(received).toHaveLength(6)
    expect(new Set(received.map((request) => request.headers['webhook-id'])).size).toBe(6)
    expect(received.map((request) => verified(created.body.secret, request).data.invoiceId).sort()).toEqual(invoices.map((invoice) => invoice.id.toString()).sort())
    // each event enqueued once and each delivery attempted once, between the two instances: every
    // attempt either made is counted, by outcome, and the sum is six deliveries and nothing else
    const bases = [a.url, b.url]
    await expect.poll(() => onBoth(bases, 'svc_checkout_webhook_events_total')).toEqual({ 'invoice.canceled': 6 })
    await expect.poll(() => onBoth(bases, 'svc_checkout_webhook_deliveries_total')).toEqual({ delivered: 6 })
    const rows = await a.stores.db.query<{ state: string; attempts: number }>('SELECT state, attempts FROM webhook_deliveries WHERE endpoint_id = $1', [created.body.id])
    expect(rows).toEqual(Array.from({ length: 6 }, () => ({ state: 'delivered', attempts: 1 })))
  })
})
