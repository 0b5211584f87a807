import { execFileSync } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getAddress, parseUnits, zeroHash, type Address } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { mined } from '../../devnet/deploy'
import { createMerchant, issueInvoice, mintTo } from '../../devnet/seed'
import { useServer } from '../support/server'
import { signRequest } from '../../cli/merchant/signRequest'
import { signedRequest } from '../support/signedRequest'

// Three confirmations: the index stays two blocks behind the head, so what the chain says before the
// index does can be seen, and mining two blocks brings the index up.
const ctx = useServer({ overrides: { WEBHOOK_INTERVAL_MS: '50', WEBHOOK_CONFIRMATIONS: '3' } })
let readKey: { keyId: string; secret: string }
let studioId: string

beforeAll(async () => {
  const { devnet, server } = ctx
  const studio = (await server.stores.studios.findStudioByVault(devnet.deployment.chainId, devnet.seed.merchant.vault))!
  studioId = studio.id
  readKey = await server.stores.apiKeys.createApiKey({ studioId, name: 'reads', scopes: ['invoice:read'] })
})

const get = (path: string, query = '', key = readKey) => signedRequest(ctx.server.url, key, { method: 'GET', path, query })

/** Someone pays an invoice from an account of their own, calling the registry directly. */
async function payFromAccount(id: bigint, amount: bigint) {
  const { clients, deployment } = ctx.devnet
  await mintTo(clients, deployment, clients.wallet.account.address, amount)
  await mined(clients.public, await clients.wallet.writeContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'approve', args: [deployment.registry, amount] }))
  await mined(clients.public, await clients.wallet.writeContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'pay', args: [id, 0n, 0, zeroHash, zeroHash] }))
  return getAddress(clients.wallet.account.address)
}

/** Mines the confirmations and waits until the index has read through the head. */
async function indexCatchesUp() {
  await ctx.devnet.test.mine({ blocks: 2 })
  const head = await ctx.devnet.clients.public.getBlockNumber({ cacheTime: 0 })
  const deadline = Date.now() + 15_000
  for (;;) {
    const { body } = await get('/v1/invoices', 'mode=eventual&limit=1')
    if (body.metadata?.indexedBlock && BigInt(body.metadata.indexedBlock) >= head - 2n) return
    if (Date.now() > deadline) throw new Error(`the index did not reach block ${head - 2n}: ${JSON.stringify(body.metadata)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Every item of a listing, following its cursor to the end. */
async function everyPage(query: string) {
  const pages: any[][] = []
  let cursor: string | null = null
  do {
    const answer = await get('/v1/invoices', `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    expect(answer.status).toBe(200)
    pages.push(answer.body.data.items)
    cursor = answer.body.data.page.hasNextPage ? answer.body.data.page.cursor : null
    if (!answer.body.data.page.hasNextPage) expect(answer.body.data.page.cursor).toBeNull()
  } while (cursor)
  return pages
}

/** The text pdftotext reads back from a PDF. */
function pdfText(bytes: Buffer): string {
  const file = join(mkdtempSync(join(tmpdir(), 'svc-invoice-reads-')), 'invoice.pdf')
  writeFileSync(file, bytes)
  return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })
}

const ids = (items: { id: string }[]) => items.map((item) => item.id)

/** What an invoice issued through the service records (migration 13): its customer and document number. */
async function recordIssuance(id: bigint, { customerId, documentNumber }: { customerId: string; documentNumber: string }) {
  const onChain = await ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] })
  await ctx.server.stores.db.query(
    `INSERT INTO issued_invoices (user_op_hash, studio_id, chain_id, registry, customer_id, invoice_number, amount, due_at, meta_hash, invoice_id, tx_hash, issued_at, finalized_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now())`,
    [
      `0x${randomBytes(32).toString('hex')}`,
      studioId,
      ctx.devnet.deployment.chainId,
      ctx.devnet.deployment.registry.toLowerCase(),
      customerId,
      documentNumber,
      onChain.amount.toString(),
      onChain.dueAt.toString(),
      onChain.metaHash,
      id.toString(),
      `0x${randomBytes(32).toString('hex')}`,
      onChain.issuedAt.toString(),
    ],
  )
}

