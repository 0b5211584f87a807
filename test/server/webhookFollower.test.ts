import { randomBytes } from 'node:crypto'
import { createPublicClient, getAddress, http, parseUnits, zeroHash } from 'viem'
import { beforeAll, describe, expect, onTestFinished, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { mined } from '../../devnet/deploy'
import { cancelInvoice, createMerchant, issueInvoice, mintTo } from '../../devnet/seed'
import { jsonLogger } from '../../server/http/logger'
import { createMetrics } from '../../server/ops/metrics'
import type { Database } from '../../server/store/database'
import { openStores, type Stores } from '../../server/store/openStores'
import { followRegistryOnce, type RegistryFollowerDependencies } from '../../server/webhooks/followRegistry'
import { useDevnet } from '../support/devnet'
import { useDatabases } from '../support/postgres'
import { startRecordingRpcProxy } from '../support/recordingRpcProxy'

const devnet = useDevnet()
const databases = useDatabases()
let db: Database
let stores: Stores
const lines: string[] = []
let follower: RegistryFollowerDependencies
beforeAll(async () => {
  db = await databases.open('pglite')
  stores = openStores({ CHAIN_ID: devnet.deployment.chainId, REGISTRY_ADDRESS: devnet.deployment.registry, METADATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') }, db)
  const studio = await stores.studios.createStudio({ name: 'Demo', vaultAddress: devnet.seed.merchant.vault, chainId: devnet.deployment.chainId })
  await stores.webhookEndpoints.createEndpoint({ studioId: studio.id, url: 'https://hooks.shop.example/', events: ['invoice.paid', 'invoice.canceled'] })
  follower = { client: devnet.clients.public, deployment: devnet.deployment, outbox: stores.webhookOutbox, logger: jsonLogger((line) => lines.push(line)), metrics: createMetrics() }
})

/** Someone pays an invoice from an account of their own, calling the registry directly. */
async function payFromAccount(id: bigint, amount: bigint) {
  const { clients, deployment } = devnet
  await mintTo(clients, deployment, clients.wallet.account.address, amount)
  await mined(clients.public, await clients.wallet.writeContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'approve', args: [deployment.registry, amount] }))
  await mined(clients.public, await clients.wallet.writeContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'pay', args: [id, 0n, 0, zeroHash, zeroHash] }))
}

