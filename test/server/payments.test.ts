import { randomBytes } from 'node:crypto'
import { getAddress, parseEventLogs, parseUnits, type Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { sendMerchantOperation } from '../../devnet/merchantOperation'
import { payDirectly } from '../support/payDirectly'
import { useServer } from '../support/server'
import { signedRequest } from '../support/signedRequest'

const ctx = useServer({ overrides: { WEBHOOK_INTERVAL_MS: '50', WEBHOOK_CONFIRMATIONS: '1' } })
let key: { keyId: string; secret: string }
let otherKey: { keyId: string; secret: string }
let invoiceKey: { keyId: string; secret: string }
let vault: Address

const get = (path: string, query = '', as = key) => signedRequest(ctx.server.url, as, { method: 'GET', path, query })

/** Six decimals in full, and a million USDC: the amounts whose every base unit must survive. */
const small = 1_234_567n
const million = parseUnits('1000000', 6)
const paid: { id: bigint; amount: bigint; payer: Address; txHash: `0x${string}` }[] = []

async function pay(amount: bigint) {
  const { id } = await ctx.devnet.newInvoice(amount)
  const { payer, receipt } = await payDirectly(ctx.devnet, id, amount)
  paid.push({ id, amount, payer: getAddress(payer.vault), txHash: receipt.transactionHash })
  return id
}

/** Waits until the index (the registry follower's) holds every payment made so far. */
async function indexed() {
  const deadline = Date.now() + 15_000
  for (;;) {
    const { body } = await get('/v1/payments', 'limit=50')
    const ids = new Set((body.data?.payments ?? []).map((payment: any) => payment.id))
    if (paid.every((payment) => ids.has(payment.id.toString()))) return
    if (Date.now() > deadline) throw new Error('the index did not read the payments in time')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Every row of the list, following its cursor. */
async function everyPage(query: string) {
  const rows: any[] = []
  let cursor: string | null = null
  do {
    const answer = await get('/v1/payments', `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    expect(answer.status).toBe(200)
    rows.push(...answer.body.data.payments)
    cursor = answer.body.data.page.hasNextPage ? answer.body.data.page.cursor : null
  } while (cursor)
  return rows
}

beforeAll(async () => {
  const { devnet, server } = ctx
  vault = devnet.seed.merchant.vault
  const studio = (await server.stores.studios.findStudioByVault(devnet.deployment.chainId, vault))!
  // no scope: the payment routes guard none (SPEC 5.6)
  key = await server.stores.apiKeys.createApiKey({ studioId: studio.id, name: 'payments', scopes: ['customer:read'] })
  invoiceKey = await server.stores.apiKeys.createApiKey({ studioId: studio.id, name: 'invoices', scopes: ['invoice:read'] })
  const other = await server.stores.studios.createStudio({ name: 'Other', vaultAddress: privateKeyToAccount(`0x${randomBytes(32).toString('hex')}`).address, chainId: devnet.deployment.chainId })
  otherKey = await server.stores.apiKeys.createApiKey({ studioId: other.id, name: 'other', scopes: ['customer:read'] })
  await pay(small)
  await pay(million)
  await pay(parseUnits('42.5', 6))
  await indexed()
}, 60_000)

describe('GET /v1/payments', () => {
  test('default: each payment as the registry settled it, latest first: gross = net + fee = the invoice amount, and its transaction carries the InvoicePaid event', async () => {
    const { status, body } = await get('/v1/payments')
    expect(status).toBe(200)
    const rows = body.data.payments as any[]
    expect(rows.slice(0, 3).map((row) => row.id)).toEqual(paid.map((payment) => payment.id.toString()).reverse())
    for (const payment of paid) {
      const row = rows.find((candidate) => candidate.id === payment.id.toString())
      expect(row).toMatchObject({ merchant: vault, payer: payment.payer, amount: payment.amount.toString(), feeBps: 100, settlementSource: 'event', refundedAmount: '0', token: ctx.devnet.deployment.token, explorerUrl: null })
      expect(BigInt(row.grossAmount)).toBe(payment.amount)
      expect(BigInt(row.netAmount) + BigInt(row.protocolFee)).toBe(payment.amount)
      expect(BigInt(row.protocolFee)).toBe((payment.amount * 100n) / 10_000n)
      expect(row.transactionHash).toBe(payment.txHash)
      const receipt = await ctx.devnet.clients.public.getTransactionReceipt({ hash: row.transactionHash })
      const [event] = parseEventLogs({ abi: invoiceRegistryAbi, eventName: 'InvoicePaid', logs: receipt.logs.filter((log) => getAddress(log.address) === ctx.devnet.deployment.registry) })
      expect(event!.args).toMatchObject({ id: payment.id, payer: payment.payer, merchant: vault, gross: BigInt(row.grossAmount), fee: BigInt(row.protocolFee), net: BigInt(row.netAmount), feeBps: 100 })
      const block = await ctx.devnet.clients.public.getBlock({ blockNumber: receipt.blockNumber })
      expect(row.paidAt).toBe(block.timestamp.toString())
      expect(Number(row.issuedAt)).toBeLessThanOrEqual(Number(row.paidAt))
    }
    // the seeded demo payment is the same vault's too; only Paid invoices are listed
    expect(rows.every((row) => BigInt(row.grossAmount) === BigInt(row.netAmount) + BigInt(row.protocolFee))).toBe(true)
    expect(body.metadata).toMatchObject({ chainId: ctx.devnet.deployment.chainId, indexedBlock: expect.stringMatching(/^\d+$/) })
  })

  test('behavior: totals sum the page, and only the page', async () => {
    const { body } = await get('/v1/payments', 'limit=2')
    const rows = body.data.payments as any[]
    expect(rows).toHaveLength(2)
    const sum = (field: string) => rows.reduce((total, row) => total + BigInt(row[field]), 0n).toString()
    expect(body.data.totals).toEqual({ totalAmount: sum('grossAmount'), totalFees: sum('protocolFee'), totalNetAmount: sum('netAmount'), totalRefunded: sum('refundedAmount'), count: 2 })
    expect(body.data.totals.totalAmount).toBe((million + parseUnits('42.5', 6)).toString())
  })

  test('parameters: limit and cursor walk every payment once, in reverse payment order', async () => {
    const whole = await everyPage('limit=50')
    const byOne = await everyPage('limit=1')
    expect(byOne.map((row) => row.id)).toEqual(whole.map((row) => row.id))
    expect(new Set(byOne.map((row) => row.id)).size).toBe(byOne.length)
    const order = byOne.map((row) => [Number(row.paidAt), Number(row.id)] as const)
    for (let i = 1; i < order.length; i++) expect(order[i - 1]![0] > order[i]![0] || (order[i - 1]![0] === order[i]![0] && order[i - 1]![1] > order[i]![1])).toBe(true)
  })

  test('parameters: payer, and the inclusive paidFrom/paidTo range, select their payments; merchant is ignored', async () => {
    const target = paid[1]!
    const byPayer = (await get('/v1/payments', `payer=${target.payer}`)).body.data.payments as any[]
    expect(byPayer.map((row) => row.id)).toEqual([target.id.toString()])
    const { paidAt } = byPayer[0]
    const inSecond = (await get('/v1/payments', `paidFrom=${paidAt}&paidTo=${paidAt}`)).body.data.payments as any[]
    expect(inSecond.map((row) => row.id)).toContain(target.id.toString())
    expect(inSecond.every((row) => row.paidAt === paidAt)).toBe(true)
    expect((await get('/v1/payments', `paidFrom=${Number(paidAt) + 1}&payer=${target.payer}`)).body.data.payments).toEqual([])
    const someoneElse = privateKeyToAccount(`0x${randomBytes(32).toString('hex')}`).address
    const withMerchant = await get('/v1/payments', `merchant=${someoneElse}&limit=50`)
    expect(withMerchant.body.data.payments.map((row: any) => row.id)).toEqual((await get('/v1/payments', 'limit=50')).body.data.payments.map((row: any) => row.id))
  })

  test('errors: a reversed range, a limit out of 1 to 50, a malformed payer and a cursor made for other filters are 400s with their field', async () => {
    const refused = async (query: string, path: string) => {
      const { status, body } = await get('/v1/payments', query)
      expect(status).toBe(400)
      expect(body).toMatchObject({ error: 'VALIDATION_ERROR', details: [expect.objectContaining({ path })] })
    }
    await refused('paidFrom=200&paidTo=100', 'paidTo')
    await refused('limit=0', 'limit')
    await refused('limit=51', 'limit')
    await refused('payer=0x1234', 'payer')
    await refused('paidFrom=-1', 'paidFrom')
    const { body } = await get('/v1/payments', 'limit=1')
    await refused(`limit=1&payer=${paid[0]!.payer}&cursor=${encodeURIComponent(body.data.page.cursor)}`, 'cursor')
    await refused('cursor=1.AAAAAAAAAAAAAAAAAAAAAA', 'cursor')
    // the invoice list's cursor is not this list's
    const invoices = await signedRequest(ctx.server.url, invoiceKey, { method: 'GET', path: '/v1/invoices', query: 'limit=1' })
    expect(invoices.body.data.page.cursor).toEqual(expect.any(String))
    await refused(`cursor=${encodeURIComponent(invoices.body.data.page.cursor)}`, 'cursor')
  })

  test('behavior: another studio sees none of these payments, and no signature is a 401', async () => {
    const { status, body } = await get('/v1/payments', '', otherKey)
    expect(status).toBe(200)
    expect(body.data).toEqual({ payments: [], page: { cursor: null, hasNextPage: false }, totals: { totalAmount: '0', totalFees: '0', totalNetAmount: '0', totalRefunded: '0', count: 0 } })
    const unsigned = await fetch(`${ctx.server.url}/v1/payments`)
    expect(unsigned.status).toBe(401)
  })

  test("behavior: a row whose index lacks the settlement reads the InvoicePaid event from the chain; SPEC 2.14's fall-back only where there is no event, flagged", async () => {
    const target = paid[0]!
    const before = (await get('/v1/payments', `payer=${target.payer}`)).body.data.payments[0]
    const { chainId, registry } = ctx.devnet.deployment
    await ctx.server.stores.db.query(
      'UPDATE invoice_index SET settled_fee = NULL, settled_net = NULL, settled_fee_bps = NULL WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3',
      [chainId, registry.toLowerCase(), target.id.toString()],
    )
    const reread = (await get('/v1/payments', `payer=${target.payer}`)).body.data.payments[0]
    expect(reread).toEqual(before)
    // a Paid row the chain has no payment event for: an invoice id the registry never gave
    const ghost = 10n ** 9n
    const ghostPayer = privateKeyToAccount(`0x${randomBytes(32).toString('hex')}`).address.toLowerCase()
    await ctx.server.stores.db.query(
      `INSERT INTO invoice_index (chain_id, registry, invoice_id, merchant, invoice_number, token, amount, status, payer, meta_hash, issued_at, due_at, issued_block, issued_tx, paid_at, changed_block, changed_block_hash)
       VALUES ($1, $2, $3, $4, 1, $5, 777, 'Paid', $6, $7, 100, 200, 1, $7, 150, 1, $7)`,
      [chainId, registry.toLowerCase(), ghost.toString(), vault.toLowerCase(), ctx.devnet.deployment.token.toLowerCase(), ghostPayer, `0x${'ab'.repeat(32)}`],
    )
    const fallback = (await get('/v1/payments', `payer=${ghostPayer}`)).body.data.payments[0]
    expect(fallback).toMatchObject({ id: ghost.toString(), amount: '777', grossAmount: '777', netAmount: '777', protocolFee: '0', feeBps: null, settlementSource: 'fallback', transactionHash: null })
    await ctx.server.stores.db.query('DELETE FROM invoice_index WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3', [chainId, registry.toLowerCase(), ghost.toString()])
  })
})

/** CSV as csv-stringify wrote it: these fields hold no comma, quote or newline, so a line splits on commas. */
function csvRows(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trimEnd().split('\n')
  const names = header!.split(',')
  return lines.map((line) => {
    expect(line).not.toContain('"')
    const values = line.split(',')
    expect(values).toHaveLength(names.length)
    return Object.fromEntries(names.map((name, i) => [name, values[i]!]))
  })
}

describe('GET /v1/payments/export', () => {
  let rows: any[]
  let range: string

  beforeAll(async () => {
    rows = (await get('/v1/payments', 'limit=50')).body.data.payments
    const times = rows.map((row) => Number(row.paidAt))
    range = `startDate=${Math.min(...times)}&endDate=${Math.max(...times)}`
  })

  test('format=json: every payment in the range, oldest first, each amount exact to the base unit (six decimals, and a million USDC), and a summary of exactly those rows', async () => {
    const { status, body, headers } = await get('/v1/payments/export', `format=json&${range}`)
    expect(status).toBe(200)
    expect(headers.get('content-type')).toMatch(/^application\/json/)
    expect(Object.keys(body)).toEqual(['exportedAt', 'dateRange', 'payments', 'summary'])
    expect(body.payments.map((row: any) => row.invoiceId)).toEqual(rows.map((row) => row.id).reverse())
    for (const row of rows) {
      const exported = body.payments.find((candidate: any) => candidate.invoiceId === row.id)
      expect(exported).toMatchObject({
        amountBaseUnits: row.grossAmount,
        feeBaseUnits: row.protocolFee,
        netAmountBaseUnits: row.netAmount,
        refundedAmountBaseUnits: row.refundedAmount,
        payerAddress: row.payer,
        transactionHash: row.transactionHash,
        currency: 'USDC',
        date: new Date(Number(row.paidAt) * 1000).toISOString(),
      })
      // the display figure converts back to the very base units
      expect(parseUnits(exported.amount, 6)).toBe(BigInt(row.grossAmount))
      expect(parseUnits(exported.fee, 6)).toBe(BigInt(row.protocolFee))
      expect(parseUnits(exported.netAmount, 6)).toBe(BigInt(row.netAmount))
    }
    const bySmall = body.payments.find((row: any) => row.invoiceId === paid[0]!.id.toString())
    expect(bySmall).toMatchObject({ amount: '1.234567', fee: '0.012345', netAmount: '1.222222' })
    const byMillion = body.payments.find((row: any) => row.invoiceId === paid[1]!.id.toString())
    expect(byMillion).toMatchObject({ amount: '1000000.000000', fee: '10000.000000', netAmount: '990000.000000', amountBaseUnits: '1000000000000' })
    const sum = (field: string) => rows.reduce((total, row) => total + BigInt(row[field]), 0n)
    expect(body.summary).toMatchObject({
      totalPayments: rows.length,
      currency: 'USDC',
      totalAmountBaseUnits: sum('grossAmount').toString(),
      totalFeesBaseUnits: sum('protocolFee').toString(),
      totalNetAmountBaseUnits: sum('netAmount').toString(),
    })
    expect(parseUnits(body.summary.totalAmount, 6)).toBe(sum('grossAmount'))
  })

  test('format=csv: an attachment whose rows are the JSON export\'s, field for field', async () => {
    const csv = await get('/v1/payments/export', `format=csv&${range}`)
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/)
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="payments-\d+-\d+\.csv"$/)
    const json = (await get('/v1/payments/export', `format=json&${range}`)).body
    const lines = csvRows(csv.body as string)
    expect(lines).toHaveLength(json.payments.length)
    lines.forEach((line, i) => {
      const row = json.payments[i]
      for (const [name, value] of Object.entries(line)) expect(value).toBe(row[name] === null ? '' : String(row[name]))
    })
    expect(lines.find((line) => line.invoiceId === paid[1]!.id.toString())).toMatchObject({ amount: '1000000.000000', amountBaseUnits: '1000000000000', fee: '10000.000000' })
    expect(lines.find((line) => line.invoiceId === paid[0]!.id.toString())).toMatchObject({ amount: '1.234567', amountBaseUnits: '1234567' })
  })

  test("behavior: refunds are included: after the vault refunds part of a payment on-chain, the row and the export carry the registry's refunded total", async () => {
    const target = paid[2]!
    const { devnet } = ctx
    const owner = privateKeyToAccount(devnet.seed.merchant.ownerPrivateKey)
    const refund = { kind: 'Refund', registry: devnet.deployment.registry, invoice: target.id, payer: target.payer, token: devnet.deployment.token, amount: 1_500_000n } as const
    const { success } = await sendMerchantOperation(devnet.anvil.rpcUrl, devnet.deployment, { vault, call: refund, signer: { kind: 'owner', privateKey: devnet.seed.merchant.ownerPrivateKey }, bundler: owner })
    expect(success).toBe(true)
    const onChain = await devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'refundedAmount', args: [target.id] })
    expect(onChain).toBe(1_500_000n)
    const deadline = Date.now() + 15_000
    let row: any
    do {
      row = (await get('/v1/payments', `payer=${target.payer}`)).body.data.payments[0]
      if (row.refundedAmount !== '0' || Date.now() > deadline) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    } while (true)
    // a refund leaves the payment as it settled: gross, fee and net are the payment's
    expect(row).toMatchObject({ refundedAmount: onChain.toString(), grossAmount: target.amount.toString() })
    const { body } = await get('/v1/payments/export', `format=json&${range}`)
    expect(body.payments.find((exported: any) => exported.invoiceId === target.id.toString())).toMatchObject({ refundedAmount: '1.500000', refundedAmountBaseUnits: '1500000', amount: '42.500000' })
    expect(body.summary).toMatchObject({ totalRefunded: '1.500000', totalRefundedBaseUnits: '1500000' })
  })

  test("behavior: a document number that a spreadsheet would run as a formula is written as text in the CSV, and as it is in the JSON", async () => {
    const target = paid[0]!
    const { chainId, registry } = ctx.devnet.deployment
    const onChain = await ctx.devnet.clients.public.readContract({ address: registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [target.id] })
    const studio = (await ctx.server.stores.studios.findStudioByVault(chainId, vault))!
    await ctx.server.stores.db.query(
      `INSERT INTO issued_invoices (user_op_hash, studio_id, chain_id, registry, invoice_number, amount, due_at, meta_hash, invoice_id, tx_hash, issued_at, finalized_at)
       VALUES ($1, $2, $3, $4, '=1+2', $5, $6, $7, $8, $9, $10, now())`,
      [`0x${randomBytes(32).toString('hex')}`, studio.id, chainId, registry.toLowerCase(), onChain.amount.toString(), onChain.dueAt.toString(), onChain.metaHash, target.id.toString(), `0x${randomBytes(32).toString('hex')}`, onChain.issuedAt.toString()],
    )
    try {
      const csv = csvRows((await get('/v1/payments/export', `format=csv&${range}&payer=${target.payer}`)).body)
      expect(csv).toEqual([expect.objectContaining({ invoiceId: target.id.toString(), invoiceNumber: "'=1+2" })])
      const json = (await get('/v1/payments/export', `format=json&${range}&payer=${target.payer}`)).body
      expect(json.payments[0]).toMatchObject({ invoiceNumber: '=1+2' })
      expect((await get('/v1/payments', `payer=${target.payer}`)).body.data.payments[0]).toMatchObject({ documentNumber: '=1+2', invoiceNumber: onChain.invoiceNumber.toString() })
    } finally {
      await ctx.server.stores.db.query('DELETE FROM issued_invoices WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3', [chainId, registry.toLowerCase(), target.id.toString()])
    }
  })

  test("parameters: payer narrows the export; merchant equal to the caller's vault is accepted", async () => {
    const { body } = await get('/v1/payments/export', `format=json&${range}&payer=${paid[1]!.payer}&merchant=${vault.toLowerCase()}`)
    expect(body.payments.map((row: any) => row.invoiceId)).toEqual([paid[1]!.id.toString()])
    expect(body.summary.totalPayments).toBe(1)
  })

  test("errors: merchant other than the caller's vault is a 403; a missing format, a reversed range and a range over 366 days are 400s", async () => {
    const forbidden = await get('/v1/payments/export', `format=csv&${range}&merchant=${privateKeyToAccount(`0x${randomBytes(32).toString('hex')}`).address}`)
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toMatchObject({ error: 'FORBIDDEN', code: 'FORBIDDEN' })
    // another studio naming this vault is refused as well
    expect((await get('/v1/payments/export', `format=csv&${range}&merchant=${vault}`, otherKey)).status).toBe(403)
    const refused = async (query: string, path: string) => {
      const { status, body } = await get('/v1/payments/export', query)
      expect(status).toBe(400)
      expect(body).toMatchObject({ error: 'VALIDATION_ERROR', details: [expect.objectContaining({ path })] })
    }
    await refused(range, 'format')
    await refused(`format=xml&${range}`, 'format')
    await refused('format=csv&startDate=200&endDate=100', 'endDate')
    await refused('format=csv&startDate=0', 'endDate')
    await refused(`format=csv&startDate=0&endDate=${366 * 86_400 + 1}`, 'endDate')
    expect((await get('/v1/payments/export', `format=csv&startDate=0&endDate=${366 * 86_400}`)).status).toBe(200)
  })

  test('behavior: another studio\'s export of the same range holds no rows', async () => {
    const { body } = await get('/v1/payments/export', `format=json&${range}`, otherKey)
    expect(body.payments).toEqual([])
    expect(body.summary).toMatchObject({ totalPayments: 0, totalAmount: '0.000000', totalAmountBaseUnits: '0' })
  })
})
