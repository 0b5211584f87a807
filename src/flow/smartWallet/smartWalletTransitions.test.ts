import { describe, expect, test } from 'vitest'
import { confirmedTestInvoice, testDeployment, testInvoice } from '../../verify/preparedPayment.fixture'
import type { CheckInvoiceReturnType } from '../checkInvoice'
import type { PaymentState } from '../paymentState'
import { reduce } from '../reduce'
import { callsPollMs, finalWordGraceMs, followCallsMs } from './smartWalletTransitions'

const at = Date.UTC(2026, 0, 15, 12)
const deployment = testDeployment()
const invoice = confirmedTestInvoice(testInvoice(deployment))
const account = '0x5555555555555555555555555555555555555555'
const payer = { owner: account, balance: BigInt(invoice.amount) } as const
const ready: PaymentState = { name: 'smartWallet', invoice, payer, note: null }
const following: PaymentState = { name: 'followingCalls', invoice, payer, callsId: '0xabc', sentAt: at, nextCheckAt: at, wallet: 'pending', finalSince: null }
const confirmed = (status: 'Issued' | 'Paid' | 'Canceled' = 'Issued', paidBy: string | null = null): CheckInvoiceReturnType => ({
  kind: 'confirmed',
  invoice: { ...invoice, status, payer: paidBy as never, txHash: paidBy ? `0x${'7a'.repeat(32)}` : null },
})
const unreadable: CheckInvoiceReturnType = { kind: 'unreadable', invoice: { ...invoice, confirmed: false } }

describe('reduce: paying from a smart wallet in one prompt', () => {
  test('behavior: a connected smart wallet holding the amount is offered the one-prompt payment, on the chain\'s figures only', () => {
    const connecting: PaymentState = { name: 'connecting', invoice }
    expect(reduce(connecting, { type: 'smartPayerResolved', payer, check: confirmed() })).toEqual(ready)
    expect(reduce(connecting, { type: 'smartPayerResolved', payer, check: unreadable })).toEqual({ name: 'ready', invoice, note: null, rechecks: 0 })
    expect(reduce(connecting, { type: 'smartPayerResolved', payer, check: confirmed('Canceled') })).toEqual({ name: 'canceled', invoice: confirmed('Canceled').invoice })
  })

  test('behavior: pay sends the calls; the wallet taking them starts following the chain at once', () => {
    const sending = reduce(ready, { type: 'pay' })
    expect(sending).toEqual({ name: 'sendingCalls', invoice, payer })
    expect(reduce(sending, { type: 'callsSent', callsId: '0xabc', at })).toEqual(following)
  })

  test('behavior: a declined batch returns to the payment with a note; any other wallet failure reads the chain before saying so', () => {
    const sending: PaymentState = { name: 'sendingCalls', invoice, payer }
    expect(reduce(sending, { type: 'failed', failure: { kind: 'rejected' }, at })).toEqual({ ...ready, note: 'callsRejected' })
    expect(reduce(sending, { type: 'failed', failure: { kind: 'unknown' }, at })).toEqual({
      name: 'refreshing',
      invoice,
      next: { name: 'error', code: 'WALLET_ERROR', status: null, retryAt: null, resume: ready },
    })
  })

  test('behavior: Paid only when the chain says so, with a receipt when the chain names this account the payer', () => {
    const paid = confirmed('Paid', account)
    expect(reduce(following, { type: 'callsRead', wallet: 'pending', check: paid, at })).toEqual({
      name: 'paid',
      invoice: paid.invoice,
      receipt: { amount: BigInt(invoice.amount), invoiceNumber: invoice.invoiceNumber, userOpHash: null, txHash: `0x${'7a'.repeat(32)}` },
    })
    const paidByOther = confirmed('Paid', '0x6666666666666666666666666666666666666666')
    expect(reduce(following, { type: 'callsRead', wallet: 'pending', check: paidByOther, at })).toMatchObject({ name: 'paid', receipt: null })
  })

  test('behavior: a wallet reporting success while the chain shows the invoice open is never Paid: after the grace, nothing was paid', () => {
    const first = reduce(following, { type: 'callsRead', wallet: 'confirmed', check: confirmed(), at: at + 1_000 })
    expect(first).toEqual({ ...following, wallet: 'confirmed', finalSince: at + 1_000, nextCheckAt: at + 1_000 + callsPollMs })
    const still = reduce(first, { type: 'callsRead', wallet: 'confirmed', check: confirmed(), at: at + finalWordGraceMs })
    expect(still).toMatchObject({ name: 'followingCalls', finalSince: at + 1_000 })
    expect(reduce(still, { type: 'callsRead', wallet: 'confirmed', check: confirmed(), at: at + 1_000 + finalWordGraceMs })).toEqual({ ...ready, note: 'callsNotOnChain' })
  })

  test('behavior: a batch the wallet reports failed is said failed only once the chain, read after the grace, shows the invoice open', () => {
    const first = reduce(following, { type: 'callsRead', wallet: 'failed', check: confirmed(), at })
    expect(first).toMatchObject({ name: 'followingCalls', finalSince: at })
    // the chain unreadable: no verdict, whatever the wallet says
    expect(reduce(first, { type: 'callsRead', wallet: 'failed', check: unreadable, at: at + finalWordGraceMs })).toMatchObject({ name: 'followingCalls' })
    expect(reduce(first, { type: 'callsRead', wallet: 'failed', check: confirmed(), at: at + finalWordGraceMs })).toEqual({ ...ready, note: 'callsFailed' })
  })

  test('behavior: a wallet that never says is read from the chain until the timeout, then the payer is told the invoice is still open', () => {
    expect(reduce(following, { type: 'callsRead', wallet: 'unknown', check: confirmed(), at: at + followCallsMs - 1 })).toMatchObject({ name: 'followingCalls' })
    expect(reduce(following, { type: 'callsRead', wallet: 'pending', check: confirmed(), at: at + followCallsMs })).toEqual({ ...ready, note: 'callsUnknown' })
  })

  test('behavior: another account or chain before the batch is out starts again as in the vault flow; once out, the batch is followed', () => {
    const changed = (owner: string, chainId: number) => ({ type: 'walletChanged' as const, connection: { owner: owner as `0x${string}`, chainId }, wantedChainId: deployment.chainId })
    expect(reduce(ready, changed('0x6666666666666666666666666666666666666666', deployment.chainId))).toEqual({ name: 'connecting', invoice })
    expect(reduce({ name: 'sendingCalls', invoice, payer }, changed(account, 1))).toEqual({ name: 'wrongNetwork', invoice, chainId: 1, wantedChainId: deployment.chainId, note: null })
    expect(reduce(ready, { type: 'walletChanged', connection: null, wantedChainId: deployment.chainId })).toEqual({ name: 'ready', invoice, note: null, rechecks: 0 })
    expect(reduce(ready, changed(account.toUpperCase().replace('0X', '0x'), deployment.chainId))).toBe(ready)
    expect(reduce(following, changed('0x6666666666666666666666666666666666666666', 1))).toBe(following)
  })
})

