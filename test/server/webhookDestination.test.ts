import { randomBytes } from 'node:crypto'
import { privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest'
import type { Address, Hex } from 'viem'
import { jsonLogger, silentLogger } from '../../server/http/logger'
import { createMetrics } from '../../server/ops/metrics'
import type { Database } from '../../server/store/database'
import { openStores, type Stores } from '../../server/store/openStores'
import { defaultWebhookSchedule, deliverWebhooksOnce, startWebhookDelivery, type WebhookDeliveryDependencies } from '../../server/webhooks/deliverWebhooks'
import { verifyWebhookUrl, type HostLookup } from '../../server/webhooks/verifyWebhookUrl'
import { useDatabases } from '../support/postgres'
import { startWebhookReceiver, verified } from '../support/webhookReceiver'

const randomAddress = () => privateKeyToAddress(`0x${randomBytes(32).toString('hex')}`)
const randomHash = () => `0x${randomBytes(32).toString('hex')}` as Hex

let db: Database
let stores: Stores
let vault: Address
let studioId: string
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>
// the worker's PostgreSQL, as production sends from; npm start's devnet sends from PGlite (its
// storefront's order turns paid by a delivered webhook: test/e2e/storefrontOrder.e2e.test.ts)
const databases = useDatabases()
beforeAll(async () => {
  receiver = await startWebhookReceiver((request) => (request.path === '/slow' || request.path === '/stalled' ? 'hang' : { status: 200 }))
  db = await databases.open('postgres')
  stores = openStores({ CHAIN_ID: 31337, REGISTRY_ADDRESS: randomAddress(), METADATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') }, db)
  vault = randomAddress()
  studioId = (await stores.studios.createStudio({ name: 'Shop', vaultAddress: vault, chainId: 31337 })).id
})
afterAll(async () => {
  await receiver?.close()
})

/** Events of the studio's vault, as the follower would enqueue them: each its own log. */
async function enqueue(count: number) {
  const cursor = await stores.webhookOutbox.readCursor(0n)
  const events = Array.from({ length: count }, (_, logIndex) => {
    const data = { chainId: 31337, registry: randomAddress(), invoiceId: String(logIndex + 1), merchant: vault, txHash: randomHash(), logIndex, blockNumber: cursor.nextBlock.toString(), blockTime: new Date().toISOString() }
    return { txHash: data.txHash, logIndex, blockNumber: cursor.nextBlock, merchant: vault, event: { type: 'invoice.canceled' as const, timestamp: data.blockTime, data } }
  })
  const inserted = await stores.webhookOutbox.advance({ from: cursor.nextBlock, to: cursor.nextBlock, toHash: randomHash(), events })
  expect(inserted).toHaveLength(count)
  return events
}

/** An endpoint stored as it is (its URL checked when it was registered, not now) and one event for it. */
async function endpointWithEvent(url: string) {
  const { endpoint } = await stores.webhookEndpoints.createEndpoint({ studioId, url, events: ['invoice.canceled'] })
  await enqueue(1)
  return endpoint
}

function worker(overrides: Partial<WebhookDeliveryDependencies> = {}) {
  return {
    outbox: stores.webhookOutbox,
    endpoints: stores.webhookEndpoints,
    allowPrivateUrls: false,
    logger: silentLogger,
    metrics: createMetrics(),
    now: Date.now,
    schedule: defaultWebhookSchedule,
    instance: 'test-instance',
    ...overrides,
  }
}

const deliveryOf = async (endpointId: string) =>
  (await db.query<{ state: string; attempts: number; due_in_ms: number }>(
    `SELECT state, attempts, (extract(epoch FROM next_attempt_at - now()) * 1000)::integer AS due_in_ms FROM webhook_deliveries WHERE endpoint_id = $1`,
    [endpointId],
  ))[0]!

describe('where a webhook is sent', () => {
  test('behavior: a URL that now leads to a private address is checked again at delivery and not called; the refusal is logged and counted as refused, and the delivery waits for its retry', async () => {
    const endpoint = await endpointWithEvent(`${receiver.url}/private`)
    const lines: string[] = []
    const metrics = createMetrics()
    expect(await deliverWebhooksOnce(worker({ logger: jsonLogger((line) => lines.push(line)), metrics }))).toEqual(['refused'])
    expect(receiver.at('/private')).toEqual([])
    expect((await metrics.webhookDeliveries.get()).values).toEqual([expect.objectContaining({ labels: { outcome: 'refused' }, value: 1 })])
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 'warn', code: 'WEBHOOK_URL_REFUSED', reason: 'not_public', endpointId: endpoint.id, message: expect.stringContaining('127.0.0.1, which is not a public address') }),
    ])
    // the URL's path may carry a merchant's token: the log names the host only
    expect(lines.join('\n')).not.toContain('/private')
    const delivery = await deliveryOf(endpoint.id)
    expect(delivery).toMatchObject({ state: 'pending', attempts: 1 })
    expect(delivery.due_in_ms).toBeGreaterThan(4_000)
    expect(delivery.due_in_ms).toBeLessThanOrEqual(5_000)
    await stores.webhookEndpoints.deleteEndpoint(studioId, endpoint.id)
  })

  test('behavior: a host that does not resolve is counted as unresolved, apart from the address check, and logged naming the host; the delivery waits for its retry', async () => {
    // .invalid never resolves (RFC 6761): the system's own resolver answers no, or not within the lookup timeout
    const endpoint = await endpointWithEvent('https://hooks.svc-checkout.invalid/orders')
    onTestFinished(async () => {
      await stores.webhookEndpoints.deleteEndpoint(studioId, endpoint.id)
    })
    const lines: string[] = []
    const metrics = createMetrics()
    expect(await deliverWebhooksOnce(worker({ logger: jsonLogger((line) => lines.push(line)), metrics }))).toEqual(['unresolved'])
    expect((await metrics.webhookDeliveries.get()).values).toEqual([expect.objectContaining({ labels: { outcome: 'unresolved' }, value: 1 })])
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 'warn', code: 'WEBHOOK_URL_REFUSED', reason: 'unresolved', endpointId: endpoint.id, message: expect.stringContaining('hooks.svc-checkout.invalid') }),
    ])
    expect(await deliveryOf(endpoint.id)).toMatchObject({ state: 'pending', attempts: 1 })
  })

  test('behavior: the connection goes to the address that was checked, whatever the name would resolve to later', async () => {
    // a name the system cannot resolve at all: reaching the receiver proves the checked address was used
    const lookups: string[] = []
    const lookup: HostLookup = async (hostname) => {
      lookups.push(hostname)
      return [{ address: '127.0.0.1', family: 4 }]
    }
    const port = new URL(receiver.url).port
    const endpoint = await endpointWithEvent(`http://hooks.rebind.test:${port}/pinned`)
    expect(await deliverWebhooksOnce(worker({ allowPrivateUrls: true, lookup }))).toEqual(['delivered'])
    expect(lookups).toEqual(['hooks.rebind.test'])
    expect(receiver.at('/pinned')).toHaveLength(1)
    expect(receiver.at('/pinned')[0]!.headers.host).toBe(`hooks.rebind.test:${port}`)
    expect(await deliveryOf(endpoint.id)).toMatchObject({ state: 'delivered', attempts: 1 })
    await stores.webhookEndpoints.deleteEndpoint(studioId, endpoint.id)
  })

  test('behavior: a receiver that does not answer within the timeout is a timeout, retried later', async () => {
    const endpoint = await endpointWithEvent(`${receiver.url}/slow`)
    const started = Date.now()
    expect(await deliverWebhooksOnce(worker({ allowPrivateUrls: true, schedule: { ...defaultWebhookSchedule, timeoutMs: 300 } }))).toEqual(['timeout'])
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(receiver.at('/slow')).toHaveLength(1)
    expect(await deliveryOf(endpoint.id)).toMatchObject({ state: 'pending', attempts: 1 })
    await stores.webhookEndpoints.deleteEndpoint(studioId, endpoint.id)
  })

  test('behavior: the body sent is the event exactly as serialized when it was enqueued, byte for byte, and its signature covers those bytes', async () => {
    const { endpoint, secret } = await stores.webhookEndpoints.createEndpoint({ studioId, url: `${receiver.url}/exact`, events: ['invoice.canceled'] })
    onTestFinished(async () => {
      await stores.webhookEndpoints.deleteEndpoint(studioId, endpoint.id)
    })
    const [enqueued] = await enqueue(1)
    expect(await deliverWebhooksOnce(worker({ allowPrivateUrls: true }))).toEqual(['delivered'])
    const [delivery] = receiver.at('/exact')
    // the order the event was built in (type, timestamp, data), not the one a jsonb column keeps
    expect(delivery!.body).toBe(JSON.stringify(enqueued!.event))
    expect(verified(secret, delivery!)).toEqual(enqueued!.event)
  })

  test('behavior: an attempt that throws (a secret that will not open) is recorded as an error and retried on the schedule, without stopping the pass or leaking the secret or the body into the log', async () => {
    const broken = await stores.webhookEndpoints.createEndpoint({ studioId, url: `${receiver.url}/broken`, events: ['invoice.canceled'] })
    const healthy = await stores.webhookEndpoints.createEndpoint({ studioId, url: `${receiver.url}/healthy`, events: ['invoice.canceled'] })
    onTestFinished(async () => {
      await stores.webhookEndpoints.deleteEndpoint(studioId, broken.endpoint.id)
      await stores.webhookEndpoints.deleteEndpoint(studioId, healthy.endpoint.id)
    })
    const [enqueued] = await enqueue(1)
    await db.query('UPDATE webhook_secrets SET ciphertext = $1 WHERE endpoint_id = $2', [randomBytes(48), broken.endpoint.id])
    const lines: string[] = []
    const metrics = createMetrics()
    const outcomes = await deliverWebhooksOnce(worker({ allowPrivateUrls: true, logger: jsonLogger((line) => lines.push(line)), metrics }))
    expect(outcomes.sort()).toEqual(['delivered', 'error'])
    expect(receiver.at('/healthy')).toHaveLength(1)
    expect(receiver.at('/broken')).toEqual([])
    const delivery = await deliveryOf(broken.endpoint.id)
    expect(delivery).toMatchObject({ state: 'pending', attempts: 1 })
    expect(delivery.due_in_ms).toBeGreaterThan(4_000)
    expect(delivery.due_in_ms).toBeLessThanOrEqual(5_000)
    expect((await metrics.webhookDeliveries.get()).values).toEqual(
      expect.arrayContaining([expect.objectContaining({ labels: { outcome: 'error' }, value: 1 }), expect.objectContaining({ labels: { outcome: 'delivered' }, value: 1 })]),
    )
    const logged = lines.map((line) => JSON.parse(line)).filter((line) => line.code === 'WEBHOOK_ATTEMPT_FAILED')
    expect(logged).toEqual([
      expect.objectContaining({ level: 'warn', endpointId: broken.endpoint.id, error: { name: 'DecryptionError', errorCode: 'DECRYPTION_FAILED', message: expect.any(String) } }),
    ])
    for (const line of lines) {
      expect(line).not.toContain(broken.secret)
      expect(line).not.toContain(enqueued!.txHash)
    }
  })

  test('behavior: a delivery leased to one instance is not claimed by another until its lease runs out', async () => {
    const endpoint = await endpointWithEvent(`${receiver.url}/leased`)
    const first = await stores.webhookOutbox.claim({ instance: 'a', leaseMs: 60_000, limit: 10 })
    expect(first.map((delivery) => delivery.endpointId)).toEqual([endpoint.id])
    expect(await stores.webhookOutbox.claim({ instance: 'b', leaseMs: 60_000, limit: 10 })).toEqual([])
    await db.query(`UPDATE webhook_deliveries SET lease_until = now() - interval '1 millisecond' WHERE endpoint_id = $1`, [endpoint.id])
    const second = await stores.webhookOutbox.claim({ instance: 'b', leaseMs: 60_000, limit: 10 })
    expect(second.map((delivery) => delivery.webhookId)).toEqual(first.map((delivery) => delivery.webhookId))
    // the instance that lost its lease can no longer settle the delivery
    await stores.webhookOutbox.markDelivered(first[0]!, 'a', 200)
    expect(await deliveryOf(endpoint.id)).toMatchObject({ state: 'pending', attempts: 0 })
    await stores.webhookEndpoints.deleteEndpoint(studioId, endpoint.id)
  })

  test("behavior: a claim takes no more of one endpoint's backlog than its share, counting what the instance already sends there, and reaches the other endpoints' deliveries", async () => {
    const busy = await stores.webhookEndpoints.createEndpoint({ studioId, url: `${receiver.url}/busy`, events: ['invoice.canceled'] })
    await enqueue(5)
    const other = await stores.webhookEndpoints.createEndpoint({ studioId, url: `${receiver.url}/other`, events: ['invoice.canceled'] })
    onTestFinished(async () => {
      await stores.webhookEndpoints.deleteEndpoint(studioId, busy.endpoint.id)
      await stores.webhookEndpoints.deleteEndpoint(studioId, other.endpoint.id)
    })
    await enqueue(1)
    const claimed = await stores.webhookOutbox.claim({ instance: 'a', leaseMs: 60_000, limit: 10, perEndpoint: 2, inFlight: new Map([[busy.endpoint.id, 1]]) })
    const count = (endpointId: string) => claimed.filter((delivery) => delivery.endpointId === endpointId).length
    expect({ busy: count(busy.endpoint.id), other: count(other.endpoint.id) }).toEqual({ busy: 1, other: 1 })
  })

  test('behavior: pruning removes finished deliveries and their events past the retention, and keeps what is still to send', async () => {
    const done = await endpointWithEvent(`${receiver.url}/pruned`)
    expect(await deliverWebhooksOnce(worker({ allowPrivateUrls: true }))).toEqual(['delivered'])
    const waiting = await endpointWithEvent(`${receiver.url}/still-due`)
    const count = async (table: string) => (await db.query<{ count: number }>(`SELECT count(*)::integer AS count FROM ${table}`))[0]!.count
    const deliveries = await count('webhook_deliveries')
    // nothing finished before an hour ago
    expect(await stores.webhookOutbox.pruneFinished(new Date(Date.now() - 3_600_000))).toBe(0)
    expect(await stores.webhookOutbox.pruneFinished(new Date(Date.now() + 1_000))).toBe(1)
    expect(await count('webhook_deliveries')).toBe(deliveries - 1)
    // the events of the tests above went too: their deliveries left with their endpoints
    expect(await count('webhook_events')).toBe(1)
    expect(await deliveryOf(waiting.id)).toMatchObject({ state: 'pending', attempts: 0 })
    await stores.webhookEndpoints.deleteEndpoint(studioId, done.id)
    await stores.webhookEndpoints.deleteEndpoint(studioId, waiting.id)
  })
})