describe('GET /v1/invoices', () => {
  let issued: bigint, paid: bigint, canceled: bigint, payer: Address
  const customerId = randomUUID()

  beforeAll(async () => {
    const { devnet } = ctx
    issued = (await devnet.newInvoice(parseUnits('11', 6))).id
    paid = (await devnet.newInvoice(parseUnits('12', 6))).id
    canceled = (await devnet.newInvoice(parseUnits('13', 6))).id
    payer = await payFromAccount(paid, parseUnits('12', 6))
    await devnet.cancelInvoice(canceled)
    await recordIssuance(issued, { customerId, documentNumber: 'READS-0001' })
    await indexCatchesUp()
  })

  test('default: the caller\'s invoices, newest issued first, each with the status its events left', async () => {
    const { status, body } = await get('/v1/invoices')
    expect(status).toBe(200)
    expect(body.metadata).toMatchObject({ mode: 'hybrid', chainId: ctx.devnet.deployment.chainId, indexedBlock: expect.stringMatching(/^\d+$/), headBlock: expect.stringMatching(/^\d+$/) })
    const items = body.data.items as any[]
    expect(ids(items.slice(0, 3))).toEqual([canceled, paid, issued].map(String))
    const byId = new Map(items.map((item) => [item.id, item]))
    expect(byId.get(String(issued))).toMatchObject({ status: 'Issued', payer: null, amount: '11000000', customerId, documentNumber: 'READS-0001', merchant: ctx.devnet.seed.merchant.vault })
    expect(byId.get(String(paid))).toMatchObject({ status: 'Paid', payer, amount: '12000000', paidAt: expect.stringMatching(/^\d+$/), settledFeeBps: expect.any(Number), refundedAmount: '0' })
    expect(byId.get(String(canceled))).toMatchObject({ status: 'Canceled', amount: '13000000' })
    expect(byId.get(String(paid)).token).toEqual({ address: ctx.devnet.deployment.token, symbol: 'USDC', decimals: 6 })
    // the seeded demo invoices are the same merchant's: the list is the vault's whole history
    for (const seeded of ctx.devnet.seed.invoices) expect(byId.has(String(seeded.id))).toBe(true)
  })

  test('parameters: status (case-sensitive), payer, customerId and the inclusive issued range each select their invoices', async () => {
    const paidOnes = (await get('/v1/invoices', 'status=Paid&mode=eventual')).body.data.items as any[]
    expect(paidOnes.every((item) => item.status === 'Paid')).toBe(true)
    expect(ids(paidOnes)).toContain(String(paid))
    expect(ids((await get('/v1/invoices', 'status=Canceled')).body.data.items)).toContain(String(canceled))
    expect((await get('/v1/invoices', 'status=paid')).body).toMatchObject({ error: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: 'status' })] })

    expect(ids((await get('/v1/invoices', `payer=${payer}`)).body.data.items)).toContain(String(paid))
    expect(((await get('/v1/invoices', `payer=${payer}`)).body.data.items as any[]).every((item) => item.payer === payer)).toBe(true)
    expect(ids((await get('/v1/invoices', `customerId=${customerId}`)).body.data.items)).toEqual([String(issued)])
    expect((await get('/v1/invoices', `customerId=${randomUUID()}`)).body.data.items).toEqual([])

    const all = (await get('/v1/invoices', 'limit=50')).body.data.items as any[]
    const issuedAt = BigInt(all.find((item) => item.id === String(paid)).issuedAt)
    const exactly = (await get('/v1/invoices', `issuedFrom=${issuedAt}&issuedTo=${issuedAt}&limit=50`)).body.data.items as any[]
    expect(ids(exactly)).toContain(String(paid))
    expect(exactly.every((item) => BigInt(item.issuedAt) === issuedAt)).toBe(true)
    expect(ids((await get('/v1/invoices', `issuedFrom=${issuedAt + 1n}&limit=50`)).body.data.items)).not.toContain(String(paid))
    const reversed = await get('/v1/invoices', `issuedFrom=${issuedAt + 1n}&issuedTo=${issuedAt}`)
    expect(reversed.status).toBe(400)
    expect(reversed.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ path: 'issuedTo', message: expect.stringContaining('reversed') }] })
  })

  test('behavior: merchant and agent are accepted and ignored: a stranger\'s vault named as merchant still lists the caller\'s invoices', async () => {
    const stranger = await createMerchant(ctx.devnet.clients, ctx.devnet.deployment)
    const { status, body } = await get('/v1/invoices', `merchant=${stranger.vault}&agent=${stranger.vault}&limit=3`)
    expect(status).toBe(200)
    expect(ids(body.data.items)).toEqual([canceled, paid, issued].map(String))
  })

  test('behavior: following hasNextPage and its cursor yields every invoice once, in order, in any ordering', async () => {
    const whole = (await get('/v1/invoices', 'limit=50&mode=eventual')).body
    expect(whole.data.page.hasNextPage).toBe(false)
    for (const [query, compare] of [
      ['limit=2&mode=eventual', (a: any, b: any) => Number(BigInt(b.issuedBlock) - BigInt(a.issuedBlock)) || Number(BigInt(b.id) - BigInt(a.id))],
      ['limit=3&mode=eventual&orderBy=amount&orderDirection=asc', (a: any, b: any) => Number(BigInt(a.amount) - BigInt(b.amount)) || Number(BigInt(a.id) - BigInt(b.id))],
      ['limit=1&mode=eventual&orderBy=invoiceNumber&orderDirection=asc', (a: any, b: any) => Number(BigInt(a.invoiceNumber) - BigInt(b.invoiceNumber))],
      ['limit=2&mode=eventual&orderBy=dueAt&orderDirection=desc', (a: any, b: any) => Number(BigInt(b.dueAt) - BigInt(a.dueAt)) || Number(BigInt(b.id) - BigInt(a.id))],
    ] as const) {
      const pages = await everyPage(query)
      const items = pages.flat()
      expect(pages.length).toBeGreaterThan(1)
      expect(new Set(ids(items)).size).toBe(items.length)
      expect(new Set(ids(items))).toEqual(new Set(ids(whole.data.items)))
      expect(ids(items)).toEqual(ids([...items].sort(compare)))
    }
  })

  test('behavior: a tampered, made-up or other-filter cursor is a 400; limit outside 1..50 is a 400; strong mode lists at most 25', async () => {
    const first = (await get('/v1/invoices', 'limit=1&mode=eventual')).body.data.page.cursor as string
    expect(first).toEqual(expect.any(String))
    expect((await get('/v1/invoices', `limit=1&mode=eventual&cursor=${encodeURIComponent(first)}`)).status).toBe(200)
    const [offset, mac] = first.split('.') as [string, string]
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const next = (char: string) => alphabet[(alphabet.indexOf(char) + 1) % 64]!
    const tampered = [
      `${(parseInt(offset, 36) + 1).toString(36)}.${mac}`,
      `${offset}.${next(mac[0]!)}${mac.slice(1)}`,
      // other spellings of the same cursor: the MAC's last character's unused bits, a leading zero
      `${offset}.${mac.slice(0, -1)}${next(mac.at(-1)!)}`,
      `0${offset}.${mac}`,
      '5',
      'not-a-cursor',
    ]
    for (const cursor of tampered) {
      const answer = await get('/v1/invoices', `limit=1&mode=eventual&cursor=${encodeURIComponent(cursor)}`)
      expect(answer.status).toBe(400)
      expect(answer.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: 'cursor' })] })
    }
    // the same cursor with another filter or order is obsolete
    expect((await get('/v1/invoices', `limit=1&status=Paid&cursor=${encodeURIComponent(first)}`)).status).toBe(400)
    expect((await get('/v1/invoices', `limit=1&orderDirection=asc&cursor=${encodeURIComponent(first)}`)).status).toBe(400)
    for (const limit of ['0', '51', 'ten', '-1']) expect((await get('/v1/invoices', `limit=${limit}`)).status).toBe(400)
    expect((await get('/v1/invoices', 'mode=fast')).status).toBe(400)
    expect((await get('/v1/invoices', 'orderBy=payer')).status).toBe(400)
    expect((await get('/v1/invoices', 'issuedFrom=yesterday')).status).toBe(400)
    expect((await get('/v1/invoices', 'customerId=42')).status).toBe(400)
    expect((await get('/v1/invoices', 'payer=0x12')).status).toBe(400)
    const strong = await get('/v1/invoices', 'limit=50&mode=strong')
    expect(strong.status).toBe(200)
    expect(strong.body.data.items.length).toBeLessThanOrEqual(25)
    expect(strong.body.metadata.chainReads).toBe(strong.body.data.items.length)
  })

  test('behavior: strong mode sees a cancellation the index has not read yet; hybrid reads Issued items again while the index is behind; eventual says what the index says', async () => {
    const { devnet } = ctx
    const invoice = (await devnet.newInvoice(parseUnits('14', 6))).id
    await indexCatchesUp()
    await devnet.cancelInvoice(invoice)
    const statusIn = async (mode: string) => ((await get('/v1/invoices', `mode=${mode}&limit=1`)).body.data.items as any[])[0]
    expect(await statusIn('eventual')).toMatchObject({ id: String(invoice), status: 'Issued' })
    expect(await statusIn('strong')).toMatchObject({ id: String(invoice), status: 'Canceled' })
    const hybrid = await get('/v1/invoices', 'mode=hybrid&limit=1')
    expect(hybrid.body.data.items[0]).toMatchObject({ id: String(invoice), status: 'Canceled' })
    expect(hybrid.body.metadata.chainReads).toBe(1)
    expect(BigInt(hybrid.body.metadata.indexedBlock)).toBeLessThan(BigInt(hybrid.body.metadata.headBlock))
    const detail = async (mode: string) => (await get(`/v1/invoices/${invoice}`, `mode=${mode}`)).body
    expect((await detail('eventual')).data.status).toBe('Issued')
    expect(await detail('strong')).toMatchObject({ data: { status: 'Canceled' }, metadata: { mode: 'strong', source: 'chain' } })
    await indexCatchesUp()
    expect(await statusIn('eventual')).toMatchObject({ id: String(invoice), status: 'Canceled' })
    expect(await detail('eventual')).toMatchObject({ data: { status: 'Canceled' }, metadata: { source: 'index' } })
  })
})

