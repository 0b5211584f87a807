import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import type { Hex } from 'viem'
import { startNoncePruning } from '../../server/auth/startNoncePruning'
import { silentLogger } from '../../server/http/logger'
import { startPreparedPruning } from '../../server/payments/preparedPruning'
import type { Database } from '../../server/store/database'
import { createNonceStore, type NonceStore } from '../../server/store/nonceStore'
import { createPaymentStore, type PaymentStore } from '../../server/store/paymentStore'
import { backends, useDatabases } from '../support/postgres'
import { preparedPayment } from './fixtures'

const databases = useDatabases()
const hour = 3_600_000

describe.each(backends)('%s', (backend) => {
  let db: Database
  let payments: PaymentStore
  let otherInstance: PaymentStore
  let nonces: NonceStore
  beforeAll(async () => {
    const [first, second] = await databases.openTwo(backend)
    db = first
    payments = createPaymentStore(first)
    otherInstance = createPaymentStore(second)
    nonces = createNonceStore(first)
  })

  /** A prepared payment whose permit (and so the payment) expires `inMs` from now. */
  async function prepared(inMs: number): Promise<Hex> {
    const payment = preparedPayment()
    const deadline = BigInt(Math.floor((Date.now() + inMs) / 1000))
    await payments.recordPrepared({ ...payment, permit: { ...payment.permit, deadline }, expiresAt: new Date(Number(deadline) * 1000) })
    return payment.userOpHash
  }

  const isPrepared = async (hash: Hex) => (await payments.getPrepared(hash)) !== null
  const hasNonce = async (keyId: string, nonce: string) => (await db.query('SELECT 1 FROM hmac_nonces WHERE key_id = $1 AND nonce = $2', [keyId, nonce])).length > 0

  test('behavior: the periodic jobs remove expired prepared payments and old nonces, and keep live ones, submitted ones and those within the retention', async () => {
    const expiredLongAgo = await prepared(hour)
    const withinRetention = await prepared(2 * hour)
    const live = await prepared(10 * hour)
    const submitted = await prepared(hour)
    await payments.claimSubmission(submitted)
    const keyId = `svc_pk_${randomUUID()}`
    const [oldNonce, liveNonce] = [randomUUID(), randomUUID()]
    await nonces.claimNonce(keyId, oldNonce, new Date(Date.now() + hour))
    await nonces.claimNonce(keyId, liveNonce, new Date(Date.now() + 10 * hour))

    // two and a half hours on: the first expired 1.5 h ago (past the hour kept), the second 30 min ago
    const clock = () => Date.now() + 2.5 * hour
    const stops = [
      startPreparedPruning(payments, { everyMs: 20, now: clock, logger: silentLogger }),
      startPreparedPruning(otherInstance, { everyMs: 20, now: clock, logger: silentLogger }),
      startNoncePruning(nonces, { everyMs: 20, now: clock, logger: silentLogger }),
    ]
    try {
      const deadline = Date.now() + 10_000
      while ((await isPrepared(expiredLongAgo)) || (await hasNonce(keyId, oldNonce))) {
        if (Date.now() > deadline) throw new Error('nothing was pruned within 10 s')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    } finally {
      // a pass still under way would go on deleting the next test's rows
      await Promise.all(stops.map((stop) => stop()))
    }
    expect({
      expiredLongAgo: await isPrepared(expiredLongAgo),
      withinRetention: await isPrepared(withinRetention),
      live: await isPrepared(live),
      submitted: await isPrepared(submitted),
      oldNonce: await hasNonce(keyId, oldNonce),
      liveNonce: await hasNonce(keyId, liveNonce),
    }).toEqual({ expiredLongAgo: false, withinRetention: true, live: true, submitted: true, oldNonce: false, liveNonce: true })
    expect((await payments.getSubmission(submitted))?.state).toBe('submitting')
  })

  test('behavior: once stopped, the periodic job deletes nothing more: the pass under way ends before the stop returns', async () => {
    let batches = 0
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    // the first batch is slow to come back, as on a loaded database; the pass would then delete the rest
    const slowStore = {
      async prunePrepared(before: Date) {
        batches += 1
        const pruned = await payments.prunePrepared(before, 1)
        if (batches === 1) await held
        return pruned
      },
    }
    const hashes = await Promise.all(Array.from({ length: 3 }, () => prepared(hour)))
    const stop = startPreparedPruning(slowStore, { everyMs: 10, now: () => Date.now() + 2.5 * hour, logger: silentLogger })
    await expect.poll(() => batches).toBe(1)
    const stopped = stop()
    release()
    await stopped
    // long enough for the batches a pass that went on would start (one every few milliseconds)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(batches).toBe(1)
    expect((await Promise.all(hashes.map(isPrepared))).filter(Boolean)).toHaveLength(2)
    await payments.prunePrepared(new Date(Date.now() + 2 * hour))
  })

  test('behavior: two instances pruning at once delete each expired row once, in batches, without an error', async () => {
    const hashes = await Promise.all(Array.from({ length: 30 }, () => prepared(hour)))
    // past the expiry of these 30, before that of the rows the test above kept
    const before = new Date(Date.now() + hour + 1_000)
    const deleted: number[] = []
    const drain = async (store: PaymentStore) => {
      for (let batch; (batch = await store.prunePrepared(before, 7)) > 0; ) deleted.push(batch)
    }
    await Promise.all([drain(payments), drain(otherInstance)])
    expect(deleted.reduce((sum, n) => sum + n, 0)).toBe(30)
    expect(Math.max(...deleted)).toBeLessThanOrEqual(7)
    for (const hash of hashes) expect(await isPrepared(hash)).toBe(false)
  })
})
