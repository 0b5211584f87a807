import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { demoPayerParty } from '../../devnet/demoInvoices'
import { seedMerchantAccess } from '../../devnet/seedMerchantAccess'
import { hashMetadata } from '../../shared/metadataHash'
import { useServer } from '../support/server'
import { signedRequest, type Answer } from '../support/signedRequest'

const ctx = useServer()
let apiKey: { keyId: string; secret: string }
let customerId: string
beforeAll(async () => {
  const merchant = await seedMerchantAccess(ctx.server.stores, ctx.devnet)
  apiKey = merchant.apiKey
  customerId = (await ctx.server.stores.customers.findCustomerByName(merchant.studioId, demoPayerParty.name))!.id
})

const invoiceCount = () =>
  ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'merchantInvoiceCount', args: [ctx.devnet.seed.merchant.vault] })

describe('POST /v1/invoices/issue', () => {
  test('behavior: an invoice on-chain whose metadata cannot be stored answers 500 FINALIZATION_FAILED with its id and transaction; the same key finalizes it once the database takes writes again, and nothing is issued twice', async () => {
    const key = randomUUID()
    const body = JSON.stringify({ customerId, amount: '42000000', dueDays: 7, description: 'Finalized on the second try' })
    const issue = (): Promise<Answer> => signedRequest(ctx.server.url, apiKey, { method: 'POST', path: '/v1/invoices/issue', body, send: { headers: { 'idempotency-key': key } } })
    const { db } = ctx.server.stores
    // the database refuses the invoice's metadata, as a full disk or a failover would
    await db.query(`CREATE FUNCTION refuse_invoice_metadata() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device'; END $$`)
    await db.query('CREATE TRIGGER refuse_invoice_metadata BEFORE INSERT OR UPDATE ON invoice_metadata FOR EACH ROW EXECUTE FUNCTION refuse_invoice_metadata()')
    const before = await invoiceCount()

    const failed = await issue()
    expect(failed).toEqual({
      status: 500,
      headers: expect.anything(),
      body: {
        error: 'FINALIZATION_FAILED',
        code: 'FINALIZATION_FAILED',
        invoiceId: expect.stringMatching(/^\d+$/),
        txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        userOpHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        message: expect.stringContaining('same Idempotency-Key'),
      },
    })
    // nothing of the database's own words reaches the merchant
    expect(JSON.stringify(failed.body)).not.toContain('No space left')
    expect(await invoiceCount()).toBe(before + 1n)
    const { invoiceId, txHash, userOpHash } = failed.body as { invoiceId: string; txHash: string; userOpHash: string }
    const receipt = await ctx.devnet.clients.public.getTransactionReceipt({ hash: txHash as `0x${string}` })
    expect(receipt.status).toBe('success')

    // still refused: finalization runs again, the operation is not sent again
    expect((await issue()).body).toMatchObject({ code: 'FINALIZATION_FAILED', invoiceId, txHash, userOpHash })
    expect(await invoiceCount()).toBe(before + 1n)

    await db.query('DROP TRIGGER refuse_invoice_metadata ON invoice_metadata')
    await db.query('DROP FUNCTION refuse_invoice_metadata()')
    const finished = await issue()
    expect(finished.status).toBe(200)
    expect(finished.body).toMatchObject({ id: invoiceId, status: 'Issued', amount: '42000000', txHash, userOpHash, idempotency: { key, replayed: true, state: 'confirmed' } })
    expect(await invoiceCount()).toBe(before + 1n)
    const token = new URL(finished.body.shareLink).searchParams.get('token')
    const opened = await fetch(`${ctx.server.url}/v1/pay/${invoiceId}/metadata?token=${token}`).then((response) => response.json())
    const onChain = await ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [BigInt(invoiceId)] })
    expect(opened).toMatchObject({ accessLevel: 'full', metadata: { lineItems: [{ description: 'Finalized on the second try' }] } })
    expect(hashMetadata(opened.metadata)).toBe(onChain.metaHash)
  })
})