describe('GET /v1/invoices/lookup', () => {
  test('behavior: a number and year name one invoice (200), none (404) or two (409, ambiguous)', async () => {
    const { devnet } = ctx
    const first = (await devnet.newInvoice(parseUnits('21', 6))).id
    const second = (await devnet.newInvoice(parseUnits('22', 6))).id
    await recordIssuance(first, { customerId: randomUUID(), documentNumber: 'TWICE-7' })
    await recordIssuance(second, { customerId: randomUUID(), documentNumber: 'TWICE-7' })
    await indexCatchesUp()
    const onChain = await devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [first] })
    const year = new Date(Number(onChain.issuedAt) * 1000).getUTCFullYear()

    expect(await get('/v1/invoices/lookup', `number=${onChain.invoiceNumber}&year=${year}`)).toMatchObject({ status: 200, body: { data: { id: String(first), invoiceNumber: String(onChain.invoiceNumber) } } })
    expect(await get('/v1/invoices/lookup', `number=${onChain.invoiceNumber}&year=${year - 1}`)).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } })
    expect(await get('/v1/invoices/lookup', `number=999999&year=${year}`)).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } })
    const ambiguous = await get('/v1/invoices/lookup', `number=TWICE-7&year=${year}`)
    expect(ambiguous).toMatchObject({ status: 409, body: { error: 'AMBIGUOUS_INVOICE_NUMBER', candidates: [String(first), String(second)] } })
    expect((await get('/v1/invoices/lookup', `year=${year}`)).status).toBe(400)
    expect((await get('/v1/invoices/lookup', `number=1&year=26`)).status).toBe(400)
  })
})