describe('reduce: a smart account short of funds, or with funds stranded in a vault', () => {
  const stranded = { vault: '0x6666666666666666666666666666666666666666', deployed: true, balance: 200_000_000n } as const
  const short = { owner: account, balance: 48_000_000n, stranded, movesBack: true } as const
  const shortReady: PaymentState = { name: 'smartWallet', invoice, payer: short, note: null }
  const moving: PaymentState = { name: 'movingBack', invoice, payer: short, stranded }
  const followingBack: PaymentState = { name: 'followingMoveBack', invoice, payer: short, stranded, sentAt: at, nextCheckAt: at }

  test('behavior: an account short of the amount, or one that cannot pay here, is never sent a batch; "check again" reads the chain again', () => {
    expect(reduce(shortReady, { type: 'pay' })).toBe(shortReady)
    const cannotPay: PaymentState = { name: 'smartWallet', invoice, payer: { ...payer, cannotPay: true }, note: null }
    expect(reduce(cannotPay, { type: 'pay' })).toBe(cannotPay)
    expect(reduce(shortReady, { type: 'retry', at })).toEqual({ name: 'connecting', invoice })
  })

  test('behavior: taking the vault\'s funds back is offered only where the wallet can send the batch; once sent, the vault is followed on the chain', () => {
    expect(reduce(shortReady, { type: 'moveBack' })).toEqual(moving)
    const relayed: PaymentState = { name: 'smartWallet', invoice, payer: { owner: account, balance: 0n, stranded }, note: null }
    expect(reduce(relayed, { type: 'moveBack' })).toBe(relayed)
    expect(reduce(ready, { type: 'moveBack' })).toBe(ready)
    expect(reduce(moving, { type: 'callsSent', callsId: '', at })).toEqual(followingBack)
  })

  test('behavior: declined is a note, nothing moved; any other wallet failure reads the account and the vault again before anything else', () => {
    expect(reduce(moving, { type: 'failed', failure: { kind: 'rejected' }, at })).toEqual({ ...shortReady, note: 'transferRejected' })
    expect(reduce(moving, { type: 'failed', failure: { kind: 'unknown' }, at })).toEqual({ name: 'error', code: 'WALLET_ERROR', status: null, retryAt: null, resume: { name: 'connecting', invoice } })
  })

  test('behavior: moved only once the chain shows the vault holding less; no answer is no verdict; after the wait, the payer is told the chain does not show it', () => {
    expect(reduce(followingBack, { type: 'vaultRead', balance: stranded.balance, at: at + 1_000 })).toEqual({ ...followingBack, nextCheckAt: at + 1_000 + callsPollMs })
    expect(reduce(followingBack, { type: 'vaultRead', balance: null, at: at + 1_000 })).toEqual({ ...followingBack, nextCheckAt: at + 1_000 + callsPollMs })
    expect(reduce(followingBack, { type: 'vaultRead', balance: 0n, at: at + 1_000 })).toEqual({ name: 'connecting', invoice })
    expect(reduce(followingBack, { type: 'vaultRead', balance: stranded.balance, at: at + followCallsMs })).toEqual({ ...shortReady, note: 'moveNotOnChain' })
  })

  test('behavior: another account before or while the funds move back starts again for that account', () => {
    const other = { type: 'walletChanged' as const, connection: { owner: '0x7777777777777777777777777777777777777777' as const, chainId: deployment.chainId }, wantedChainId: deployment.chainId }
    expect(reduce(moving, other)).toEqual({ name: 'connecting', invoice })
    expect(reduce(followingBack, other)).toEqual({ name: 'connecting', invoice })
  })
})
