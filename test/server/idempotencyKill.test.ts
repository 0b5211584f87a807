import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { devnetEnv } from '../../devnet/devnetConfig'
import { demoPayerParty } from '../../devnet/demoInvoices'
import { seedMerchantAccess } from '../../devnet/seedMerchantAccess'
import { readConfig, type Config } from '../../server/config'
import { createServer } from '../../server/createServer'
import { silentLogger } from '../../server/http/logger'
import { openDatabase, type Database } from '../../server/store/database'
import { migrate } from '../../server/store/migrations'
import { openStores } from '../../server/store/openStores'
import { hashMetadata } from '../../shared/metadataHash'
import { bundledCli } from '../support/cliBundle'
import { useDevnet } from '../support/devnet'
import { useDatabases } from '../support/postgres'
import { signedRequest, type Answer } from '../support/signedRequest'

const devnet = useDevnet()
const databases = useDatabases()
/** Short enough for a test to wait out, longer than the wait on the chain as the configuration insists.
 * anvil includes an operation as soon as it arrives, so the wait on the chain (SUBMIT_WAIT_MS) never
 * runs out here; both are kept short because the retry below waits the lease out in real time. */
const leaseMs = 3_000
let db: Database
let env: Record<string, string>
let config: Config
let apiKey: { keyId: string; secret: string }
let customerId: string
beforeAll(async () => {
  const url = await databases.postgresUrl()
  db = await openDatabase({ url })
  await migrate(db)
  // one environment for both instances: the same database and the same key to open the metadata with
  env = devnetEnv(devnet, { port: 0, overrides: { DATABASE_URL: url, SUBMIT_WAIT_MS: '2000', IDEMPOTENCY_LEASE_MS: String(leaseMs), LOG_LEVEL: 'info' } })
  config = readConfig(env)
  const stores = openStores(config, db)
  const merchant = await seedMerchantAccess(stores, devnet)
  apiKey = merchant.apiKey
  customerId = (await stores.customers.findCustomerByName(merchant.studioId, demoPayerParty.name))!.id
})
afterAll(async () => {
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
  const url = /"url":"(http:\/\/[^"]+)"/.exec(output)?.[1]
  if (!url) throw new Error(`the server logged no url: ${output}`)
  return { child, exited, url }
}

const invoiceCount = () =>
  devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'merchantInvoiceCount', args: [devnet.seed.merchant.vault] })

describe('server-signed issuance when the issuing instance is killed', () => {
  test('behavior: killed with SIGKILL after the invoice is on-chain and before it is finalized, the retry with the same key finalizes that invoice: one invoice, its metadata and share link, nothing issued twice', async () => {
    const serve = await startServe()
    const before = await invoiceCount()
    const key = randomUUID()
    const body = JSON.stringify({ customerId, amount: '75000000', dueDays: 14, description: 'Harbour consulting, killed mid-issue' })
    const issue = (base: string): Promise<Answer> =>
      signedRequest(base, apiKey, { method: 'POST', path: '/v1/invoices/issue', body, send: { headers: { 'idempotency-key': key } } })

    // Finalization writes the invoice's metadata first: with the table locked, the killed instance
    // gets the invoice on-chain and no further.
    let unlock!: () => void
    let locked!: () => void
    const lockHeld = new Promise<void>((resolve) => (locked = resolve))
    const holder = db.transaction(async (tx) => {
      await tx.query('LOCK TABLE invoice_metadata IN ACCESS EXCLUSIVE MODE')
      locked()
      await new Promise<void>((resolve) => (unlock = resolve))
    })
    await lockHeld
    const first = issue(serve.url).catch((error: unknown) => error)
    const included = () =>
      db.query<{ state: string; invoice_id: string | null; waiting: number }>(
        `SELECT state, invoice_id::text AS invoice_id,
           (SELECT count(*)::integer FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%invoice_metadata%') AS waiting
         FROM idempotency_records WHERE idempotency_key = $1`,
        [key],
      )
    await expect.poll(included, { timeout: 20_000, interval: 50 }).toEqual([{ state: 'submitted', invoice_id: expect.stringMatching(/^\d+$/), waiting: 1 }])
    const invoiceId = (await included())[0]!.invoice_id!
    serve.child.kill('SIGKILL')
    await serve.exited
    // PostgreSQL notices a dead client when it next talks to it: the statement waiting on the lock
    // would run once the lock is free, as if the killed process had gone on. Its connection ends here.
    await db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`)
    unlock()
    await holder
    expect(await first).toBeInstanceOf(Error)
    expect(await invoiceCount()).toBe(before + 1n)
    expect(await db.query('SELECT count(*)::integer AS count FROM invoice_metadata WHERE invoice_id = $1::numeric', [invoiceId])).toEqual([{ count: 0 }])

    const other = await createServer(config, { logger: silentLogger, db: { ...db, close: async () => {} } })
    onTestFinished(() => other.close())
    // the killed instance's lease holds until it runs out; then the retry finishes the invoice
    const refusals: unknown[] = []
    let retried: Answer | undefined
    const started = Date.now()
    while (Date.now() - started < leaseMs + 10_000) {
      const answer = await issue(other.url)
      if (answer.status === 200) {
        retried = answer
        break
      }
      refusals.push(answer.body)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    for (const refusal of refusals) expect(refusal).toMatchObject({ code: 'IDEMPOTENCY_LEASE_CONTENTION' })
    expect(retried?.body).toMatchObject({ id: invoiceId, status: 'Issued', amount: '75000000', idempotency: { key, replayed: true, state: 'confirmed' } })
    expect(await invoiceCount()).toBe(before + 1n)

    // the share link opens the metadata the chain committed to
    const link = new URL(retried!.body.shareLink as string)
    const opened = await fetch(`${other.url}/v1/pay/${invoiceId}/metadata?token=${link.searchParams.get('token')}`).then((response) => response.json())
    expect(opened).toMatchObject({ accessLevel: 'full', metadata: { payer: { name: demoPayerParty.name }, lineItems: [{ description: 'Harbour consulting, killed mid-issue' }] } })
    const onChain = await devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [BigInt(invoiceId)] })
    expect(hashMetadata(opened.metadata)).toBe(onChain.metaHash)

    // and the same request once more is the same answer
    expect((await issue(other.url)).body).toEqual(retried!.body)
    expect(await invoiceCount()).toBe(before + 1n)
  })
})