describe('GET /v1/invoices/:id', () => {
  test('default: the invoice with its chain fields, the customer from its metadata, and what was refunded of it', async () => {
    const seeded = ctx.devnet.seed.invoices[0]!
    const { status, body } = await get(`/v1/invoices/${seeded.id}`)
    expect(status).toBe(200)
    expect(body.data).toMatchObject({
      id: String(seeded.id),
      invoiceNumber: String(seeded.invoiceNumber),
      merchant: ctx.devnet.seed.merchant.vault,
      amount: String(seeded.amount),
      tokenURI: expect.any(String),
      customer: { id: null, name: seeded.metadata.payer.name, email: seeded.metadata.payer.email ?? null },
    })
    expect(body.metadata).toMatchObject({ mode: 'hybrid', source: 'chain' })
  })

  test('behavior: an invoice issued a moment ago is read from the chain before the index has it; eventual mode says 404 until then', async () => {
    const { id } = await ctx.devnet.newInvoice(parseUnits('15', 6))
    expect(await get(`/v1/invoices/${id}`)).toMatchObject({ status: 200, body: { data: { id: String(id), status: 'Issued' }, metadata: { source: 'chain' } } })
    expect(await get(`/v1/invoices/${id}`, 'mode=eventual')).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } })
    await indexCatchesUp()
    expect(await get(`/v1/invoices/${id}`, 'mode=eventual')).toMatchObject({ status: 200, body: { data: { id: String(id), status: 'Issued', tokenURI: null }, metadata: { source: 'index' } } })
  })

  test("behavior: another studio's invoice is a 404 in every mode, as a missing one is, and its PDF too", async () => {
    const { devnet } = ctx
    const stranger = await createMerchant(devnet.clients, devnet.deployment)
    await ctx.server.stores.studios.createStudio({ name: 'Stranger', vaultAddress: stranger.vault, chainId: devnet.deployment.chainId })
    const { timestamp } = await devnet.clients.public.getBlock()
    const { id } = await issueInvoice(devnet.anvil.rpcUrl, devnet.deployment, stranger, { amount: 1_000n, dueAt: timestamp + 86_400n, metaHash: `0x${'56'.repeat(32)}` })
    await indexCatchesUp()
    for (const mode of ['eventual', 'hybrid', 'strong']) expect(await get(`/v1/invoices/${id}`, `mode=${mode}`)).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } })
    expect(await get(`/v1/invoices/${10n ** 30n}`)).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } })
    expect((await get(`/v1/invoices/${id}/pdf`)).status).toBe(404)
    expect(ids((await get('/v1/invoices', 'limit=50&mode=eventual')).body.data.items)).not.toContain(String(id))
    expect((await get('/v1/invoices/abc')).status).toBe(400)
  })

  test('behavior: the JSON reads need invoice:read', async () => {
    const seeded = ctx.devnet.seed.invoices[1]!
    const noScope = await ctx.server.stores.apiKeys.createApiKey({ studioId, name: 'customers only', scopes: ['customer:read'] })
    expect(await get('/v1/invoices', '', noScope)).toMatchObject({ status: 403, body: { error: 'FORBIDDEN' } })
    expect((await get(`/v1/invoices/${seeded.id}`, '', noScope)).status).toBe(403)
    expect((await get('/v1/invoices/lookup', 'number=1&year=2026', noScope)).status).toBe(403)
  })
})

