import { parseUnits } from 'viem'
import { beforeAll, expect, test } from 'vitest'
import { freshMerchant, merchantCalls, ownerSigns, paidInvoice, randomAddress, tokenBalance, type FreshMerchant } from '../support/ownerOperations'
import { useServer } from '../support/server'

const ctx = useServer()
let merchant: FreshMerchant
let destination: `0x${string}`
const { post } = merchantCalls(ctx, () => merchant)

beforeAll(async () => {
  merchant = await freshMerchant(ctx, 'Withdrawal Latency')
  destination = randomAddress()
  await ctx.server.stores.withdrawalAddresses.set(merchant.studioId, destination)
  await paidInvoice(ctx, merchant, parseUnits('1000', 6))
})

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

test('behavior: 20 withdrawals in a row, each prepared, signed by the owner and confirmed, move exactly their sum to the address (their latency is printed for the record)', async () => {
  const prepares: number[] = []
  const submits: number[] = []
  for (let i = 1; i <= 20; i++) {
    let started = performance.now()
    const prepared = await post('/v1/withdrawals/prepare', { ownerAddress: merchant.owner, amount: String(i) })
    prepares.push(performance.now() - started)
    expect(prepared.status).toBe(200)
    const userOp = await ownerSigns(prepared.body, merchant.ownerPrivateKey)
    started = performance.now()
    const answer = await post('/v1/withdrawals', { userOp })
    submits.push(performance.now() - started)
    expect(answer.body).toMatchObject({ status: 'confirmed' })
  }
  // 1 + 2 + … + 20 base units, and nothing else, reached the address
  expect(await tokenBalance(ctx, destination)).toBe(210n)
  const figures = (name: string, durations: number[]) => {
    const sorted = [...durations].sort((a, b) => a - b)
    return `${name} p50 ${Math.round(percentile(sorted, 50))} ms, p99 ${Math.round(percentile(sorted, 99))} ms`
  }
  console.log(`withdrawals on the devnet, 20 in a row: ${figures('prepare', prepares)}; ${figures('submit → confirmed', submits)}`)
})
