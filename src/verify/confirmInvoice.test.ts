import { describe, expect, test } from 'vitest'
import { confirmInvoice, unconfirmedInvoice } from './confirmInvoice'
import { testDeployment, testInvoice, testOnchainInvoice } from './preparedPayment.fixture'

const deployment = testDeployment()
const served = testInvoice(deployment)
const record = testOnchainInvoice(served)
const txHash = `0x${'cd'.repeat(32)}` as const
const payer = '0x4444444444444444444444444444444444444444' as const

describe('confirmInvoice', () => {
  test('default: an invoice that matches the registry is shown with the chain\'s figures and the pinned token', () => {
    const verdict = confirmInvoice('3', { ...served, token: { ...served.token, symbol: 'USDT', decimals: 9 } }, { record, txHash: null }, deployment)
    expect(verdict).toEqual({
      ok: true,
      invoice: { ...served, token: { address: deployment.token, symbol: 'USDC', decimals: 6 }, confirmed: true },
    })
  })

  test('behavior: status, payer, paid time and settlement come from the chain, whatever the service says', () => {
    const paid = { ...record, status: 2, payer, paidAt: 1768478400n }
    const lying = { ...served, status: 'Canceled' as const, txHash: `0x${'99'.repeat(32)}` as const, payer: null }
    expect(confirmInvoice('3', lying, { record: paid, txHash }, deployment)).toMatchObject({
      ok: true,
      invoice: { status: 'Paid', payer, paidAt: '1768478400', txHash },
    })
    const claimsPaid = { ...served, status: 'Paid' as const, payer, paidAt: '1768478400', txHash }
    expect(confirmInvoice('3', claimsPaid, { record, txHash: null }, deployment)).toMatchObject({
      ok: true,
      invoice: { status: 'Issued', payer: null, paidAt: null, txHash: null },
    })
  })

  test('behavior: every field that differs from the registry is named', () => {
    const lying = { ...served, amount: '1', merchant: payer, metaHash: `0x${'ef'.repeat(32)}` as const, dueAt: '1' }
    expect(confirmInvoice('3', lying, { record, txHash: null }, deployment)).toEqual({
      ok: false,
      problems: [{ code: 'INVOICE_DIFFERS_FROM_CHAIN', message: expect.any(String), fields: ['merchant', 'amount', 'metaHash', 'dueAt'] }],
    })
  })

  test('behavior: an id with leading zeros is the same invoice; another id is not', () => {
    expect(confirmInvoice('003', served, { record, txHash: null }, deployment)).toMatchObject({ ok: true, invoice: { id: '3' } })
    expect(confirmInvoice('4', served, { record, txHash: null }, deployment)).toMatchObject({ ok: false, problems: [{ fields: ['id'] }] })
  })

  test('behavior: a registry record in another token is refused even when the service agrees with it', () => {
    const otherToken = '0x5555555555555555555555555555555555555555' as const
    const verdict = confirmInvoice('3', { ...served, token: { ...served.token, address: otherToken } }, { record: { ...record, token: otherToken }, txHash: null }, deployment)
    expect(verdict).toMatchObject({ ok: false, problems: [{ code: 'TOKEN_NOT_ACCEPTED' }] })
  })

  test('behavior: no record, or a record with no status, is INVOICE_NOT_ON_CHAIN', () => {
    expect(confirmInvoice('3', served, { record: null, txHash: null }, deployment)).toMatchObject({ ok: false, problems: [{ code: 'INVOICE_NOT_ON_CHAIN' }] })
    expect(confirmInvoice('3', served, { record: { ...record, status: 0 }, txHash: null }, deployment)).toMatchObject({
      ok: false,
      problems: [{ code: 'INVOICE_NOT_ON_CHAIN' }],
    })
  })

  test('behavior: before the chain is read, the service figures are unconfirmed, in the pinned token, with no settlement', () => {
    const claimsPaid = { ...served, status: 'Paid' as const, txHash, token: { ...served.token, decimals: 9 } }
    expect(unconfirmedInvoice(claimsPaid, deployment)).toMatchObject({ confirmed: false, txHash: null, token: { decimals: 6, symbol: 'USDC' } })
  })
})
