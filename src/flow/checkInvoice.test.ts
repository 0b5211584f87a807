import { describe, expect, test } from 'vitest'
import { unconfirmedInvoice } from '../verify/confirmInvoice'
import { testDeployment, testInvoice, testOnchainInvoice } from '../verify/preparedPayment.fixture'
import { checkInvoice } from './checkInvoice'

const deployment = testDeployment()
const served = testInvoice(deployment)
const record = testOnchainInvoice(served)
const txHash = `0x${'cd'.repeat(32)}` as const
const payer = '0x4444444444444444444444444444444444444444' as const

describe('checkInvoice', () => {
  test('default: no chain answer leaves the service figures unconfirmed', () => {
    expect(checkInvoice('3', served, [], deployment)).toEqual({ kind: 'unreadable', invoice: unconfirmedInvoice(served, deployment) })
  })

  test('behavior: every source must agree with the service; one that does not makes it unsafe', () => {
    const reads = [
      { record, txHash: null },
      { record: { ...record, amount: 1n }, txHash: null },
    ]
    expect(checkInvoice('3', served, reads, deployment)).toMatchObject({ kind: 'unsafe', problems: [{ fields: ['amount'] }], invoice: { amount: served.amount, disproved: true } })
  })

  test('behavior: figures the chain disproved are replaced by the chain\'s (amount, payee, due date), marked disproved; none at all on chain leaves them unconfirmed', () => {
    const lie = { ...served, amount: '10000000', merchant: payer, dueAt: '1900000000' }
    const check = checkInvoice('3', lie, [{ record, txHash: null }], deployment)
    expect(check).toMatchObject({ kind: 'unsafe', problems: [{ code: 'INVOICE_DIFFERS_FROM_CHAIN', fields: ['merchant', 'amount', 'dueAt'] }] })
    expect(check.invoice).toMatchObject({ amount: record.amount.toString(), merchant: record.merchant, dueAt: record.dueAt.toString(), confirmed: true, disproved: true })
    expect(checkInvoice('3', lie, [{ record: null, txHash: null }], deployment).invoice).toMatchObject({ amount: '10000000', confirmed: false, disproved: true })
  })

  test('behavior: where one node is behind, the settled status wins: it can only stop a payment', () => {
    const paid = { record: { ...record, status: 2, payer, paidAt: 1n }, txHash }
    expect(checkInvoice('3', served, [{ record, txHash: null }, paid], deployment)).toMatchObject({ kind: 'confirmed', invoice: { status: 'Paid', txHash } })
    expect(checkInvoice('3', served, [paid, { record, txHash: null }], deployment)).toMatchObject({ kind: 'confirmed', invoice: { status: 'Paid' } })
  })

  test('behavior: a service invoice in a token this build does not accept is unsafe without reading further', () => {
    const foreign = { ...served, token: { ...served.token, address: payer } }
    expect(checkInvoice('3', foreign, [], deployment)).toMatchObject({ kind: 'unsafe', problems: [{ code: 'TOKEN_NOT_ACCEPTED' }] })
  })
})
