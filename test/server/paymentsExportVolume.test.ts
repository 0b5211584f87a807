import { randomBytes } from 'node:crypto'
import { privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, test } from 'vitest'
import { useServer } from '../support/server'
import { signRequest } from '../../cli/merchant/signRequest'
import { signedRequest } from '../support/signedRequest'

const ctx = useServer()
let key: { keyId: string; secret: string }

/** Paid rows written into the index directly, as the registry follower would from InvoicePaid events:
 * 10,000 real payments on the devnet would take minutes, and the export reads only the index. Amounts
 * run from 1 USDC and a base unit upwards, one a second from `start`, 1% fee. */
const count = 10_000
const start = 1_700_000_000
let sums: { gross: bigint; fee: bigint; net: bigint }

beforeAll(async () => {
  const { devnet, server } = ctx
  const vault = privateKeyToAccount(`0x${randomBytes(32).toString('hex')}`).address
  const studio = await server.stores.studios.createStudio({ name: 'Busy shop', vaultAddress: vault, chainId: devnet.deployment.chainId })
  key = await server.stores.apiKeys.createApiKey({ studioId: studio.id, name: 'export', scopes: ['read'] })
  const { chainId, registry, token } = devnet.deployment
  const hash = `0x${'ab'.repeat(32)}`
  await server.stores.db.query(
    `INSERT INTO invoice_index (chain_id, registry, invoice_id, merchant, invoice_number, token, amount, status, payer, meta_hash, issued_at, due_at,
       issued_block, issued_tx, paid_at, paid_tx, settled_fee, settled_net, settled_fee_bps, changed_block, changed_block_hash)
     SELECT $1, $2, 3000000000 + n, $3, n, $4, 1000001 * n, 'Paid', $5, $6, $7 + n - 1, $7 + n + 86400, n, $6, $7 + n,
       '0x' || lpad(to_hex(n), 64, '0'), (1000001 * n) / 100, 1000001 * n - (1000001 * n) / 100, 100, n, $6
     FROM generate_series(1::bigint, $8::bigint) AS n`,
    [chainId, registry.toLowerCase(), vault.toLowerCase(), token.toLowerCase(), vault.toLowerCase(), hash, start, count],
  )
  const [row] = await server.stores.db.query<{ gross: string; fee: string; net: string }>(
    'SELECT sum(amount)::text AS gross, sum(settled_fee)::text AS fee, sum(settled_net)::text AS net FROM invoice_index WHERE merchant = $1',
    [vault.toLowerCase()],
  )
  sums = { gross: BigInt(row!.gross), fee: BigInt(row!.fee), net: BigInt(row!.net) }
}, 60_000)

/** Reads an export's body as it arrives, keeping nothing but its size and line count, while the heap
 * and resident memory of this process (the server runs in it) are sampled: what the export costs. */
async function measuredExport(query: string) {
  const signed = await signRequest({ ...key, method: 'GET', path: '/v1/payments/export', query })
  const baseline = process.memoryUsage()
  let peakHeap = baseline.heapUsed
  let peakRss = baseline.rss
  const sampler = setInterval(() => {
    const now = process.memoryUsage()
    peakHeap = Math.max(peakHeap, now.heapUsed)
    peakRss = Math.max(peakRss, now.rss)
  }, 5)
  const started = performance.now()
  const response = await fetch(`${ctx.server.url}/v1/payments/export?${query}`, { headers: signed })
  expect(response.status).toBe(200)
  let bytes = 0
  let lines = 0
  // the header line leaves before any row is read: the first row is what shows the stream at work
  let firstRowMs = 0
  const reader = response.body!.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    bytes += value.length
    for (const byte of value) if (byte === 10) lines++
    if (lines > 1 && firstRowMs === 0) firstRowMs = performance.now() - started
  }
  const ms = performance.now() - started
  clearInterval(sampler)
  return { ms, firstRowMs, bytes, lines, heapGrowthMb: (peakHeap - baseline.heapUsed) / 2 ** 20, rssGrowthMb: (peakRss - baseline.rss) / 2 ** 20 }
}

describe('GET /v1/payments/export of 10,000 payments', () => {
  test('behavior: the CSV holds every payment, streamed; time and memory measured against an export of 1,000', async () => {
    const range = (n: number) => `startDate=${start + 1}&endDate=${start + n}`
    // warm: token details read, routes compiled
    await measuredExport(`format=csv&${range(10)}`)
    const thousand = await measuredExport(`format=csv&${range(1_000)}`)
    const all = await measuredExport(`format=csv&${range(count)}`)
    expect(thousand.lines).toBe(1_001)
    expect(all.lines).toBe(count + 1)
    console.log(
      `export of ${count} payments (CSV, ${(all.bytes / 2 ** 20).toFixed(1)} MiB): ${all.ms.toFixed(0)} ms, first rows after ${all.firstRowMs.toFixed(0)} ms, ` +
        `peak heap +${all.heapGrowthMb.toFixed(1)} MiB, peak RSS +${all.rssGrowthMb.toFixed(1)} MiB; ` +
        `1,000 payments: ${thousand.ms.toFixed(0)} ms, peak heap +${thousand.heapGrowthMb.toFixed(1)} MiB, peak RSS +${thousand.rssGrowthMb.toFixed(1)} MiB`,
    )
    // the first batch of rows leaves before the last is read: the client has rows long before the end
    expect(all.firstRowMs).toBeLessThan(all.ms / 2)
  }, 120_000)

  test('behavior: the JSON export of the 10,000 sums them to the base unit as the database does', async () => {
    const started = performance.now()
    const { status, body } = await signedRequest(ctx.server.url, key, { method: 'GET', path: '/v1/payments/export', query: `format=json&startDate=${start + 1}&endDate=${start + count}` })
    const ms = performance.now() - started
    expect(status).toBe(200)
    expect(body.payments).toHaveLength(count)
    expect(body.summary).toMatchObject({
      totalPayments: count,
      totalAmountBaseUnits: sums.gross.toString(),
      totalFeesBaseUnits: sums.fee.toString(),
      totalNetAmountBaseUnits: sums.net.toString(),
    })
    // 1,000,001 × 10,000 base units: 10,000.010000 USDC, no rounding on the way
    expect(body.payments.at(-1)).toMatchObject({ amount: '10000.010000', amountBaseUnits: '10000010000' })
    expect(body.payments[0]).toMatchObject({ amount: '1.000001', fee: '0.010000', netAmount: '0.990001' })
    console.log(`export of ${count} payments (JSON, read whole by the test): ${ms.toFixed(0)} ms`)
  }, 120_000)
})
