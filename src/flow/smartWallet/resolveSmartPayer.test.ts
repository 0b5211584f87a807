import type { Hex } from 'viem'
import { describe, expect, test, vi } from 'vitest'
import { confirmedTestInvoice, testDeployment, testInvoice } from '../../verify/preparedPayment.fixture'
import type { WalletCapabilities } from '../../wallet/readWalletCapabilities'
import type { CheckInvoiceReturnType } from '../checkInvoice'
import type { PaymentFlowDependencies } from '../paymentFlowDependencies'
import { capabilitiesTimeoutMs, isContractAccount, resolveSmartPayer } from './resolveSmartPayer'

const deployment = testDeployment()
const invoice = confirmedTestInvoice(testInvoice(deployment))
const amount = BigInt(invoice.amount)
const owner = '0x5555555555555555555555555555555555555555'
const vault = '0x6666666666666666666666666666666666666666'
const confirmed: CheckInvoiceReturnType = { kind: 'confirmed', invoice }
const oneprompt: WalletCapabilities = { atomic: 'supported', paymasterService: true }
/** SimpleAccount behind a proxy, as a smart account's address holds it. */
const contractCode: Hex = '0x363d3d373d3d3d363d73bebebebebebebebebebebebebebebebebebebebe5af43d82803e903d91602b57fd5bf3'

type Options = { balance?: bigint; sendCalls?: boolean; code?: Hex; held?: bigint; deployed?: boolean; sendsTransactions?: boolean }

/** Only what resolveSmartPayer touches: the wallet's capabilities, the account's code and the token
 * balances of the account and of the vault derived from it. */
function dependencies(capabilities: () => Promise<WalletCapabilities>, { balance = amount, sendCalls = true, code = '0x', held = 0n, deployed = false, sendsTransactions = true }: Options = {}) {
  const balanceOf = vi.fn(async (holder: string) => (holder === owner ? balance : held))
  const vaultOf = vi.fn(async () => ({ vault, deployed }))
  const wallet = { capabilities, sendsTransactions: () => sendsTransactions, ...(sendCalls ? { sendCalls: async () => '0x1' } : {}) }
  return { deps: { wallet, chain: { balanceOf, vaultOf, codeOf: async () => code } } as unknown as PaymentFlowDependencies, balanceOf, vaultOf }
}

describe('resolveSmartPayer', () => {
  test('behavior: a wallet paying in one prompt whose account holds the amount pays from that account', async () => {
    const { deps, balanceOf } = dependencies(async () => oneprompt)
    expect(await resolveSmartPayer(owner, confirmed, deps)).toEqual({ type: 'smartPayerResolved', payer: { owner, balance: amount }, check: confirmed })
    expect(balanceOf).toHaveBeenCalledWith(owner)
  })

  test('behavior: for an account without code, the vault flow for an account short of the amount, a wallet without a paymaster service, one that throws, and an invoice not confirmed Issued', async () => {
    expect(await resolveSmartPayer(owner, confirmed, dependencies(async () => oneprompt, { balance: amount - 1n }).deps)).toBeNull()
    expect(await resolveSmartPayer(owner, confirmed, dependencies(async () => ({ atomic: 'supported', paymasterService: false })).deps)).toBeNull()
    expect(await resolveSmartPayer(owner, confirmed, dependencies(async () => ({ atomic: null, paymasterService: true })).deps)).toBeNull()
    expect(await resolveSmartPayer(owner, confirmed, dependencies(() => Promise.reject(new Error('no'))).deps)).toBeNull()
    expect(await resolveSmartPayer(owner, confirmed, dependencies(async () => oneprompt, { sendCalls: false }).deps)).toBeNull()
    expect(await resolveSmartPayer(owner, { kind: 'unreadable', invoice: { ...invoice, confirmed: false } }, dependencies(async () => oneprompt).deps)).toBeNull()
    expect(await resolveSmartPayer(owner, { kind: 'confirmed', invoice: { ...invoice, status: 'Paid' } }, dependencies(async () => oneprompt).deps)).toBeNull()
    // an EIP-7702 account's own key still signs for its vault
    expect(await resolveSmartPayer(owner, confirmed, dependencies(async () => oneprompt, { balance: 0n, code: `0xef0100${'77'.repeat(20)}` }).deps)).toBeNull()
  })

  test('behavior: a smart account short of funds is never sent to a vault: it pays here, told to top up itself, its vault read only to show what it holds', async () => {
    const { deps, vaultOf } = dependencies(async () => oneprompt, { balance: amount - 1n, code: contractCode })
    expect(await resolveSmartPayer(owner, confirmed, deps)).toEqual({ type: 'smartPayerResolved', payer: { owner, balance: amount - 1n, movesBack: true }, check: confirmed })
    expect(vaultOf).toHaveBeenCalledWith(owner)
  })

  test('behavior: what a smart account\'s vault already holds is stranded there, and the account is offered to take it back when its wallet sends atomic batches from this page', async () => {
    const stranded = { vault, deployed: false, balance: 200_000_000n }
    expect(await resolveSmartPayer(owner, confirmed, dependencies(async () => oneprompt, { balance: 0n, code: contractCode, held: stranded.balance }).deps)).toEqual({
      type: 'smartPayerResolved',
      payer: { owner, balance: 0n, stranded, movesBack: true },
      check: confirmed,
    })
    // a host page's relayed wallet sends no batch of the page's own: the payer is told what to do instead
    const relayed = await resolveSmartPayer(owner, confirmed, dependencies(async () => oneprompt, { balance: 0n, code: contractCode, held: 1n, sendsTransactions: false }).deps)
    expect(relayed).toMatchObject({ payer: { stranded: { balance: 1n } } })
    expect(relayed?.type === 'smartPayerResolved' && relayed.payer.movesBack).toBeFalsy()
  })

  test('behavior: a smart account whose wallet offers no sponsored one-prompt payment cannot pay here, and is never offered the vault flow', async () => {
    const atomicOnly = await resolveSmartPayer(owner, confirmed, dependencies(async () => ({ atomic: 'supported', paymasterService: false }), { code: contractCode }).deps)
    expect(atomicOnly).toEqual({ type: 'smartPayerResolved', payer: { owner, balance: amount, cannotPay: true, movesBack: true }, check: confirmed })
    const noAnswer = await resolveSmartPayer(owner, confirmed, dependencies(() => Promise.reject(new Error('no')), { code: contractCode, held: 5n }).deps)
    expect(noAnswer).toEqual({ type: 'smartPayerResolved', payer: { owner, balance: amount, cannotPay: true, stranded: { vault, deployed: false, balance: 5n } }, check: confirmed })
  })

  test('behavior: contract code is a smart account; none, or an EIP-7702 delegation, is not', () => {
    expect([contractCode, '0x', '0x0', null, `0xEF0100${'77'.repeat(20)}`].map((code) => isContractAccount(code as Hex | null))).toEqual([true, false, false, false, false])
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
