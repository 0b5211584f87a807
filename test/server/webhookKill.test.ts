import { spawn } from 'node:child_process'
import { parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest'
import { devnetEnv } from '../../devnet/devnetConfig'
import { seedMerchantAccess } from '../../devnet/seedMerchantAccess'
import { configSchema } from '../../server/config'
import { createServer } from '../../server/createServer'
import { silentLogger } from '../../server/http/logger'
import { openDatabase, type Database } from '../../server/store/database'
import { migrate } from '../../server/store/migrations'
import { openStores } from '../../server/store/openStores'
import { bundledCli } from '../support/cliBundle'
import { useDevnet } from '../support/devnet'
import { useDatabases } from '../support/postgres'
import { startWebhookReceiver, verified } from '../support/webhookReceiver'

const devnet = useDevnet()
const databases = useDatabases()
/** Until the sender is killed the receiver answers nothing: the deliveries are in flight when it dies. */
let killed = false
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>
let db: Database
let env: Record<string, string>
beforeAll(async () => {
  receiver = await startWebhookReceiver(() => (killed ? { status: 200 } : 'hang'))
  const url = await databases.postgresUrl()
  db = await openDatabase({ url })
  await migrate(db)
  // one environment for both instances: the same database and the same key to open the secrets with.
  // The other instance waits the lease out in real time: it is as short as keeps the killed instance's
  // requests unanswered until the kill, and their resending well past the 3 s the test requires.
  env = devnetEnv(devnet, {
    port: 0,
    overrides: { DATABASE_URL: url, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_INTERVAL_MS: '100', WEBHOOK_TIMEOUT_MS: '3500', WEBHOOK_LEASE_MS: '4500', LOG_LEVEL: 'info' },
  })
})
afterAll(async () => {
  await receiver?.close()
  await db?.close()
})

/** `npm run serve` in a process of its own, that can be killed as a platform kills one. */
async function startServe() {
  const child = spawn(process.execPath, [await bundledCli('server/serve.ts')], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<unknown>((resolve) => child.once('exit', resolve))
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await exited
  })
  await expect.poll(() => output.includes('"msg":"listening"'), { timeout: 30_000 }).toBe(true)
  return { child, exited }
}

describe('webhooks when the sending instance is killed', () => {
  test('behavior: deliveries in flight on an instance killed with SIGKILL are sent by another once their lease runs out, with the same ids, and nothing is lost', async () => {
    const config = configSchema.parse(env)
    const stores = openStores(config, db)
    const merchant = await seedMerchantAccess(stores, devnet)
    const { secret } = await stores.webhookEndpoints.createEndpoint({ studioId: merchant.studioId, url: `${receiver.url}/orders`, events: ['invoice.paid', 'invoice.canceled'] })
    const serve = await startServe()
    const invoices = [await devnet.newInvoice(parseUnits('9', 6)), await devnet.newInvoice(parseUnits('10', 6))]
    for (const invoice of invoices) await devnet.cancelInvoice(invoice.id)
    // both sent by the child, both unanswered
    await expect.poll(() => receiver.at('/orders').length, { timeout: 15_000, interval: 50 }).toBe(2)
    const inFlight = receiver.at('/orders').map((request) => request.headers['webhook-id']).sort()
    serve.child.kill('SIGKILL')
    await serve.exited
    killed = true

    const other = await createServer(config, { logger: silentLogger, db: { ...db, close: async () => {} } })
    onTestFinished(() => other.close())
    await expect.poll(() => receiver.at('/orders').length, { timeout: 20_000, interval: 100 }).toBe(4)
    const resent = receiver.at('/orders').slice(2)
    expect(resent.map((request) => request.headers['webhook-id']).sort()).toEqual(inFlight)
    expect(resent.map((request) => verified(secret, request).data.invoiceId).sort()).toEqual(invoices.map((invoice) => invoice.id.toString()).sort())
    // not before the killed instance's lease ran out
    expect(Math.min(...resent.map((request) => request.at)) - Math.max(...receiver.at('/orders').slice(0, 2).map((request) => request.at))).toBeGreaterThan(3_000)
    // recorded once the answer is read, a moment after the receiver has the request
    await expect.poll(() => db.query('SELECT state FROM webhook_deliveries'), { timeout: 5_000 }).toEqual([{ state: 'delivered' }, { state: 'delivered' }])
    expect(await db.query<{ count: number }>('SELECT count(*)::integer AS count FROM webhook_events')).toEqual([{ count: 2 }])
  })
})
