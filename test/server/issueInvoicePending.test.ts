import { beforeAll, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { seedDemoCustomer, seedMerchantAccess } from '../../devnet/seedMerchantAccess'
import { hashMetadata } from '../../shared/metadataHash'
import { signedRequest } from '../support/signedRequest'
import { useServer } from '../support/server'

// a request waits half a second for its receipt before answering 202
const ctx = useServer({ overrides: { SUBMIT_WAIT_MS: '500' } })
let key: { keyId: string; secret: string }
let customerId: string

beforeAll(async () => {
  const access = await seedMerchantAccess(ctx.server.stores, ctx.devnet)
  key = access.apiKey
  customerId = (await seedDemoCustomer(ctx.server.stores, access.studioId)).id
})

test('behavior: an issuance not on-chain in time answers 202 with its userOpHash and no link; the same request once it is mined answers the invoice, its metadata stored and its link made', async () => {
  const { devnet } = ctx
  const dueAt = ((await devnet.clients.public.getBlock()).timestamp + 86_400n).toString()
  const idempotencyKey = crypto.randomUUID()
  const issue = () =>
    signedRequest(ctx.server.url, key, {
      method: 'POST',
      path: '/v1/invoices/issue',
      body: JSON.stringify({ customerId, amount: '42000000', dueAt, description: 'Hosting, January' }),
      send: { headers: { 'idempotency-key': idempotencyKey } },
    })
  await devnet.test.setAutomine(false)
  let pending
  try {
    pending = await issue()
  } finally {
    await devnet.test.setAutomine(true)
  }
  expect(pending.status).toBe(202)
  expect(pending.body).toEqual({
    status: 'pending',
    userOpHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    message: expect.stringContaining('same Idempotency-Key'),
    idempotency: { key: idempotencyKey, replayed: false, state: 'pending' },
  })
  await devnet.test.mine({ blocks: 1 })

  const issued = await issue()
  expect(issued.status).toBe(200)
  expect(issued.body).toMatchObject({ status: 'Issued', amount: '42000000', dueAt, userOpHash: pending.body.userOpHash, idempotency: { key: idempotencyKey, replayed: true, state: 'confirmed' } })
  const onChain = await devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [BigInt(issued.body.id)] })
  const token = new URL(issued.body.shareLink).searchParams.get('token')
  const opened = await fetch(`${ctx.server.url}/v1/pay/${issued.body.id}/metadata?token=${token}`).then((response) => response.json())
  expect(opened.metadata).toMatchObject({ payer: { name: 'Acme Robotics GmbH' }, lineItems: [{ description: 'Hosting, January', amount: '42' }] })
  expect(hashMetadata(opened.metadata)).toBe(onChain.metaHash)
})
