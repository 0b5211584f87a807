import { randomBytes } from 'node:crypto'
import { parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { cancelInvoice, createMerchant, issueInvoice } from '../../devnet/seed'
import { jsonLogger } from '../../server/http/logger'
import { createMetrics } from '../../server/ops/metrics'
import { openDatabase, type Database } from '../../server/store/database'
import { migrate } from '../../server/store/migrations'
import { openStores, type Stores } from '../../server/store/openStores'
import { followRegistryOnce, type RegistryFollowerDependencies } from '../../server/webhooks/followRegistry'
import { useDevnet } from '../support/devnet'

const devnet = useDevnet()
let db: Database
let stores: Stores
const lines: string[] = []
let follower: RegistryFollowerDependencies
beforeAll(async () => {
  db = await openDatabase({ dataDir: 'memory://' })
  await migrate(db)
  stores = openStores({ CHAIN_ID: devnet.deployment.chainId, REGISTRY_ADDRESS: devnet.deployment.registry, METADATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') }, db)
  const studio = await stores.studios.createStudio({ name: 'Demo', vaultAddress: devnet.seed.merchant.vault, chainId: devnet.deployment.chainId })
  await stores.webhookEndpoints.createEndpoint({ studioId: studio.id, url: 'https://hooks.shop.example/', events: ['invoice.paid', 'invoice.canceled'] })
  follower = { client: devnet.clients.public, deployment: devnet.deployment, outbox: stores.webhookOutbox, logger: jsonLogger((line) => lines.push(line)), metrics: createMetrics() }
})
afterAll(() => db?.close())

const pendingDeliveries = async () => (await db.query<{ count: number }>(`SELECT count(*)::integer AS count FROM webhook_deliveries`))[0]!.count

describe('following the registry', () => {
  test('behavior: an event is enqueued only once its block has the confirmations asked for, and once only', async () => {
    const parameters = { fromBlock: 0n, confirmations: 3, intervalMs: 0 }
    await followRegistryOnce(follower, parameters)
    const before = await pendingDeliveries()
    const invoice = await devnet.newInvoice(parseUnits('1', 6))
    await devnet.cancelInvoice(invoice.id)
    expect(await followRegistryOnce(follower, parameters)).toEqual({ enqueued: 0, behind: false })
    await devnet.test.mine({ blocks: 1 })
    expect(await followRegistryOnce(follower, parameters)).toEqual({ enqueued: 0, behind: false })
    await devnet.test.mine({ blocks: 1 })
    // the canceling block is now the third from the head
    expect(await followRegistryOnce(follower, parameters)).toEqual({ enqueued: 1, behind: false })
    expect(await pendingDeliveries()).toBe(before + 1)
    // read again from an older cursor (another instance that was behind): nothing new
    await db.query('UPDATE webhook_cursors SET next_block = 0, last_block_hash = NULL')
    expect(await followRegistryOnce(follower, parameters)).toEqual({ enqueued: 0, behind: false })
    expect(await pendingDeliveries()).toBe(before + 1)
  })

  test("behavior: a merchant no endpoint listens for leaves nothing in the database", async () => {
    const parameters = { fromBlock: 0n, confirmations: 1, intervalMs: 0 }
    await followRegistryOnce(follower, parameters)
    const events = async () => (await db.query<{ count: number }>('SELECT count(*)::integer AS count FROM webhook_events'))[0]!.count
    const before = await events()
    const stranger = await createMerchant(devnet.clients, devnet.deployment)
    const { timestamp } = await devnet.clients.public.getBlock()
    const { id } = await issueInvoice(devnet.anvil.rpcUrl, devnet.deployment, stranger, { amount: 1n, dueAt: timestamp + 86_400n, metaHash: `0x${'12'.repeat(32)}` })
    await cancelInvoice(devnet.anvil.rpcUrl, devnet.deployment, stranger, id)
    expect(await followRegistryOnce(follower, parameters)).toEqual({ enqueued: 0, behind: false })
    expect(await events()).toBe(before)
  })

  test('behavior: a block already read whose hash changed (a reorganisation deeper than the confirmations) is a logged alarm, and nothing is enqueued twice', async () => {
    const parameters = { fromBlock: 0n, confirmations: 1, intervalMs: 0 }
    const snapshot = await devnet.test.snapshot()
    const invoice = await devnet.newInvoice(parseUnits('2', 6))
    await devnet.cancelInvoice(invoice.id)
    expect(await followRegistryOnce(follower, parameters)).toEqual({ enqueued: 1, behind: false })
    const enqueued = await pendingDeliveries()
    // the chain forgets those blocks and grows others of the same height in their place
    await devnet.test.revert({ id: snapshot })
    const { timestamp } = await devnet.clients.public.getBlock()
    await devnet.test.setNextBlockTimestamp({ timestamp: timestamp + 1_000n })
    await devnet.test.mine({ blocks: 8 })
    lines.length = 0
    await followRegistryOnce(follower, parameters)
    const alarms = lines.map((line) => JSON.parse(line)).filter((line) => line.code === 'WEBHOOK_REORG')
    expect(alarms).toHaveLength(1)
    expect(alarms[0]).toMatchObject({ level: 'error', readHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), nowHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
    expect(alarms[0].readHash).not.toBe(alarms[0].nowHash)
    expect(await (follower.metrics as ReturnType<typeof createMetrics>).webhookReorgs.get()).toMatchObject({ values: [{ value: 1 }] })
    expect(await pendingDeliveries()).toBe(enqueued)
    // said once: the next pass reads on from the new blocks
    lines.length = 0
    await devnet.test.mine({ blocks: 1 })
    await followRegistryOnce(follower, parameters)
    expect(lines.filter((line) => line.includes('WEBHOOK_REORG'))).toEqual([])
  })
})
