import { randomBytes } from 'node:crypto'
import { bytesToHex, type Hex } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import type { Database } from '../../server/store/database'
import { createPaymentStore, type PaymentStore } from '../../server/store/paymentStore'
import { createReconcileClaims, type ReconcileClaims } from '../../server/store/reconcileClaims'
import { backends, useDatabases } from '../support/postgres'
import { preparedPayment } from './fixtures'

const databases = useDatabases()
const signature = () => bytesToHex(randomBytes(65))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.each(backends)('%s', (backend) => {
  let db: Database
  let payments: PaymentStore
  let instanceA: ReconcileClaims
  let instanceB: ReconcileClaims
  beforeAll(async () => {
    const [first, second] = await databases.openTwo(backend)
    db = first
    payments = createPaymentStore(first)
    instanceA = createReconcileClaims(first)
    instanceB = createReconcileClaims(second)
  })

  async function submitted(count: number): Promise<Hex[]> {
    const hashes: Hex[] = []
    for (let i = 0; i < count; i++) {
      const payment = preparedPayment()
      await payments.recordPrepared(payment)
      await payments.claimSubmission(payment.userOpHash, signature())
      await payments.markSubmitted(payment.userOpHash, 'bundler')
      hashes.push(payment.userOpHash)
    }
    return hashes
  }
  const claimOf = (claims: ReconcileClaims, instance: string, leaseMs = 400) => claims.claim({ instance, leaseMs, submittedForMs: 0, limit: 100 })
  const hashesOf = (claimed: { prepared: { userOpHash: Hex } }[], among: Hex[]) => claimed.map((c) => c.prepared.userOpHash).filter((hash) => among.includes(hash))

  test('behavior: instances claiming at once share the unsettled operations, each claimed by one, with the signed operation', async () => {
    const hashes = await submitted(8)
    const [a, b] = await Promise.all([claimOf(instanceA, 'a'), claimOf(instanceB, 'b')])
    const mine = [...hashesOf(a, hashes), ...hashesOf(b, hashes)]
    expect(mine.toSorted()).toEqual(hashes.toSorted())
    const claimed = [...a, ...b].find((c) => c.prepared.userOpHash === hashes[0])!
    expect(claimed).toMatchObject({ state: 'submitted', bundlerRef: 'bundler', signature: expect.stringMatching(/^0x[0-9a-f]{130}$/) })
    expect(claimed.prepared.userOp.sender).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
  })

  test('behavior: a claim held by an instance that died passes to another once its lease runs out', async () => {
    const [hash] = await submitted(1)
    expect(hashesOf(await claimOf(instanceA, 'killed', 300), [hash!])).toEqual([hash])
    // the holder never releases it: nobody else may take it while the lease holds
    expect(hashesOf(await claimOf(instanceB, 'b'), [hash!])).toEqual([])
    await sleep(400)
    expect(hashesOf(await claimOf(instanceB, 'b'), [hash!])).toEqual([hash])
  })

  test('behavior: settled, lost and recently submitted operations are not claimed; a submission claim waits for the lease', async () => {
    const [confirmed, lost, released] = await submitted(3)
    await payments.markConfirmed(confirmed!, bytesToHex(randomBytes(32)))
    await claimOf(instanceA, 'a', 60_000)
    await instanceA.markLost(lost!, 'a')
    expect(await payments.getSubmission(lost!)).toMatchObject({ state: 'lost' })
    await instanceA.release(released!, 'a', 60_000)
    const again = await instanceB.claim({ instance: 'b', leaseMs: 400, submittedForMs: 0, limit: 100 })
    expect(hashesOf(again, [confirmed!, lost!, released!])).toEqual([])
    const [fresh] = await submitted(1)
    expect(hashesOf(await instanceB.claim({ instance: 'b', leaseMs: 400, submittedForMs: 60_000, limit: 100 }), [fresh!])).toEqual([])
  })

  test('behavior: a send left mid-way by a dead instance is the reconciler\'s after a minute, and no submit re-claims it while leased', async () => {
    const payment = preparedPayment()
    await payments.recordPrepared(payment)
    const hash = payment.userOpHash
    await payments.claimSubmission(hash, signature())
    expect(hashesOf(await claimOf(instanceA, 'a'), [hash])).toEqual([])
    // the sender died a minute ago, between its claim and the bundler's answer
    await db.query(`UPDATE payment_submissions SET updated_at = now() - interval '61 seconds' WHERE user_op_hash = $1`, [hash.toLowerCase()])
    const [claimed] = (await claimOf(instanceA, 'a', 60_000)).filter((c) => c.prepared.userOpHash === hash)
    expect(claimed).toMatchObject({ state: 'submitting', bundlerRef: null })
    expect(await payments.claimSubmission(hash)).toMatchObject({ claimed: false, submission: { state: 'submitting', attempts: 1 } })
  })

  test('behavior: a submission its sender handed over (it answered pending) is left alone for the wait again, counted from the hand-over', async () => {
    const [hash] = await submitted(1)
    // sent a minute ago; its sender waited for the receipt until now
    await db.query(`UPDATE payment_submissions SET updated_at = now() - interval '60 seconds' WHERE user_op_hash = $1`, [hash!.toLowerCase()])
    await payments.handOver(hash!)
    const claim = () => instanceA.claim({ instance: 'a', leaseMs: 60_000, submittedForMs: 30_000, limit: 100 })
    expect(hashesOf(await claim(), [hash!])).toEqual([])
    await db.query(`UPDATE payment_submissions SET updated_at = now() - interval '31 seconds' WHERE user_op_hash = $1`, [hash!.toLowerCase()])
    expect(hashesOf(await claim(), [hash!])).toEqual([hash])
    // once the reconciler has it, a late hand-over changes nothing it relies on
    await payments.markConfirmed(hash!, bytesToHex(randomBytes(32)))
    await payments.handOver(hash!)
    expect(await payments.getSubmission(hash!)).toMatchObject({ state: 'confirmed' })
  })

  test('behavior: a resubmission is counted and the wait for inclusion starts again', async () => {
    const [hash] = await submitted(1)
    await claimOf(instanceA, 'a')
    await instanceA.markResubmitted(hash!, 'a', 'again')
    const [row] = await db.query<{ resubmissions: number; bundler_ref: string; state: string }>(
      'SELECT resubmissions, bundler_ref, state FROM payment_submissions WHERE user_op_hash = $1',
      [hash!.toLowerCase()],
    )
    expect(row).toEqual({ resubmissions: 1, bundler_ref: 'again', state: 'submitted' })
  })
})
