import { randomBytes } from 'node:crypto'
import { parseUnits, zeroHash } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { mined } from '../../devnet/deploy'
import { sendMerchantOperation } from '../../devnet/merchantOperation'
import { createMerchant, issueInvoice, mintTo } from '../../devnet/seed'
import { privateKeyToAccount } from 'viem/accounts'
import { jsonLogger } from '../../server/http/logger'
import { createMetrics } from '../../server/ops/metrics'
import type { Database } from '../../server/store/database'
import { openStores, type Stores } from '../../server/store/openStores'
import { followRegistryOnce, type RegistryFollowerDependencies } from '../../server/webhooks/followRegistry'
import { useDevnet } from '../support/devnet'
import { useDatabases } from '../support/postgres'

const devnet = useDevnet()
const databases = useDatabases()
let db: Database
let stores: Stores
const lines: string[] = []
let follower: RegistryFollowerDependencies
const parameters = { fromBlock: 0n, confirmations: 1, intervalMs: 0 }

beforeAll(async () => {
  db = await databases.open('pglite')
  stores = openStores({ CHAIN_ID: devnet.deployment.chainId, REGISTRY_ADDRESS: devnet.deployment.registry, METADATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') }, db)
  follower = {
    client: devnet.clients.public,
    deployment: devnet.deployment,
    outbox: stores.webhookOutbox,
    index: stores.invoiceIndex,
    logger: jsonLogger((line) => lines.push(line)),
    metrics: createMetrics(),
  }
})

/** The index's row of an invoice, as the list reads it. */
const row = (id: bigint) => stores.invoiceIndex.get(devnet.seed.merchant.vault, id)

async function payFromAccount(id: bigint, amount: bigint) {
  const { clients, deployment } = devnet
  await mintTo(clients, deployment, clients.wallet.account.address, amount)
  await mined(clients.public, await clients.wallet.writeContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'approve', args: [deployment.registry, amount] }))
  await mined(clients.public, await clients.wallet.writeContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'pay', args: [id, 0n, 0, zeroHash, zeroHash] }))
}

describe('the invoice index kept by the registry follower', () => {
  test('default: every merchant\'s invoices are indexed with no chain read beyond the logs, and the demo invoices with their numbers', async () => {
    await followRegistryOnce(follower, parameters)
    for (const seeded of devnet.seed.invoices) {
      expect(await row(seeded.id)).toMatchObject({ id: seeded.id, invoiceNumber: seeded.invoiceNumber, amount: seeded.amount, status: 'Issued', dueAt: seeded.dueAt })
    }
    const stranger = await createMerchant(devnet.clients, devnet.deployment)
    const { timestamp } = await devnet.clients.public.getBlock()
    const { id } = await issueInvoice(devnet.anvil.rpcUrl, devnet.deployment, stranger, { amount: 5n, dueAt: timestamp + 86_400n, metaHash: `0x${'78'.repeat(32)}` })
    await followRegistryOnce(follower, parameters)
    const indexed = await stores.invoiceIndex.get(stranger.vault, id)
    const onChain = await devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] })
    expect(indexed).toMatchObject({ id, merchant: stranger.vault, amount: 5n, issuedAt: onChain.issuedAt, invoiceNumber: 1n })
  })

  test('behavior: a reorganisation deeper than the confirmations is put right: an invoice issued only on the lost branch is replaced by the new branch\'s, a cancellation and a payment that did not survive are undone', async () => {
    await followRegistryOnce(follower, parameters)
    const toCancel = (await devnet.newInvoice(parseUnits('31', 6))).id
    const toPay = (await devnet.newInvoice(parseUnits('32', 6))).id
    await followRegistryOnce(follower, parameters)
    const snapshot = await devnet.test.snapshot()
    const lost = (await devnet.newInvoice(parseUnits('33', 6))).id
    await devnet.cancelInvoice(toCancel)
    await payFromAccount(toPay, parseUnits('32', 6))
    await followRegistryOnce(follower, parameters)
    expect(await row(lost)).toMatchObject({ amount: parseUnits('33', 6), status: 'Issued' })
    expect(await row(toCancel)).toMatchObject({ status: 'Canceled' })
    expect(await row(toPay)).toMatchObject({ status: 'Paid' })

    // the chain forgets those blocks and grows others in their place: the same id for another invoice
    await devnet.test.revert({ id: snapshot })
    const { timestamp } = await devnet.clients.public.getBlock()
    await devnet.test.setNextBlockTimestamp({ timestamp: timestamp + 1_000n })
    const replacement = (await devnet.newInvoice(parseUnits('34', 6), `0x${'9a'.repeat(32)}`)).id
    expect(replacement).toBe(lost)
    await devnet.test.mine({ blocks: 8 })
    lines.length = 0
    await followRegistryOnce(follower, parameters)
    expect(lines.map((line) => JSON.parse(line).code)).toContain('WEBHOOK_REORG')
    expect(await row(lost)).toMatchObject({ amount: parseUnits('34', 6), status: 'Issued', metaHash: `0x${'9a'.repeat(32)}` })
    expect(await row(toCancel)).toMatchObject({ status: 'Issued', canceledAt: null })
    expect(await row(toPay)).toMatchObject({ status: 'Issued', payer: null, paidAt: null, paidTx: null, settledFee: null })
    // and from there the index follows the new branch as before
    await devnet.cancelInvoice(toCancel)
    await followRegistryOnce(follower, parameters)
    expect(await row(toCancel)).toMatchObject({ status: 'Canceled' })
  })

  test('behavior: a refund leaves the invoice Paid, and the index adds up what went back to the payer', async () => {
    const id = (await devnet.newInvoice(parseUnits('36', 6))).id
    await payFromAccount(id, parseUnits('36', 6))
    const payer = devnet.clients.wallet.account.address
    const merchant = devnet.seed.merchant
    for (const amount of [parseUnits('5', 6), parseUnits('7', 6)]) {
      const { success } = await sendMerchantOperation(devnet.anvil.rpcUrl, devnet.deployment, {
        vault: merchant.vault,
        call: { kind: 'Refund', registry: devnet.deployment.registry, invoice: id, payer, token: devnet.deployment.token, amount },
        signer: { kind: 'owner', privateKey: merchant.ownerPrivateKey },
        bundler: privateKeyToAccount(merchant.ownerPrivateKey),
      })
      expect(success).toBe(true)
    }
    await followRegistryOnce(follower, parameters)
    const refunded = await devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'refundedAmount', args: [id] })
    expect(refunded).toBe(parseUnits('12', 6))
    expect(await row(id)).toMatchObject({ status: 'Paid', refundedAmount: refunded })
  })

  test('behavior: a range read twice (an instance behind another) leaves each row at its latest state', async () => {
    const id = (await devnet.newInvoice(parseUnits('35', 6))).id
    await payFromAccount(id, parseUnits('35', 6))
    await followRegistryOnce(follower, parameters)
    const paid = await row(id)
    expect(paid).toMatchObject({ status: 'Paid', settledFeeBps: expect.any(Number) })
    await db.query('UPDATE webhook_cursors SET next_block = 0, last_block_hash = NULL')
    await followRegistryOnce(follower, { ...parameters, maxBlocksPerPass: 100_000 })
    expect(await row(id)).toEqual(paid)
  })
})
