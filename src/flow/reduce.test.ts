import type { UserOperation } from 'viem/account-abstraction'
import { describe, expect, test } from 'vitest'
import { confirmedTestInvoice, testDeployment, testInvoice } from '../verify/preparedPayment.fixture'
import type { UnsafeProblem } from '../verify/unsafeProblem'
import type { Failure } from './failure'
import type { CheckInvoiceReturnType } from './checkInvoice'
import type { PaymentEvent } from './paymentEvent'
import type { PaymentState } from './paymentState'
import { pendingPollMs, reduce } from './reduce'

const at = Date.UTC(2026, 0, 15, 12)
const served = testInvoice(testDeployment())
const invoice = confirmedTestInvoice(served)
const unconfirmed = { ...served, confirmed: false }
const payer = { owner: '0x1111111111111111111111111111111111111111', vault: '0x00000000000000000000000000000000000000Aa', deployed: false, balance: 10n ** 10n } as const
const permit = { deadline: BigInt(at / 1000 + 3600), v: 27, r: `0x${'01'.repeat(32)}`, s: `0x${'02'.repeat(32)}` } as const
const userOp: UserOperation<'0.7'> = {
  sender: payer.vault,
  nonce: 5n,
  callData: '0x',
  callGasLimit: 1n,
  verificationGasLimit: 1n,
  preVerificationGas: 1n,
  maxFeePerGas: 1n,
  maxPriorityFeePerGas: 1n,
  signature: '0x',
}
const window = { validAfter: 0, validUntil: Number(permit.deadline) }
const payment = {
  registry: '0x00000000000000000000000000000000000000Dd',
  invoice: 7n,
  invoiceNumber: 1042n,
  merchant: '0x00000000000000000000000000000000000000Bb',
  token: '0x00000000000000000000000000000000000000Cc',
  amount: 1n,
  feeBps: 100,
  fromWallet: 0n,
  vault: payer.vault,
  validUntil: permit.deadline,
  operation: `0x${'0e'.repeat(32)}`,
} as const
const operation = { invoice, payer, permit, userOp, userOpHash: `0x${'0e'.repeat(32)}`, window, payment } as const
const pending: PaymentState = { name: 'pending', ...operation, submission: { kind: 'accepted' }, nextCheckAt: at }
const differs: UnsafeProblem = { code: 'INVOICE_DIFFERS_FROM_CHAIN', message: 'amount differs', fields: ['amount'] }

const confirmed = (shown = invoice): CheckInvoiceReturnType => ({ kind: 'confirmed', invoice: shown })
const unreadable: CheckInvoiceReturnType = { kind: 'unreadable', invoice: unconfirmed }
const unsafe: CheckInvoiceReturnType = { kind: 'unsafe', invoice: unconfirmed, problems: [differs] }
const chainRead = (check: CheckInvoiceReturnType, vault: { nonce: bigint; blockTime: number } | null = null): PaymentEvent => ({ type: 'chainRead', check, vault, at })
const api = (status: number, code: string, retryAfter: number | null = null): Failure => ({ kind: 'api', status, code, retryAfter })

