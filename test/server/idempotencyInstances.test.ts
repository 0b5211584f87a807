import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { devnetEnv } from '../../devnet/devnetConfig'
import { demoPayerParty } from '../../devnet/demoInvoices'
import { seedMerchantAccess } from '../../devnet/seedMerchantAccess'
import { readConfig } from '../../server/config'
import { createServer, type RunningServer } from '../../server/createServer'
import { silentLogger } from '../../server/http/logger'
import { openDatabase, type Database } from '../../server/store/database'
import { migrate } from '../../server/store/migrations'
import { openStores } from '../../server/store/openStores'
import { useDevnet } from '../support/devnet'
import { useDatabases } from '../support/postgres'
import { signedRequest, type Answer } from '../support/signedRequest'

const devnet = useDevnet()
const databases = useDatabases()
let db: Database
let instances: RunningServer[] = []
let apiKey: { keyId: string; secret: string }
let customerId: string
beforeAll(async () => {
  const url = await databases.postgresUrl()
  db = await openDatabase({ url })
  await migrate(db)
  // one public origin in front of both, as a platform's load balancer gives them: the links they answer name it
  const config = readConfig(devnetEnv(devnet, { port: 0, overrides: { DATABASE_URL: url, PUBLIC_URL: 'https://pay.northwind.example' } }))
  const merchant = await seedMerchantAccess(openStores(config, db), devnet)
  apiKey = merchant.apiKey
  customerId = (await openStores(config, db).customers.findCustomerByName(merchant.studioId, demoPayerParty.name))!.id
  // two instances as a platform runs them: each its own pool on the one PostgreSQL database, nothing shared in memory
  instances = [await createServer(config, { logger: silentLogger }), await createServer(config, { logger: silentLogger })]
})
afterAll(async () => {
  for (const instance of instances) await instance.close()
  await db?.close()
})

const invoiceCount = () =>
  devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'merchantInvoiceCount', args: [devnet.seed.merchant.vault] })

function issue(instance: RunningServer, key: string, body: object): Promise<Answer> {
  return signedRequest(instance.url, apiKey, { method: 'POST', path: '/v1/invoices/issue', body: JSON.stringify(body), send: { headers: { 'idempotency-key': key } } })
}

test('behavior: ten requests with one key raced across two instances issue one invoice; the others are told it is in progress or get its answer, and another payload under the key is refused', async () => {
  const before = await invoiceCount()
  const key = randomUUID()
  const body = { customerId, amount: '31000000', dueDays: 30, description: 'Racing retries' }
  const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => issue(instances[i % 2]!, key, body)))

  const issued = answers.filter((answer) => answer.status === 200 && answer.body.idempotency.replayed === false)
  expect(issued).toHaveLength(1)
  const [{ body: invoice }] = issued as [Answer]
  for (const answer of answers) {
    if (answer === issued[0]) continue
    // a request that came after the first finished gets its answer; one that came during it, 409
    if (answer.status === 200) expect(answer.body).toEqual({ ...invoice, idempotency: { key, replayed: true, state: 'confirmed' } })
    else expect(answer).toMatchObject({ status: 409, body: { error: 'IDEMPOTENCY_LEASE_CONTENTION', code: 'IDEMPOTENCY_LEASE_CONTENTION' } })
  }
  expect(await invoiceCount()).toBe(before + 1n)

  // afterwards, either instance answers the same invoice
  for (const instance of instances) {
    expect(await issue(instance, key, body)).toMatchObject({ status: 200, body: { ...invoice, idempotency: { key, replayed: true, state: 'confirmed' } } })
  }
  // the same key with another amount, or a description with one space more, is another request
  for (const [instance, other] of [
    [instances[0]!, { ...body, amount: '31000001' }],
    [instances[1]!, { ...body, description: 'Racing retries ' }],
  ] as const) {
    expect(await issue(instance, key, other)).toMatchObject({ status: 409, body: { error: 'IDEMPOTENCY_CONFLICT', code: 'IDEMPOTENCY_CONFLICT' } })
  }
  expect(await invoiceCount()).toBe(before + 1n)
  expect(await db.query('SELECT count(*)::integer AS count FROM issued_invoices WHERE invoice_id = $1::numeric', [invoice.id])).toEqual([{ count: 1 }])
})