describe('a receiver slower than the timeout', () => {
  test("behavior: it holds only its own slots: another endpoint's event, enqueued while it stalls, is delivered within a claim interval, not after the timeout", async () => {
    const timeoutMs = 3_000
    const stalled = await stores.webhookEndpoints.createEndpoint({ studioId, url: `${receiver.url}/stalled`, events: ['invoice.canceled'] })
    onTestFinished(async () => {
      await stores.webhookEndpoints.deleteEndpoint(studioId, stalled.endpoint.id)
    })
    // a backlog for the stalled receiver alone, more than one claim takes
    await enqueue(12)
    const sender = startWebhookDelivery(worker({
      allowPrivateUrls: true,
      schedule: { ...defaultWebhookSchedule, intervalMs: 50, timeoutMs, leaseMs: 10_000, retryDelaysMs: [60_000] },
    }))
    onTestFinished(() => sender.stop())
    await expect.poll(() => receiver.at('/stalled').length, { timeout: 5_000, interval: 10 }).toBe(defaultWebhookSchedule.endpointConcurrency)
    const prompt = await stores.webhookEndpoints.createEndpoint({ studioId, url: `${receiver.url}/prompt`, events: ['invoice.canceled'] })
    onTestFinished(async () => {
      await stores.webhookEndpoints.deleteEndpoint(studioId, prompt.endpoint.id)
    })
    const enqueuedAt = Date.now()
    await enqueue(1)
    await expect.poll(() => receiver.at('/prompt').length, { timeout: 2 * timeoutMs, interval: 10 }).toBe(1)
    const latencyMs = receiver.at('/prompt')[0]!.at - enqueuedAt
    expect(latencyMs).toBeLessThan(1_000)
    // meanwhile the stalled receiver had no more than its share at once
    expect(receiver.at('/stalled')).toHaveLength(defaultWebhookSchedule.endpointConcurrency)
    // the receiver has it; the sender notes the answer a moment later
    await expect.poll(() => deliveryOf(prompt.endpoint.id)).toMatchObject({ state: 'delivered', attempts: 1 })
  })
})

describe('verifyWebhookUrl: a resolver that never answers', () => {
  test('behavior: the URL is refused once the lookup timeout passes, naming the host', async () => {
    const started = Date.now()
    const never = () => new Promise<{ address: string; family: number }[]>(() => {})
    await expect(verifyWebhookUrl('https://slow.shop.example/hook', { allowPrivate: false, lookup: never, lookupTimeoutMs: 200 }))
      .rejects.toThrow("the webhook URL's host slow.shop.example did not resolve within 200 ms")
    expect(Date.now() - started).toBeLessThan(2_000)
  })
})