describe('GET /v1/invoices/:id/pdf', () => {
  test('default: the document the payer downloads, to a key with no invoice scope', async () => {
    const seeded = ctx.devnet.seed.invoices[1]!
    const noScope = await ctx.server.stores.apiKeys.createApiKey({ studioId, name: 'customers only', scopes: ['customer:read'] })
    const pdf = await fetch(`${ctx.server.url}/v1/invoices/${seeded.id}/pdf`, { headers: { ...(await signRequest({ ...noScope, method: 'GET', path: `/v1/invoices/${seeded.id}/pdf` })) } })
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="invoice-${seeded.metadata.invoiceNumber}.pdf"`)
    const token = new URL(ctx.shareLinks.find((link) => link.invoiceId === seeded.id)!.shareLink).searchParams.get('token')!
    const payers = await fetch(`${ctx.server.url}/v1/pay/${seeded.id}/pdf?token=${token}`)
    expect(payers.status).toBe(200)
    // the same renderer over the same invoice and metadata: the same text on the page (the files'
    // bytes differ in their creation time and font subset tags)
    const merchantText = pdfText(Buffer.from(await pdf.arrayBuffer()))
    expect(merchantText).toContain(`Invoice ${seeded.metadata.invoiceNumber}`)
    expect(merchantText).toContain(seeded.metadata.payer.name)
    expect(merchantText).toEqual(pdfText(Buffer.from(await payers.arrayBuffer())))
    const unsigned = await fetch(`${ctx.server.url}/v1/invoices/${seeded.id}/pdf`)
    expect(unsigned.status).toBe(401)
  })
})

describe('the index across a restart', () => {
  test('behavior: a new server continues from the cursor: rows read before stay, invoices issued while it was down are read, nothing from block 0 again', async () => {
    const { devnet, server } = ctx
    await indexCatchesUp()
    const before = (await get('/v1/invoices', 'limit=50&mode=eventual')).body.data.items as any[]
    const [cursorBefore] = await server.stores.db.query<{ next_block: string }>('SELECT next_block::text AS next_block FROM webhook_cursors')
    await ctx.restart()
    const { id } = await devnet.newInvoice(parseUnits('16', 6))
    await indexCatchesUp()
    const after = (await get('/v1/invoices', 'limit=50&mode=eventual')).body.data.items as any[]
    expect(ids(after)).toEqual([String(id), ...ids(before)].slice(0, 50))
    expect(after.slice(1)).toEqual(before.slice(0, 49))
    const [cursorAfter] = await ctx.server.stores.db.query<{ next_block: string }>('SELECT next_block::text AS next_block FROM webhook_cursors')
    expect(BigInt(cursorAfter!.next_block)).toBeGreaterThan(BigInt(cursorBefore!.next_block))
  })
})