/** The follower reading the chain through a proxy that records every JSON-RPC call it makes. */
async function followerThroughProxy() {
  const proxy = await startRecordingRpcProxy(devnet.anvil.rpcUrl)
  onTestFinished(() => proxy.stop())
  return { proxy, follower: { ...follower, client: createPublicClient({ transport: http(proxy.url) }) } }
}

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

  test("behavior: payments of merchants no endpoint listens to cost no eth_call and no block read beyond the range's; a listened merchant's payment reads its token once, at the latest block", async () => {
    const parameters = { fromBlock: 0n, confirmations: 1, intervalMs: 0 }
    const { proxy, follower: through } = await followerThroughProxy()
    await followRegistryOnce(through, parameters)
    const stranger = await createMerchant(devnet.clients, devnet.deployment)
    const { timestamp } = await devnet.clients.public.getBlock()
    for (let i = 0; i < 3; i++) {
      const { id } = await issueInvoice(devnet.anvil.rpcUrl, devnet.deployment, stranger, { amount: 1_000n, dueAt: timestamp + 86_400n, metaHash: `0x${'34'.repeat(32)}` })
      await payFromAccount(id, 1_000n)
    }
    const before = await stores.webhookOutbox.readCursor(0n)
    proxy.reset()
    expect(await followRegistryOnce(through, parameters)).toEqual({ enqueued: 0, behind: false })
    const after = await stores.webhookOutbox.readCursor(0n)
    expect(proxy.calls.eth_getLogs).toBe(1)
    expect(proxy.calls.eth_call ?? 0).toBe(0)
    // the blocks the cursor keeps hashes of, and no block of a payment nobody listens to
    const blocksRead = proxy.requests.filter(({ method }) => method.startsWith('eth_getBlockBy')).map(({ method, params }) => `${method} ${BigInt((params as string[])[0]!)}`)
    expect(new Set(blocksRead)).toEqual(new Set([`eth_getBlockByNumber ${before.nextBlock - 1n}`, `eth_getBlockByNumber ${after.nextBlock - 1n}`]))

    const invoice = await devnet.newInvoice(parseUnits('6', 6))
    await payFromAccount(invoice.id, parseUnits('6', 6))
    proxy.reset()
    expect(await followRegistryOnce(through, parameters)).toEqual({ enqueued: 1, behind: false })
    expect(proxy.requests.filter(({ method }) => method === 'eth_call')).toEqual([{ method: 'eth_call', params: [expect.objectContaining({ to: devnet.deployment.registry }), 'latest'] }])
    const [stored] = await db.query<{ payload: string }>('SELECT payload FROM webhook_events WHERE payload LIKE $1', [`%"invoiceId":"${invoice.id}"%`])
    expect(JSON.parse(stored!.payload)).toMatchObject({ type: 'invoice.paid', data: { invoiceId: invoice.id.toString(), token: getAddress(devnet.deployment.token), amount: '6000000' } })
  })

  test('behavior: a reorganisation between reading a range\'s logs and recording it leaves nothing of the replaced blocks enqueued, and the next pass reads the new chain without an alarm', async () => {
    const parameters = { fromBlock: 0n, confirmations: 1, intervalMs: 0 }
    const { proxy, follower: through } = await followerThroughProxy()
    await followRegistryOnce(through, parameters)
    const enqueued = await pendingDeliveries()
    const snapshot = await devnet.test.snapshot()
    const invoice = await devnet.newInvoice(parseUnits('3', 6))
    await devnet.cancelInvoice(invoice.id)
    // the node answers with these blocks' logs, and the chain replaces the blocks before the follower reads on
    proxy.alter('eth_getLogs', async (reply) => {
      proxy.alter('eth_getLogs', undefined)
      await devnet.test.revert({ id: snapshot })
      const { timestamp } = await devnet.clients.public.getBlock()
      await devnet.test.setNextBlockTimestamp({ timestamp: timestamp + 1_000n })
      await devnet.test.mine({ blocks: 4 })
      return reply
    })
    lines.length = 0
    expect(await followRegistryOnce(through, parameters)).toEqual({ enqueued: 0, behind: false })
    expect(lines.map((line) => JSON.parse(line).code)).toEqual(['WEBHOOK_RANGE_REREAD'])
    expect(await pendingDeliveries()).toBe(enqueued)
    expect(await followRegistryOnce(through, parameters)).toEqual({ enqueued: 0, behind: false })
    const head = await devnet.clients.public.getBlock()
    expect(await stores.webhookOutbox.readCursor(0n)).toEqual({ nextBlock: head.number + 1n, lastBlockHash: head.hash })
    expect(lines.filter((line) => line.includes('WEBHOOK_REORG'))).toEqual([])
    expect(await pendingDeliveries()).toBe(enqueued)
  })

  test("behavior: a reorganisation between reading a range's logs and recording it does not skip the new blocks' events: the range is read again", async () => {
    const parameters = { fromBlock: 0n, confirmations: 1, intervalMs: 0 }
    const { proxy, follower: through } = await followerThroughProxy()
    await followRegistryOnce(through, parameters)
    const enqueued = await pendingDeliveries()
    const snapshot = await devnet.test.snapshot()
    await devnet.test.mine({ blocks: 3 })
    // the node answers that these empty blocks have no logs; then blocks with a cancellation replace them
    let canceled: bigint | undefined
    proxy.alter('eth_getLogs', async (reply) => {
      proxy.alter('eth_getLogs', undefined)
      await devnet.test.revert({ id: snapshot })
      const invoice = await devnet.newInvoice(parseUnits('4', 6))
      await devnet.cancelInvoice(invoice.id)
      await devnet.test.mine({ blocks: 2 })
      canceled = invoice.id
      return reply
    })
    expect(await followRegistryOnce(through, parameters)).toEqual({ enqueued: 0, behind: false })
    expect(await followRegistryOnce(through, parameters)).toEqual({ enqueued: 1, behind: false })
    expect(await pendingDeliveries()).toBe(enqueued + 1)
    const [stored] = await db.query<{ payload: string }>('SELECT payload FROM webhook_events WHERE payload LIKE $1', [`%"invoiceId":"${canceled}"%`])
    expect(JSON.parse(stored!.payload)).toMatchObject({ type: 'invoice.canceled' })
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