describe('reduce', () => {
  test('default: start moves idle to loading', () => {
    expect(reduce({ name: 'idle' }, { type: 'start' })).toEqual({ name: 'loading' })
  })

  test('behavior: a page rendered with the invoice starts by checking it against the chain, shown unconfirmed meanwhile', () => {
    const checking = reduce({ name: 'idle' }, { type: 'start', served: unconfirmed })
    expect(checking).toEqual({ name: 'checking', invoice: unconfirmed })
    expect(reduce(checking, chainRead(confirmed()))).toEqual({ name: 'ready', invoice, note: null, rechecks: 0 })
    expect(reduce(checking, chainRead(unreadable))).toEqual({ name: 'ready', invoice: unconfirmed, note: null, rechecks: 0 })
    expect(reduce(checking, chainRead(unsafe))).toMatchObject({ name: 'unsafe', problems: [differs] })
  })

  test.each<[PaymentState, PaymentEvent]>([
    [{ name: 'ready', invoice, note: null, rechecks: 0 }, { type: 'pay' }],
    [{ name: 'ready', invoice, note: null, rechecks: 0 }, chainRead(unsafe)],
    [{ name: 'connected', invoice, payer, note: null }, { type: 'renewPermit' }],
    [{ name: 'paid', invoice, receipt: null }, { type: 'retry', at }],
    [{ name: 'unsafe', invoice, problems: [], handedOver: null }, { type: 'retry', at }],
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
})

describe('reduce: what the payer sees of the invoice comes from the chain', () => {
  test('behavior: an invoice the chain confirms is shown confirmed', () => {
    expect(reduce({ name: 'loading' }, chainRead(confirmed()))).toEqual({ name: 'ready', invoice, note: null, rechecks: 0 })
  })

  test('behavior: an unreadable chain shows the service figures unconfirmed, and reads again later', () => {
    const shown = reduce({ name: 'loading' }, chainRead(unreadable))
    expect(shown).toEqual({ name: 'ready', invoice: unconfirmed, note: null, rechecks: 0 })
    const again = reduce(shown, chainRead(unreadable))
    expect(again).toMatchObject({ name: 'ready', rechecks: 1, invoice: { confirmed: false } })
    expect(reduce(again, chainRead(confirmed()))).toMatchObject({ name: 'ready', invoice: { confirmed: true } })
  })

  test('behavior: an invoice that differs from the chain is unsafe, naming the field', () => {
    expect(reduce({ name: 'loading' }, chainRead(unsafe))).toEqual({ name: 'unsafe', invoice: unconfirmed, problems: [differs], handedOver: null })
    const ready: PaymentState = { name: 'ready', invoice: unconfirmed, note: null, rechecks: 2 }
    expect(reduce(ready, chainRead(unsafe))).toMatchObject({ name: 'unsafe', problems: [{ fields: ['amount'] }] })
  })

  test('behavior: paid or canceled is shown only when the chain says so, with no receipt for a payment not ours', () => {
    const paid = { ...invoice, status: 'Paid' as const, payer: payer.vault }
    expect(reduce({ name: 'loading' }, chainRead(confirmed(paid)))).toEqual({ name: 'paid', invoice: paid, receipt: null })
    const canceled = { ...invoice, status: 'Canceled' as const }
    expect(reduce({ name: 'loading' }, chainRead(confirmed(canceled)))).toEqual({ name: 'canceled', invoice: canceled })
  })

  test('behavior: a chain that disagrees with the service at connect is unsafe before any permit is asked for', () => {
    const connecting: PaymentState = { name: 'connecting', invoice }
    expect(reduce(connecting, { type: 'payerResolved', payer, check: unsafe })).toMatchObject({ name: 'unsafe', handedOver: null })
    expect(reduce(connecting, { type: 'payerResolved', payer: { ...payer, balance: 1n }, check: confirmed() })).toMatchObject({
      name: 'insufficientBalance',
      missing: 248_000_000n - 1n,
    })
  })
})

describe('reduce: before the operation is handed over', () => {
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
    const refused = reduce(verifying, { type: 'verified', verdict: { ok: false, problems: [differs] } })
    const unsafeState = { name: 'unsafe', invoice, problems: [differs], handedOver: { amount: 248_000_000n, deadline: permit.deadline } }
    expect(refused).toEqual({ name: 'refreshing', invoice, next: unsafeState, lapse: { deadline: permit.deadline, payer } })
    // the chain shows the invoice open and the permit good, or cannot say: the refusal stands
    expect(reduce(refused, chainRead(confirmed(), { nonce: 0n, blockTime: at / 1000 }))).toEqual(unsafeState)
    expect(reduce(refused, chainRead(unreadable))).toEqual(unsafeState)
    expect(reduce(refused, chainRead(unsafe))).toEqual(unsafeState)
  })

  test('behavior: an answer that fails verification is told as the chain shows it: canceled, paid or the permit lapsed on the chain\'s clock, not blamed on the service', () => {
    const verifying: PaymentState = { name: 'verifying', invoice, payer, permit, prepared: {} as Extract<PaymentState, { name: 'verifying' }>['prepared'] }
    const refused = reduce(verifying, { type: 'verified', verdict: { ok: false, problems: [{ code: 'SIMULATION_REVERTED', message: 'reverts' }] } })
    expect(reduce(refused, chainRead(confirmed({ ...invoice, status: 'Canceled' })))).toEqual({ name: 'canceled', invoice: { ...invoice, status: 'Canceled' } })
    expect(reduce(refused, chainRead(confirmed({ ...invoice, status: 'Paid' })))).toMatchObject({ name: 'paid', receipt: null })
    const lapsedOnChain = { nonce: 0n, blockTime: Number(permit.deadline) - 60 }
    expect(reduce(refused, chainRead(confirmed(), lapsedOnChain))).toEqual({ name: 'permitExpired', invoice, payer, reason: 'expired' })
  })

  test('behavior: a sponsorship that runs out before the operation is signed or sent is prepared again with the same permit', () => {
    expect(reduce({ name: 'signingOperation', ...operation }, { type: 'sponsorshipExpiring' })).toEqual({ name: 'preparing', invoice, payer, permit })
    expect(reduce({ name: 'submitting', resend: false, ...operation }, { type: 'sponsorshipExpiring' })).toEqual({ name: 'preparing', invoice, payer, permit })
  })

  test('behavior: a refused permit asks for a new one, once the chain shows the invoice still open', () => {
    const refreshing = reduce({ name: 'preparing', invoice, payer, permit }, { type: 'failed', failure: api(400, 'PERMIT_SIGNATURE_INVALID'), at })
    expect(refreshing).toMatchObject({ name: 'refreshing', next: { name: 'error', code: 'PERMIT_SIGNATURE_INVALID', resume: { name: 'requestingPermit' } } })
    expect(reduce(refreshing, chainRead(confirmed()))).toMatchObject({ name: 'error', code: 'PERMIT_SIGNATURE_INVALID' })
    expect(reduce(refreshing, chainRead(confirmed({ ...invoice, status: 'Paid' })))).toMatchObject({ name: 'paid', receipt: null })
  })

  test('behavior: a service\'s PERMIT_EXPIRED while the chain\'s clock has the signed permit an hour from its deadline asks for a new permit; the service\'s claim is not passed on (PERMIT_REFUSED)', () => {
    const stillGood = { nonce: 0n, blockTime: at / 1000 }
    for (const state of [{ name: 'preparing', invoice, payer, permit }, { name: 'requestingPermit', invoice, payer }] satisfies PaymentState[]) {
      const refreshing = reduce(state, { type: 'failed', failure: api(409, 'PERMIT_EXPIRED'), at })
      expect(refreshing).toMatchObject({ name: 'refreshing', next: { name: 'error', code: 'PERMIT_REFUSED', status: 409, resume: { name: 'requestingPermit' } } })
      expect(reduce(refreshing, chainRead(confirmed(), stillGood))).toMatchObject({ name: 'error', code: 'PERMIT_REFUSED', resume: { name: 'requestingPermit', payer } })
      // no clock read from the chain: not a verdict either
      expect(reduce(refreshing, chainRead(confirmed()))).toMatchObject({ name: 'error', code: 'PERMIT_REFUSED' })
    }
  })

  test('behavior: PERMIT_EXPIRED is "nothing was paid" only when the chain\'s clock has the signed deadline (nearly) passed, whatever the page\'s clock says; unreadable is an error, not a verdict', () => {
    const refreshing = reduce({ name: 'preparing', invoice, payer, permit }, { type: 'failed', failure: api(409, 'PERMIT_EXPIRED'), at })
    expect(refreshing).toMatchObject({ name: 'refreshing', lapse: { deadline: permit.deadline, payer } })
    const lapsedOnChain = { nonce: 0n, blockTime: Number(permit.deadline) - 60 }
    expect(reduce(refreshing, chainRead(confirmed(), lapsedOnChain))).toEqual({ name: 'permitExpired', invoice, payer, reason: 'expired' })
    // the page's clock past the deadline is not the chain's
    const pageLate = reduce({ name: 'preparing', invoice, payer, permit }, { type: 'failed', failure: api(409, 'PERMIT_EXPIRED'), at: Number(permit.deadline) * 1000 + 60_000 })
    expect(reduce(pageLate, chainRead(confirmed(), { nonce: 0n, blockTime: at / 1000 }))).toMatchObject({ name: 'error', code: 'PERMIT_REFUSED' })
    expect(reduce(refreshing, chainRead(unreadable))).toMatchObject({ name: 'error', code: 'CHAIN_UNREADABLE', resume: refreshing })
  })
})

