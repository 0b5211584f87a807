import type { UserOperation } from 'viem/account-abstraction'
import { describe, expect, test } from 'vitest'
import { testDeployment, testInvoice } from '../verify/preparedPayment.fixture'
import type { Failure } from './failure'
import type { PaymentEvent } from './paymentEvent'
import type { PaymentState } from './paymentState'
import { pendingPollMs, reduce } from './reduce'

const at = Date.UTC(2026, 0, 15, 12)
const invoice = testInvoice(testDeployment())
const payer = { owner: '0x1111111111111111111111111111111111111111', vault: '0x00000000000000000000000000000000000000Aa', deployed: false, balance: 10n ** 10n } as const
const permit = { deadline: BigInt(at / 1000 + 3600), v: 27, r: `0x${'01'.repeat(32)}`, s: `0x${'02'.repeat(32)}` } as const
const userOp: UserOperation<'0.7'> = {
  sender: payer.vault,
  nonce: 0n,
  callData: '0x',
  callGasLimit: 1n,
  verificationGasLimit: 1n,
  preVerificationGas: 1n,
  maxFeePerGas: 1n,
  maxPriorityFeePerGas: 1n,
  signature: '0x',
}
const operation = { invoice, payer, permit, userOp, userOpHash: `0x${'0e'.repeat(32)}` } as const
const pending: PaymentState = { name: 'pending', ...operation, nextCheckAt: at }
const refused: Failure = { kind: 'api', status: 400, code: 'TRANSACTION_FAILED', retryAfter: null }

describe('reduce', () => {
  test('default: start moves idle to loading', () => {
    expect(reduce({ name: 'idle' }, { type: 'start' })).toEqual({ name: 'loading' })
  })

  test.each<[PaymentState, PaymentEvent]>([
    [{ name: 'ready', invoice, note: null }, { type: 'pay' }],
    [{ name: 'connected', invoice, payer, note: null }, { type: 'renewPermit' }],
    [{ name: 'paid', invoice, receipt: null }, { type: 'retry', at }],
    [{ name: 'unsafe', invoice, problems: [] }, { type: 'retry', at }],
    [{ name: 'signingOperation', ...operation }, { type: 'pay' }],
    [{ name: 'loading' }, { type: 'connect' }],
  ])('behavior: %s ignores an event it does not expect', (state, event) => {
    expect(reduce(state, event)).toBe(state)
  })

  test('behavior: retry waits for retryAt, then resumes the step that failed', () => {
    const resume: PaymentState = { name: 'preparing', invoice, payer, permit }
    const error: PaymentState = { name: 'error', code: 'RATE_LIMITED', status: 429, retryAt: at + 5_000, resume }
    expect(reduce(error, { type: 'retry', at: at + 4_999 })).toBe(error)
    expect(reduce(error, { type: 'retry', at: at + 5_000 })).toBe(resume)
  })

  test('behavior: a refusal at submit that leaves the invoice Issued starts again from a new permit', () => {
    const reconciling = reduce({ name: 'submitting', ...operation }, { type: 'failed', failure: refused, at })
    expect(reconciling).toEqual({ name: 'reconciling', ...operation, failure: refused })
    expect(reduce(reconciling, { type: 'invoiceRead', invoice, at })).toEqual({
      name: 'error',
      code: 'TRANSACTION_FAILED',
      status: 400,
      retryAt: null,
      resume: { name: 'requestingPermit', invoice, payer },
    })
  })

  test('behavior: an unanswered submission is waited for, not refused', () => {
    const lost: Failure = { kind: 'unknown' }
    const reconciling = reduce({ name: 'submitting', ...operation }, { type: 'failed', failure: lost, at })
    expect(reduce(reconciling, { type: 'invoiceRead', invoice, at })).toEqual({ name: 'pending', ...operation, nextCheckAt: at + pendingPollMs })
  })

  test('behavior: a pending read refused with Retry-After waits that long before the next', () => {
    const limited: Failure = { kind: 'api', status: 429, code: 'RATE_LIMITED', retryAfter: 60 }
    expect(reduce(pending, { type: 'failed', failure: limited, at })).toMatchObject({ name: 'pending', nextCheckAt: at + 60_000 })
    expect(reduce(pending, { type: 'failed', failure: { kind: 'unknown' }, at })).toMatchObject({ nextCheckAt: at + pendingPollMs })
  })

  test('behavior: the receipt is ours only when the paid invoice names our vault, whatever the casing', () => {
    const paidByUs = { ...invoice, status: 'Paid' as const, payer: payer.vault.toLowerCase() as `0x${string}`, txHash: null }
    expect(reduce(pending, { type: 'invoiceRead', invoice: paidByUs, at })).toEqual({
      name: 'paid',
      invoice: paidByUs,
      receipt: { amount: 248_000_000n, invoiceNumber: '1042', userOpHash: operation.userOpHash, txHash: null },
    })
    const paidByOther = { ...paidByUs, payer: '0x2222222222222222222222222222222222222222' as const }
    expect(reduce(pending, { type: 'invoiceRead', invoice: paidByOther, at })).toEqual({ name: 'paid', invoice: paidByOther, receipt: null })
  })

  test('behavior: a verifier that throws never leads to signing', () => {
    const verifying: PaymentState = {
      name: 'verifying',
      invoice,
      payer,
      permit,
      prepared: {} as Extract<PaymentState, { name: 'verifying' }>['prepared'],
    }
    expect(reduce(verifying, { type: 'failed', failure: { kind: 'unknown' }, at })).toMatchObject({
      name: 'error',
      code: 'VERIFICATION_FAILED',
      resume: { name: 'requestingPermit' },
    })
  })

  test('behavior: a pending operation is resent as it is, never rebuilt', () => {
    expect(reduce(pending, { type: 'retry', at })).toEqual({ name: 'submitting', ...operation })
  })
})
