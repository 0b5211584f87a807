import type { Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import type { PaymentState } from '../flow/paymentState'
import { confirmedTestInvoice, testDeployment, testInvoice } from '../verify/preparedPayment.fixture'
import { embedEvents } from './embedEvents'

const txHash: Hex = `0x${'cd'.repeat(32)}`
const userOpHash: Hex = `0x${'0e'.repeat(32)}`
const issued = confirmedTestInvoice(testInvoice(testDeployment()))

/** What the host hears for these states, in order, after `ready`. */
function heard(...states: PaymentState[]) {
  const events: [string, unknown][] = []
  const notify = embedEvents({ emit: (type, detail) => events.push([type, detail]) }, '3')
  for (const state of states) notify(state)
  return events.filter(([type]) => type !== 'ready')
}

describe('embedEvents', () => {
  test('default: paid by this widget carries its operation and the transaction', () => {
    const receipt = { amount: 248_000_000n, invoiceNumber: '1042', userOpHash, txHash }
    expect(heard({ name: 'paid', invoice: issued, receipt })).toEqual([['paid', { invoiceId: '3', userOpHash, txHash }]])
  })

  test('behavior: paid elsewhere is still paid, with the invoice\'s transaction and no operation hash', () => {
    const paid = { ...issued, status: 'Paid' as const, txHash }
    expect(heard({ name: 'paid', invoice: paid, receipt: null })).toEqual([['paid', { invoiceId: '3', userOpHash: '', txHash }]])
  })

  test('behavior: paid by a smart wallet\'s batch carries the chain\'s transaction and no operation hash (the wallet built it)', () => {
    const receipt = { amount: 248_000_000n, invoiceNumber: '1042', userOpHash: null, txHash }
    expect(heard({ name: 'paid', invoice: { ...issued, status: 'Paid', txHash }, receipt })).toEqual([['paid', { invoiceId: '3', userOpHash: '', txHash }]])
  })

  test("behavior: a smart wallet's batch out is pending, once however often the chain is read, with no operation hash (the wallet built it)", () => {
    const payer = { owner: `0x${'a1'.repeat(20)}` as Hex, balance: 248_000_000n }
    const following = (at: number): PaymentState => ({ name: 'followingCalls', invoice: issued, payer, callsId: '0x01', sentAt: 0, nextCheckAt: at, wallet: 'pending', finalSince: null })
    expect(heard(following(0), following(2_000))).toEqual([['pending', { invoiceId: '3', userOpHash: '' }]])
  })

  test('behavior: paid before the transaction is known is announced all the same', () => {
    const paid = { ...issued, status: 'Paid' as const, txHash: null }
    expect(heard({ name: 'paid', invoice: paid, receipt: null })).toEqual([['paid', { invoiceId: '3', userOpHash: '', txHash: '' }]])
  })

  test('behavior: the host\'s error carries only codes the page knows; a code a service made up is UNKNOWN_ERROR', () => {
    const resume: PaymentState = { name: 'loading' }
    expect(heard({ name: 'error', code: 'X'.repeat(20_000), status: 400, retryAt: null, resume })).toEqual([['error', { invoiceId: '3', code: 'UNKNOWN_ERROR' }]])
    expect(heard({ name: 'error', code: 'PERMIT_EXPIRED', status: 409, retryAt: null, resume })).toEqual([['error', { invoiceId: '3', code: 'PERMIT_EXPIRED' }]])
    // the flow's own word for a service's PERMIT_EXPIRED the chain's clock does not bear out
    expect(heard({ name: 'error', code: 'PERMIT_REFUSED', status: 409, retryAt: null, resume })).toEqual([['error', { invoiceId: '3', code: 'PERMIT_REFUSED' }]])
  })

  test('behavior: an operation the service said it sent that never reached the chain is expired to the host, as a lapsed permit is; one that ran without paying is PAYMENT_FAILED', () => {
    const payer = { owner: `0x${'a1'.repeat(20)}` as Hex, vault: `0x${'b2'.repeat(20)}` as Hex, deployed: true, balance: 0n }
    expect(heard({ name: 'permitExpired', invoice: issued, payer, reason: 'notSent' })).toEqual([['expired', { invoiceId: '3' }]])
    expect(heard({ name: 'permitExpired', invoice: issued, payer, reason: 'expired' })).toEqual([['expired', { invoiceId: '3' }]])
    expect(heard({ name: 'permitExpired', invoice: issued, payer, reason: 'failed' })).toEqual([['error', { invoiceId: '3', code: 'PAYMENT_FAILED' }]])
  })

  test('behavior: NOT_FOUND reaches the host only when the chain has no such invoice; a service that cannot find one the chain holds is UNAVAILABLE', () => {
    expect(heard({ name: 'notFound' })).toEqual([['error', { invoiceId: '3', code: 'NOT_FOUND' }]])
    const open: PaymentState = { name: 'ready', invoice: issued, note: null, rechecks: 0 }
    expect(heard({ name: 'error', code: 'NOT_FOUND', status: 404, retryAt: null, resume: open })).toEqual([['error', { invoiceId: '3', code: 'UNAVAILABLE' }]])
  })
})