describe('reduce: "not found" only from the chain', () => {
  test('behavior: the service\'s 404 reads the chain first; only an absent record is notFound', () => {
    const loading = reduce({ name: 'loading' }, { type: 'failed', failure: api(404, 'NOT_FOUND'), at })
    expect(loading).toEqual({ name: 'loading', notFoundByService: true })
    expect(reduce(loading, { type: 'notFoundChecked', chain: { kind: 'absent' }, at })).toEqual({ name: 'notFound' })
    expect(reduce(loading, { type: 'notFoundChecked', chain: { kind: 'present', invoice }, at })).toEqual({ name: 'error', code: 'NOT_FOUND', status: 404, retryAt: null, resume: { name: 'ready', invoice, note: null, rechecks: 0 } })
    expect(reduce(loading, { type: 'notFoundChecked', chain: { kind: 'present', invoice: { ...invoice, status: 'Canceled' } }, at })).toMatchObject({ name: 'canceled' })
    expect(reduce(loading, { type: 'notFoundChecked', chain: { kind: 'unreadable' }, at })).toMatchObject({ name: 'error', code: 'CHAIN_UNREADABLE', resume: { name: 'loading' } })
  })
})

describe('reduce: after the operation is handed over, only the chain settles it', () => {
  test('behavior: whatever the service answers to the submission, the chain is read at once', () => {
    const submitting: PaymentState = { name: 'submitting', ...operation, resend: false }
    expect(reduce(submitting, { type: 'submitted', result: { status: 'confirmed', userOpHash: operation.userOpHash, txHash: `0x${'cd'.repeat(32)}` }, at })).toEqual({
      ...pending,
      submission: { kind: 'accepted' },
    })
    expect(reduce(submitting, { type: 'failed', failure: api(400, 'TRANSACTION_FAILED'), at })).toEqual({
      ...pending,
      submission: { kind: 'refused', code: 'TRANSACTION_FAILED' },
    })
    expect(reduce(submitting, { type: 'failed', failure: { kind: 'unknown' }, at })).toEqual({ ...pending, submission: { kind: 'unknown' } })
    expect(reduce(submitting, { type: 'failed', failure: api(502, 'BUNDLER_ERROR'), at })).toEqual({ ...pending, submission: { kind: 'unknown' } })
    // it answered, in a shape that is not the documented one: not "no answer"
    expect(reduce(submitting, { type: 'failed', failure: api(0, 'INVALID_RESPONSE'), at })).toEqual({ ...pending, submission: { kind: 'unknown', unreadable: true } })
  })

  test('behavior: a rate-limited submission waits and sends again; it has not left the page', () => {
    const submitting: PaymentState = { name: 'submitting', ...operation, resend: false }
    expect(reduce(submitting, { type: 'failed', failure: api(429, 'RATE_LIMITED', 30), at })).toMatchObject({ name: 'error', retryAt: at + 30_000, resume: submitting })
  })

  test('behavior: the receipt is ours only when the chain names our vault as payer, whatever the casing', () => {
    const paidByUs = { ...invoice, status: 'Paid' as const, payer: payer.vault.toLowerCase() as `0x${string}`, txHash: `0x${'cd'.repeat(32)}` as const }
    expect(reduce(pending, chainRead(confirmed(paidByUs)))).toEqual({
      name: 'paid',
      invoice: paidByUs,
      receipt: { amount: 248_000_000n, invoiceNumber: '1042', userOpHash: operation.userOpHash, txHash: paidByUs.txHash, wallet: operation.payer.owner },
    })
    const paidByOther = { ...paidByUs, payer: '0x2222222222222222222222222222222222222222' as const }
    expect(reduce(pending, chainRead(confirmed(paidByOther)))).toEqual({ name: 'paid', invoice: paidByOther, receipt: null })
  })

  test('behavior: nothing was paid only once the operation can no longer run: its nonce spent or its window closed', () => {
    const stillValid = { nonce: userOp.nonce, blockTime: window.validUntil }
    expect(reduce(pending, chainRead(confirmed(), stillValid))).toEqual({ ...pending, nextCheckAt: at + pendingPollMs })
    expect(reduce(pending, chainRead(confirmed(), { ...stillValid, nonce: userOp.nonce + 1n }))).toEqual({ name: 'permitExpired', invoice, payer, reason: 'failed' })
    const unanswered: PaymentState = { ...pending, submission: { kind: 'unknown' } }
    expect(reduce(unanswered, chainRead(confirmed(), { ...stillValid, blockTime: window.validUntil + 1 }))).toEqual({
      name: 'permitExpired',
      invoice,
      payer,
      reason: 'expired',
    })
  })

  test('behavior: a service that said it sent the operation (200 or 202) while the chain never showed it: followed until its window closes, then "not sent"', () => {
    const stillValid = { nonce: userOp.nonce, blockTime: window.validUntil }
    expect(reduce(pending, chainRead(confirmed(), stillValid))).toEqual({ ...pending, nextCheckAt: at + pendingPollMs })
    expect(reduce(pending, chainRead(confirmed(), { ...stillValid, blockTime: window.validUntil + 1 }))).toEqual({ name: 'permitExpired', invoice, payer, reason: 'notSent' })
    // another try is a new permit and operation: the old one can no longer run
    expect(reduce({ name: 'permitExpired', invoice, payer, reason: 'notSent' }, { type: 'renewPermit' })).toEqual({ name: 'requestingPermit', invoice, payer })
  })

  test('behavior: an unreadable chain keeps the operation pending, never declared lost', () => {
    expect(reduce(pending, chainRead(unreadable))).toEqual({ ...pending, nextCheckAt: at + pendingPollMs })
  })

  test('behavior: a chain that contradicts the service while pending is unsafe, and says what was handed over', () => {
    expect(reduce(pending, chainRead(unsafe))).toEqual({
      name: 'unsafe',
      invoice,
      problems: [differs],
      handedOver: { amount: 248_000_000n, deadline: permit.deadline },
    })
  })

  test('behavior: a pending operation is resent as it is, never rebuilt; a refused one needs a new permit', () => {
    expect(reduce(pending, { type: 'retry', at })).toEqual({ name: 'submitting', ...operation, resend: true })
    const refused: PaymentState = { ...pending, submission: { kind: 'refused', code: 'TRANSACTION_FAILED' } }
    expect(reduce(refused, { type: 'retry', at })).toBe(refused)
    expect(reduce(refused, { type: 'renewPermit' })).toEqual({ name: 'requestingPermit', invoice, payer })
  })
})

