import { beforeAll, describe, expect, test } from 'vitest'
import type { Hex } from 'viem'
import type { Database } from '../../server/store/database'
import {
  createPaymentStore,
  PreparedPaymentExpiryError,
  PreparedPaymentNotFoundError,
  SubmissionConflictError,
  SubmissionNotFoundError,
  type PaymentStore,
} from '../../server/store/paymentStore'
import { backends, useDatabases } from '../support/postgres'
import { preparedPayment, randomHash } from './fixtures'

const databases = useDatabases()

describe.each(backends)('%s', (backend) => {
  let db: Database
  let payments: PaymentStore
  let otherInstance: PaymentStore
  beforeAll(async () => {
    const [first, second] = await databases.openTwo(backend)
    db = first
    payments = createPaymentStore(first)
    otherInstance = createPaymentStore(second)
  })

  async function prepared(): Promise<Hex> {
    const payment = preparedPayment()
    await payments.recordPrepared(payment)
    return payment.userOpHash
  }

  test('default: returns the prepared payment as recorded', async () => {
    const payment = preparedPayment()
    await payments.recordPrepared(payment)
    expect(await payments.getPrepared(payment.userOpHash)).toEqual(payment)
    expect(await otherInstance.getPrepared(payment.userOpHash.toUpperCase().replace('0X', '0x') as Hex)).toEqual(payment)
  })

  test('behavior: preparing the same operation twice keeps one record', async () => {
    const payment = preparedPayment()
    await payments.recordPrepared(payment)
    await payments.recordPrepared(payment)
    expect(await db.query('SELECT 1 FROM prepared_payments WHERE user_op_hash = $1', [payment.userOpHash])).toHaveLength(1)
  })

  test('behavior: unknown operations are null', async () => {
    expect(await payments.getPrepared(randomHash())).toBeNull()
    expect(await payments.getSubmission(randomHash())).toBeNull()
  })

  test('parameters: a prepared payment may not outlive its permit', async () => {
    const payment = preparedPayment()
    await expect(payments.recordPrepared({ ...payment, expiresAt: new Date(Number(payment.permit.deadline) * 1000 + 1) })).rejects.toBeInstanceOf(
      PreparedPaymentExpiryError,
    )
  })

  test('behavior: submitting, submitted, confirmed; later claims learn the state instead', async () => {
    const hash = await prepared()
    const first = await payments.claimSubmission(hash)
    expect(first).toMatchObject({ claimed: true, submission: { userOpHash: hash, state: 'submitting', attempts: 1, txHash: null, reason: null } })
    expect(await otherInstance.claimSubmission(hash)).toMatchObject({ claimed: false, submission: { state: 'submitting' } })

    await payments.markSubmitted(hash, 'bundler:0xabc')
    expect(await otherInstance.claimSubmission(hash)).toMatchObject({ claimed: false, submission: { state: 'submitted', bundlerRef: 'bundler:0xabc' } })

    const txHash = randomHash()
    await otherInstance.markConfirmed(hash, txHash)
    expect(await payments.claimSubmission(hash)).toMatchObject({ claimed: false, submission: { state: 'confirmed', txHash, attempts: 1 } })
  })

  test('behavior: confirmation is final; late reports change nothing, a different transaction is a conflict', async () => {
    const hash = await prepared()
    await payments.claimSubmission(hash)
    const txHash = randomHash()
    await payments.markConfirmed(hash, txHash)
    await payments.markSubmitted(hash)
    await payments.markFailed(hash, 'late send error')
    await payments.markConfirmed(hash, txHash)
    await expect(payments.markConfirmed(hash, randomHash())).rejects.toBeInstanceOf(SubmissionConflictError)
    expect(await payments.getSubmission(hash)).toMatchObject({ state: 'confirmed', txHash, reason: null })
  })

  test('behavior: a failed submission can be claimed again, and a receipt still confirms it', async () => {
    const hash = await prepared()
    await payments.claimSubmission(hash)
    await payments.markFailed(hash, 'BundlerRejectedError')
    expect(await payments.getSubmission(hash)).toMatchObject({ state: 'failed', reason: 'BundlerRejectedError' })

    const again = await otherInstance.claimSubmission(hash)
    expect(again).toMatchObject({ claimed: true, submission: { state: 'submitting', attempts: 2, reason: null } })

    await otherInstance.markFailed(hash, 'timeout')
    const txHash = randomHash()
    await payments.markConfirmed(hash, txHash)
    expect(await payments.getSubmission(hash)).toMatchObject({ state: 'confirmed', txHash, reason: null })
  })

  test('behavior: a claim left submitting by an instance that died can be taken over after a minute, not before', async () => {
    const hash = await prepared()
    await payments.claimSubmission(hash)
    expect(await otherInstance.claimSubmission(hash)).toMatchObject({ claimed: false, submission: { state: 'submitting' } })
    await db.query(`UPDATE payment_submissions SET updated_at = now() - interval '61 seconds' WHERE user_op_hash = $1`, [hash.toLowerCase()])
    expect(await otherInstance.claimSubmission(hash)).toMatchObject({ claimed: true, submission: { state: 'submitting', attempts: 2 } })
    expect(await payments.claimSubmission(hash)).toMatchObject({ claimed: false })
  })

  test('behavior: only a prepared operation can be claimed, only a claimed one marked', async () => {
    await expect(payments.claimSubmission(randomHash())).rejects.toBeInstanceOf(PreparedPaymentNotFoundError)
    const hash = await prepared()
    await expect(payments.markSubmitted(hash)).rejects.toBeInstanceOf(SubmissionNotFoundError)
    await expect(payments.markConfirmed(hash, randomHash())).rejects.toMatchObject({ code: 'SUBMISSION_NOT_FOUND' })
    await expect(payments.markFailed(hash, 'x')).rejects.toBeInstanceOf(SubmissionNotFoundError)
  })

  test('behavior: of 10 concurrent claims from two instances, exactly one wins', async () => {
    const hash = await prepared()
    const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? otherInstance : payments).claimSubmission(hash)))
    expect(claims.filter((claim) => claim.claimed)).toHaveLength(1)
    for (const claim of claims) expect(claim.submission).toMatchObject({ state: 'submitting', attempts: 1 })
  })

  test('behavior: of 10 concurrent re-claims of a failed submission, exactly one wins', async () => {
    const hash = await prepared()
    await payments.claimSubmission(hash)
    await payments.markFailed(hash, 'BundlerRejectedError')
    const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? otherInstance : payments).claimSubmission(hash)))
    expect(claims.filter((claim) => claim.claimed)).toHaveLength(1)
    expect(await payments.getSubmission(hash)).toMatchObject({ state: 'submitting', attempts: 2 })
  })
})
