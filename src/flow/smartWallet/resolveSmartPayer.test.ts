import { describe, expect, test, vi } from 'vitest'
import { confirmedTestInvoice, testDeployment, testInvoice } from '../../verify/preparedPayment.fixture'
import type { WalletCapabilities } from '../../wallet/readWalletCapabilities'
import type { CheckInvoiceReturnType } from '../checkInvoice'
import type { PaymentFlowDependencies } from '../paymentFlowDependencies'
import { capabilitiesTimeoutMs, resolveSmartPayer } from './resolveSmartPayer'

const deployment = testDeployment()
const invoice = confirmedTestInvoice(testInvoice(deployment))
const amount = BigInt(invoice.amount)
const owner = '0x5555555555555555555555555555555555555555'
const confirmed: CheckInvoiceReturnType = { kind: 'confirmed', invoice }
const oneprompt: WalletCapabilities = { atomic: 'supported', paymasterService: true }

/** Only what resolveSmartPayer touches: the wallet's capabilities and the account's token balance. */
function dependencies(capabilities: () => Promise<WalletCapabilities>, balance = amount, sendCalls = true) {
  const balanceOf = vi.fn(async () => balance)
  const wallet = { capabilities, ...(sendCalls ? { sendCalls: async () => '0x1' } : {}) }
  return { deps: { wallet, chain: { balanceOf } } as unknown as PaymentFlowDependencies, balanceOf }
}

describe('resolveSmartPayer', () => {
  test('behavior: a wallet paying in one prompt whose account holds the amount pays from that account', async () => {
    const { deps, balanceOf } = dependencies(async () => oneprompt)
    expect(await resolveSmartPayer(owner, confirmed, deps)).toEqual({ type: 'smartPayerResolved', payer: { owner, balance: amount }, check: confirmed })
    expect(balanceOf).toHaveBeenCalledWith(owner)
  })

  test('behavior: the vault flow for an account short of the amount, a wallet without a paymaster service, one that throws, and an invoice not confirmed Issued', async () => {
    expect(await resolveSmartPayer(owner, confirmed, dependencies(async () => oneprompt, amount - 1n).deps)).toBeNull()
    expect(await resolveSmartPayer(owner, confirmed, dependencies(async () => ({ atomic: 'supported', paymasterService: false })).deps)).toBeNull()
    expect(await resolveSmartPayer(owner, confirmed, dependencies(async () => ({ atomic: null, paymasterService: true })).deps)).toBeNull()
    expect(await resolveSmartPayer(owner, confirmed, dependencies(() => Promise.reject(new Error('no'))).deps)).toBeNull()
    expect(await resolveSmartPayer(owner, confirmed, dependencies(async () => oneprompt, amount, false).deps)).toBeNull()
    expect(await resolveSmartPayer(owner, { kind: 'unreadable', invoice: { ...invoice, confirmed: false } }, dependencies(async () => oneprompt).deps)).toBeNull()
    expect(await resolveSmartPayer(owner, { kind: 'confirmed', invoice: { ...invoice, status: 'Paid' } }, dependencies(async () => oneprompt).deps)).toBeNull()
  })

  test('behavior: a wallet that never answers the question is taken to have no capabilities once the timeout passes', async () => {
    vi.useFakeTimers()
    try {
      const answer = resolveSmartPayer(owner, confirmed, dependencies(() => new Promise<WalletCapabilities>(() => {})).deps)
      await vi.advanceTimersByTimeAsync(capabilitiesTimeoutMs)
      expect(await answer).toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })
})