describe('reduce: the payer changes account or network in the wallet', () => {
  const other = '0x3333333333333333333333333333333333333333'
  const changed = (owner: `0x${string}`, chainId = 31337): PaymentEvent => ({ type: 'walletChanged', connection: { owner, chainId }, wantedChainId: 31337 })

  test.each<PaymentState>([
    { name: 'connected', invoice, payer, note: null },
    { name: 'signingPermit', invoice, payer, authorisation: {} as never, typedData: {} as never },
    { name: 'preparing', invoice, payer, permit },
    { name: 'signingOperation', ...operation },
  ])('behavior: another account in $name starts again for that account, reusing nothing signed', (state) => {
    expect(reduce(state, changed(other))).toEqual({ name: 'connecting', invoice })
  })

  test('behavior: the same account on another chain is the wrong network, and back on the pinned chain it connects again', () => {
    const wrong = reduce({ name: 'connected', invoice, payer, note: null }, changed(payer.owner, 1))
    expect(wrong).toEqual({ name: 'wrongNetwork', invoice, chainId: 1, wantedChainId: 31337, note: null })
    expect(reduce(wrong, changed(payer.owner, 5))).toBe(wrong)
    expect(reduce(wrong, changed(payer.owner))).toEqual({ name: 'connecting', invoice })
  })

  test('behavior: a wallet that disconnects sends the payer back to choosing one', () => {
    expect(reduce({ name: 'connected', invoice, payer, note: null }, { type: 'walletChanged', connection: null, wantedChainId: 31337 })).toEqual({
      name: 'ready',
      invoice,
      note: null,
      rechecks: 0,
    })
  })

  test('behavior: once the signed operation is out, the wallet changing changes nothing: the chain is followed', () => {
    expect(reduce(pending, changed(other, 1))).toBe(pending)
    const state: PaymentState = { name: 'connected', invoice, payer, note: null }
    expect(reduce(state, changed(payer.owner))).toBe(state)
  })
})
