// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact'
import type { Address, Hex } from 'viem'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import type { PinnedDeployment } from '../../../shared/pinnedDeployment'
import type { Payer, PaymentState } from '../../flow/paymentState'
import type { SimulationCall } from '../../chain/simulatePayment'
import { refundedAmountSelector } from '../../chain/readRefunded'
import { confirmedTestInvoice, testDeployment, testFeeBps, testInvoice } from '../../verify/preparedPayment.fixture'
import type { WalletChoice } from '../../wallet/walletChoice'
import { shown } from '../shown.fixture'
import { LocaleContext } from '../LocaleContext'
import { english, type Locale } from '../strings'
import { de } from '../strings.de'
import { PaymentWidget, type WidgetActions } from './PaymentWidget'
import { loadAfterPayViews } from './lazyViews'
import type { DevnetWalletRequest } from '../../wallet/devnetWalletRequest'

const deployment: PinnedDeployment = { ...testDeployment(), chainName: 'Devnet' }
const invoice = confirmedTestInvoice(testInvoice(deployment))
const owner: Address = '0x8d94Ed49e35c9f41aFB72cA227925B0917F5946F'
const vault: Address = '0xafa1368c8Abb18db514D3946154Fca00BF992Ee7'
const payer: Payer = { owner, vault, deployed: false, balance: 10_000_000_000n }
const userOpHash: Hex = `0x${'ab'.repeat(32)}`
const txHash: Hex = `0x${'cd'.repeat(32)}`
const inAnHour = BigInt(Math.floor(Date.now() / 1000) + 3600)
const permit = { deadline: inAnHour, v: 27, r: userOpHash, s: userOpHash }
const window = { validAfter: 0, validUntil: Number(inAnHour) }
/** The message the wallet signs for this invoice's payment, as the verifier builds it. */
const paymentOf = (fromWallet = 0n) => ({
  registry: deployment.registry,
  invoice: BigInt(invoice.id),
  invoiceNumber: BigInt(invoice.invoiceNumber),
  merchant: invoice.merchant,
  token: invoice.token.address,
  amount: BigInt(invoice.amount),
  feeBps: testFeeBps,
  fromWallet,
  vault,
  validUntil: inAnHour,
  operation: userOpHash,
})

function actions(): WidgetActions {
  return { choose: vi.fn(), switchNetwork: vi.fn(), pay: vi.fn(), payFromWallet: vi.fn(), sendToVault: vi.fn(), moveBack: vi.fn(), renewPermit: vi.fn(), retry: vi.fn() }
}

function show(state: PaymentState, options: { wallets?: WalletChoice[]; locale?: Locale; deployment?: PinnedDeployment; merchantName?: string | null; readChain?: SimulationCall } = {}) {
  const act = actions()
  render(
    <LocaleContext.Provider value={options.locale ?? english}>
      <PaymentWidget
        state={state}
        actions={act}
        wallets={options.wallets ?? []}
        deployment={options.deployment ?? deployment}
        merchantName={options.merchantName === undefined ? 'Northwind Studio Ltd' : options.merchantName}
        invoiceNumber="NW-1042"
        readChain={options.readChain}
      />
    </LocaleContext.Provider>,
  )
  return act
}

const injected: WalletChoice = { id: 'io.rabby', kind: 'injected', name: 'Rabby', icon: 'data:image/svg+xml,<svg/>', open: async () => ({ request: async () => null }) }
const devnet: WalletChoice = { id: 'devnet', kind: 'devnet', name: '', icon: '', open: async () => ({ request: async () => null }) }

/** The buttons that act on the payment: copying an address to the clipboard is not one. */
const paymentActions = () => screen.queryAllByRole('button').filter((button) => !button.classList.contains('svc-copy'))

afterEach(cleanup)
// the states after Pay are a chunk of their own (lazyViews.tsx): as on the page, there before Pay
beforeAll(() => loadAfterPayViews())

describe('PaymentWidget', () => {
  test('ready: lists the wallets and connects the one the payer picks', () => {
    const act = show({ name: 'ready', invoice, note: null, rechecks: 0 }, { wallets: [injected, devnet] })
    expect(screen.queryByRole('heading', { name: 'Choose a wallet to pay with' })).not.toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Rabby' }))
    expect(act.choose).toHaveBeenCalledWith(injected)
    expect(screen.queryByRole('button', { name: 'Devnet wallet (demo payer)' })).not.toBeNull()
  })

  test('ready: says so when the browser has no wallet', () => {
    show({ name: 'ready', invoice, note: null, rechecks: 0 })
    expect(shown(/No wallet was found in this browser/)).toBe(true)
    expect(paymentActions()).toEqual([])
  })

  test('ready: a declined connection is explained, and the wallets are offered again', () => {
    show({ name: 'ready', invoice, note: 'connectRejected', rechecks: 0 }, { wallets: [injected] })
    expect(shown('You declined the connection in your wallet.')).toBe(true)
    expect(screen.queryByRole('button', { name: 'Rabby' })).not.toBeNull()
  })

  test('wrongNetwork: offers one button that switches to the pinned chain', () => {
    const act = show({ name: 'wrongNetwork', invoice, chainId: 1, wantedChainId: 31337, note: null })
    expect(shown('Your wallet is on chain 1. This invoice is paid on Devnet.')).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Switch to Devnet' }))
    expect(act.switchNetwork).toHaveBeenCalledOnce()
  })

  test('connected: shows the wallet, its vault and balance, and pays the invoice amount', () => {
    const act = show({ name: 'connected', invoice, payer, note: null })
    expect(shown(owner)).toBe(true)
    expect(shown(vault)).toBe(true)
    expect(shown('10,000.00 USDC')).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Pay 248.00 USDC' }))
    expect(act.pay).toHaveBeenCalledOnce()
  })

  test('connected: after a declined signature, says nothing was paid and offers to pay again', () => {
    show({ name: 'connected', invoice, payer, note: 'operationRejected' })
    expect(shown('You declined the payment. Nothing was paid.')).toBe(true)
    expect(screen.queryByRole('button', { name: 'Pay 248.00 USDC' })).not.toBeNull()
  })

  test('insufficientBalance: says how much is missing, and checks again on request', () => {
    const act = show({ name: 'insufficientBalance', invoice, payer: { ...payer, balance: 200_000_000n }, missing: 48_000_000n })
    expect(shown('Your payment account holds 200.00 USDC. 48.00 USDC more is needed to pay this invoice.')).toBe(true)
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }))
    expect(act.retry).toHaveBeenCalledOnce()
  })

  test('insufficientBalance: beside the address to send to, the pinned network and token (its contract to copy), and the vault called one name throughout', () => {
    show({ name: 'insufficientBalance', invoice, payer: { ...payer, balance: 200_000_000n }, missing: 48_000_000n })
    const fund = screen.getByText("Your payment account's address (send the missing amount here)").closest('.svc-fund')!
    const details = [...fund.querySelectorAll('.svc-detail')].map((detail) => [detail.querySelector('dt')!.textContent, detail.querySelector('dd')!.textContent])
    expect(details).toEqual([
      ['Network', 'Devnet'],
      ['Token', expect.stringMatching(new RegExp(`^USDC ${deployment.token.slice(0, 6)}…${deployment.token.slice(-4)}`))],
    ])
    expect(screen.queryByRole('button', { name: `Copy token contract ${deployment.token}` })).not.toBeNull()
    expect(within(fund as HTMLElement).queryByRole('button', { name: `Copy address ${vault}` })).not.toBeNull()
    // the vault is "your payment account" in every line that names it, never a "vault"
    expect(shown('Your payment account')).toBe(true)
    expect(document.body.textContent).not.toMatch(/vault/i)
  })

  test('insufficientBalance: a deployment without a chain name names the chain by its id', () => {
    const { chainName: _, ...unnamed } = deployment
    show({ name: 'insufficientBalance', invoice, payer: { ...payer, balance: 0n }, missing: 248_000_000n }, { deployment: unnamed })
    expect(screen.getByText('Network').nextElementSibling?.textContent).toBe(`chain ${deployment.chainId}`)
  })

  test('insufficientBalance: a QR code of the address where another device can scan it, none on a phone, which would have to scan its own screen', () => {
    show({ name: 'insufficientBalance', invoice, payer: { ...payer, balance: 0n }, missing: 248_000_000n })
    expect(screen.queryByRole('img', { name: `QR code of the address ${vault}` })).not.toBeNull()
    cleanup()
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: /pointer: coarse/.test(query), media: query }))
    try {
      show({ name: 'insufficientBalance', invoice, payer: { ...payer, balance: 0n }, missing: 248_000_000n })
      expect(screen.queryByRole('img', { name: /^QR code/ })).toBeNull()
      expect(screen.getByText(/send the missing amount here/).closest('.svc-fund')?.textContent).toContain(vault)
    } finally {
      vi.unstubAllGlobals()
    }
  })

  test('insufficientBalance: with the rest in the wallet, offers one action that pays from the wallet, and shows the split', () => {
    const act = show({ name: 'insufficientBalance', invoice, payer: { ...payer, balance: 47_000_000n }, missing: 201_000_000n, fromWallet: true })
    expect(shown('47.00 from your payment account, 201.00 from your wallet')).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Pay 248.00 USDC from your wallet' }))
    expect(act.payFromWallet).toHaveBeenCalledOnce()
    expect(screen.queryByRole('button', { name: 'Check again' })).not.toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Send 201.00 USDC to your payment account (you pay the network fee)' }))
    expect(act.sendToVault).toHaveBeenCalledOnce()
  })

  test("insufficientBalance: with a host page's wallet, which sends no transactions from here, only the permit way is offered", () => {
    show({ name: 'insufficientBalance', invoice, payer: { ...payer, balance: 47_000_000n, sendsTransactions: false }, missing: 201_000_000n, fromWallet: true })
    expect(screen.queryByRole('button', { name: 'Pay 248.00 USDC from your wallet' })).not.toBeNull()
    expect(screen.queryByRole('button', { name: /Send .* to your payment account/ })).toBeNull()
  })

  test('sendingToVault: says what the wallet is asked to send, and that the payment goes on after it', () => {
    show({ name: 'sendingToVault', invoice, payer, missing: 201_000_000n })
    expect(screen.queryByRole('heading', { name: 'Sending to your payment account' })).not.toBeNull()
    expect(shown('Confirm the transfer of 201.00 USDC in your wallet; the payment goes on once it is on-chain.')).toBe(true)
  })

  test('insufficientBalance: an empty vault pays it all from the wallet, with no split; a declined funding signature is said', () => {
    show({ name: 'insufficientBalance', invoice, payer: { ...payer, balance: 0n }, missing: 248_000_000n, fromWallet: true, note: 'permitRejected' })
    expect(shown('You declined the authorisation. Nothing was paid.')).toBe(true)
    expect(shown(/from your payment account,/)).toBe(false)
    expect(screen.queryByRole('button', { name: 'Pay 248.00 USDC from your wallet' })).not.toBeNull()
  })

  test('signingFunding: step 1 of 3 says in plain words that the vault takes the missing amount from the wallet, once', () => {
    const authorisation = { amount: 201_000_000n, token: invoice.token, merchant: invoice.merchant, spender: vault, deadline: inAnHour }
    show({ name: 'signingFunding', invoice, payer, authorisation, typedData: {} as never, next: { authorisation, typedData: {} as never } })
    expect(screen.queryByRole('heading', { name: 'Allow your payment account to take the missing amount' })).not.toBeNull()
    expect(shown('1 of 3: allow your payment account to take 201.00 USDC from your wallet, once')).toBe(true)
    expect(shown(owner)).toBe(true)
    expect(shown(vault)).toBe(true)
    expect(paymentActions()).toEqual([])
  })

  test('signingPermit and signingOperation: when paying from the wallet, say which step of three each is', () => {
    const funding = { from: owner, to: vault, amount: 201_000_000n, permit }
    const authorisation = { amount: 248_000_000n, token: invoice.token, merchant: invoice.merchant, spender: deployment.registry, deadline: inAnHour }
    show({ name: 'signingPermit', invoice, payer, authorisation, typedData: {} as never, funding })
    expect(shown('2 of 3: allow the invoice to be paid from your payment account')).toBe(true)
    cleanup()
    show({ name: 'signingOperation', invoice, payer, permit, funding, userOp: {} as never, userOpHash, window, payment: paymentOf(201_000_000n) })
    expect(shown('3 of 3: confirm the payment')).toBe(true)
    expect(shown('Checked: it moves 201.00 USDC from your wallet to your payment account and pays exactly this invoice, nothing else.')).toBe(true)
  })

  test('signingPermit: says in plain words what is authorised, with a countdown to the deadline', () => {
    const authorisation = { amount: 248_000_000n, token: invoice.token, merchant: invoice.merchant, spender: deployment.registry, deadline: inAnHour }
    show({ name: 'signingPermit', invoice, payer, authorisation, typedData: {} as never })
    expect(shown('You allow the invoice registry to take 248.00 USDC from your payment account, once, to pay Northwind Studio Ltd.')).toBe(true)
    expect(shown(invoice.token.address)).toBe(true)
    expect(shown(deployment.registry)).toBe(true)
    expect(shown(invoice.merchant)).toBe(true)
    expect(shown(/\(59:5\d left\)|\(1:00:00 left\)/)).toBe(true)
    expect(paymentActions()).toEqual([])
  })

  test('unsafe: lists what differed and never offers to sign', () => {
    const problems = [{ code: 'PAYMASTER_MISMATCH' as const, message: 'sponsored by 0x1234' }]
    show({ name: 'unsafe', invoice, problems, handedOver: null })
    expect(screen.queryByRole('heading', { name: 'Payment stopped for your safety' })).not.toBeNull()
    expect(shown('The payment is sponsored by an unknown party.')).toBe(true)
    expect(shown('PAYMASTER_MISMATCH: sponsored by 0x1234')).toBe(true)
    expect(shown('You have not signed anything for this payment.')).toBe(true)
    expect(paymentActions()).toEqual([])
  })

  test('unsafe: names the fields that differ from the chain, and what the permit already handed over allows', () => {
    const problems = [{ code: 'INVOICE_DIFFERS_FROM_CHAIN' as const, message: 'differs', fields: ['amount', 'merchant'] }]
    show({ name: 'unsafe', invoice, problems, handedOver: { amount: 248_000_000n, deadline: inAnHour } })
    expect(shown('The invoice shown differs from the one recorded on-chain. Differs in: amount, merchant.')).toBe(true)
    expect(shown(/it lets the invoice registry take 248\.00 USDC from your payment account, but only in a payment your payment account makes/)).toBe(true)
    expect(paymentActions()).toEqual([])
  })

  test('unsafe: after paying from the wallet, also says what the funding permit handed over allows', () => {
    const problems = [{ code: 'CALLDATA_UNDECODABLE' as const, message: 'Not the funded payment.' }]
    show({ name: 'unsafe', invoice, problems, handedOver: { amount: 248_000_000n, deadline: inAnHour, funding: { amount: 201_000_000n, deadline: inAnHour } } })
    expect(shown('The payment contains an action this checkout cannot read.')).toBe(true)
    expect(shown(/your payment account may take 201\.00 USDC from your wallet until .*: it too can only be used in a payment your payment account makes, with your signature\./)).toBe(true)
    expect(paymentActions()).toEqual([])
  })

  test('signingOperation: says the operation was checked, with the permit countdown', () => {
    show({ name: 'signingOperation', invoice, payer, permit, userOp: {} as never, userOpHash, window, payment: paymentOf() })
    expect(shown('Checked: it pays exactly this invoice and nothing else.')).toBe(true)
    expect(shown(/left\)/)).toBe(true)
  })

  test("signingOperation: shows the lines the wallet will show for the message it signs, before it asks: the merchant's invoice number the wallet shows (never the registry's id), with the label the payer knows", () => {
    show({ name: 'signingOperation', invoice: { ...invoice, id: '57' }, payer, permit, userOp: {} as never, userOpHash, window, payment: { ...paymentOf(), invoice: 57n } })
    expect(shown('Your wallet will ask you to sign this payment. Check that it shows the same:')).toBe(true)
    expect(invoice.invoiceNumber).not.toBe('57')
    const lines = [...document.querySelectorAll('.svc-wallet-lines dd')].filter((line) => line.closest('[hidden], [aria-hidden="true"]') === null).map((line) => line.textContent)
    expect(lines[0]).toBe(`invoice ${invoice.invoiceNumber} (NW-1042)`)
    expect(shown('248.00 USDC', { selector: 'dd' })).toBe(true)
    expect(shown(invoice.merchant)).toBe(true)
    expect(shown(/^Northwind Studio Ltd/, { selector: 'dd' })).toBe(true)
    expect(shown('From your wallet')).toBe(false)
  })

  test('pending: shows the userOpHash and when the chain is read next', () => {
    show({ name: 'pending', invoice, payer, permit, userOp: {} as never, userOpHash, window, payment: paymentOf(), submission: { kind: 'accepted' }, nextCheckAt: Date.now() + 3000 })
    expect(screen.queryByRole('heading', { name: 'Payment submitted' })).not.toBeNull()
    expect(shown(userOpHash)).toBe(true)
    expect(shown(/Next check in 0:0[23]/)).toBe(true)
    expect(paymentActions()).toEqual([])
  })

  test('pending: what the service says of the submission is its word, never "on its way"; an answer it could not read is not "did not answer"', () => {
    show({ name: 'pending', invoice, payer, permit, userOp: {} as never, userOpHash, window, payment: paymentOf(), submission: { kind: 'accepted' }, nextCheckAt: Date.now() })
    expect(shown('The payment service says it sent your payment; nothing on the blockchain yet. This page keeps reading the blockchain and shows the payment once it is there.')).toBe(true)
    expect(shown(/on its way/)).toBe(false)
    cleanup()
    show({ name: 'pending', invoice, payer, permit, userOp: {} as never, userOpHash, window, payment: paymentOf(), submission: { kind: 'unknown', unreadable: true }, nextCheckAt: Date.now() })
    expect(shown(/^The payment service answered in a form this page cannot read\./)).toBe(true)
    expect(shown(/did not answer/)).toBe(false)
  })

  test('permitExpired: a payment the service said it sent that never reached the chain was not sent, and can be tried again', () => {
    const act = show({ name: 'permitExpired', invoice, payer, reason: 'notSent' })
    expect(screen.queryByRole('heading', { name: 'The payment did not go through' })).not.toBeNull()
    expect(shown(/but the blockchain never showed it, and now it can no longer go through: it was not sent\. Nothing was paid\./)).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(act.renewPermit).toHaveBeenCalledOnce()
  })

  test('smartWallet: a smart account short of funds is told to top up itself, at its own address, never its vault\'s; what the vault holds is offered back', () => {
    const stranded = { vault, deployed: true, balance: 200_000_000n }
    const act = show({ name: 'smartWallet', invoice, payer: { owner, balance: 48_000_000n, stranded, movesBack: true }, note: null })
    expect(screen.queryByRole('heading', { name: 'Not enough funds' })).not.toBeNull()
    expect(shown(/^This account holds 48\.00 USDC; 200\.00 USDC more is needed to pay this invoice\. Send it to this account itself/)).toBe(true)
    // the address to fund is the account's; the vault's is shown only as what holds the stranded funds
    expect(screen.getByText(/send the missing amount here/).closest('.svc-fund')?.textContent).toContain(owner)
    expect(screen.getByText(/send the missing amount here/).closest('.svc-fund')?.textContent).not.toContain(vault)
    expect(screen.getByText(/send the missing amount here/).textContent).toBe("This account's address (send the missing amount here)")
    expect(screen.getByText(/send the missing amount here/).closest('.svc-fund')?.textContent).toContain('Devnet')
    expect(screen.queryByRole('button', { name: /^Pay / })).toBeNull()
    expect(shown(/^Your payment account holds 200\.00 USDC that this account cannot pay with/)).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Move 200.00 USDC back to this account (you pay the network fee)' }))
    expect(act.moveBack).toHaveBeenCalledOnce()
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }))
    expect(act.retry).toHaveBeenCalledOnce()
  })

  test('smartWallet: where its wallet cannot send the way back from here, the payer is told plainly what to do; an account that cannot pay here is told so, in German too', () => {
    const stranded = { vault, deployed: true, balance: 200_000_000n }
    show({ name: 'smartWallet', invoice, payer: { owner, balance: 0n, cannotPay: true, stranded }, note: null })
    expect(shown(/^This account is a smart contract account\./)).toBe(true)
    expect(shown(/^To take it out, send from this account a call to the payment account's execute function that transfers all its USDC to this account\./)).toBe(true)
    expect(paymentActions()).toEqual([])
    cleanup()
    show({ name: 'smartWallet', invoice, payer: { owner, balance: 0n, cannotPay: true, stranded }, note: null }, { locale: { strings: de, tag: 'de' } })
    expect(shown(de.afterPay!.smartCannotPay)).toBe(true)
  })

  test('pending: an unanswered submission may still pay, and can be sent again as it is', () => {
    const act = show({ name: 'pending', invoice, payer, permit, userOp: {} as never, userOpHash, window, payment: paymentOf(), submission: { kind: 'unknown' }, nextCheckAt: Date.now() })
    expect(shown(/Your signed payment may still go through/)).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Send again' }))
    expect(act.retry).toHaveBeenCalledOnce()
  })

  test('pending: a refused submission warns it could still execute until its window ends, and offers a new payment', () => {
    const act = show({ name: 'pending', invoice, payer, permit, userOp: {} as never, userOpHash, window, payment: paymentOf(), submission: { kind: 'refused', code: 'TRANSACTION_FAILED' }, nextCheckAt: Date.now() })
    expect(shown(/refused the payment \(TRANSACTION_FAILED\)\. Whoever holds it could still execute it until/)).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Sign a new payment' }))
    expect(act.renewPermit).toHaveBeenCalledOnce()
  })

  test('paid: the receipt has amount, invoice number, both hashes and an explorer link when configured', () => {
    const receipt = { amount: 248_000_000n, invoiceNumber: '1042', userOpHash, txHash }
    show({ name: 'paid', invoice, receipt }, { deployment: { ...deployment, explorerUrl: 'https://explorer.example/' } })
    expect(screen.queryByRole('heading', { name: 'Payment received' })).not.toBeNull()
    expect(shown('248.00 USDC', { selector: 'dd' })).toBe(true)
    expect(screen.getByText(/^You pay/).textContent).toBe('You pay 248.00 USDC to Northwind Studio Ltd · network fee: none (sponsored)')
    expect(screen.getByRole('list', { name: 'Payment steps' }).querySelector('[aria-current]')).toBeNull()
    expect(shown('NW-1042')).toBe(true)
    expect(shown(userOpHash)).toBe(true)
    expect(shown(txHash)).toBe(true)
    expect(screen.getByRole('link', { name: 'View the transaction' }).getAttribute('href')).toBe(`https://explorer.example/tx/${txHash}`)
  })

  test('paid: without an explorer configured there is no link', () => {
    show({ name: 'paid', invoice: { ...invoice, status: 'Paid', txHash }, receipt: null })
    expect(screen.queryByRole('heading', { name: 'This invoice is paid' })).not.toBeNull()
    expect(shown(txHash)).toBe(true)
    expect(screen.queryByRole('link')).toBeNull()
  })

  test('permitExpired: offers one action, a new permit', () => {
    const act = show({ name: 'permitExpired', invoice, payer, reason: 'expired' })
    expect(shown('It ran out before the payment went through. Nothing was paid.')).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Get a new permit' }))
    expect(act.renewPermit).toHaveBeenCalledOnce()
  })

  test('error 429: retry waits out Retry-After with a countdown', () => {
    const act = show({ name: 'error', code: 'RATE_LIMITED', status: 429, retryAt: Date.now() + 30_000, resume: { name: 'loading' } })
    expect(shown('Too many requests in a short time.')).toBe(true)
    const button = screen.getByRole('button', { name: /Try again in 0:(29|30)/ })
    expect((button as HTMLButtonElement).disabled).toBe(true)
    fireEvent.click(button)
    expect(act.retry).not.toHaveBeenCalled()
  })

  test.each([
    [502, 'PAYMASTER_UNAVAILABLE', 'The payment service is temporarily unavailable. Nothing was lost.'],
    [503, 'BUNDLER_UNAVAILABLE', 'The payment service is temporarily unavailable. Nothing was lost.'],
    [null, 'NETWORK_ERROR', 'The payment service could not be reached. Check your connection.'],
    [null, 'CHAIN_UNREADABLE', 'This page cannot check the invoice on the blockchain right now, so it will not ask you to sign anything. Nothing was paid. Try again in a moment.'],
  ])('error %s %s: a clear message by code and a retry', (status, code, message) => {
    const act = show({ name: 'error', code, status, retryAt: null, resume: { name: 'loading' } })
    expect(shown(message)).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(act.retry).toHaveBeenCalledOnce()
  })

  test.each(['PERMIT_SIGNATURE_INVALID', 'USEROP_PERMIT_MISMATCH'])('error 400 %s: says nothing was paid and asks for a new authorisation', (code) => {
    const act = show({ name: 'error', code, status: 400, retryAt: null, resume: { name: 'loading' } })
    expect(shown(/does not verify\. Nothing was paid\./)).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Sign a new authorisation' }))
    expect(act.retry).toHaveBeenCalledOnce()
  })

  test('permitExpired: an operation that ran without paying is told apart from a lapsed permit', () => {
    show({ name: 'permitExpired', invoice, payer, reason: 'failed' })
    expect(screen.queryByRole('heading', { name: 'The payment did not go through' })).not.toBeNull()
    expect(shown('It was executed on-chain but did not pay the invoice. Nothing was paid.')).toBe(true)
  })

  test('behavior: announces each state in a polite live region', () => {
    show({ name: 'preparing', invoice, payer, permit })
    expect(screen.getByRole('status').textContent).toBe('Preparing the payment…')
    expect(screen.getByRole('status').getAttribute('aria-live')).toBe('polite')
  })

  test('behavior: speaks German to a German browser', () => {
    show({ name: 'insufficientBalance', invoice, payer: { ...payer, balance: 200_000_000n }, missing: 48_000_000n }, { locale: { strings: de, tag: 'de-DE' } })
    expect(screen.queryByRole('heading', { name: 'Guthaben reicht nicht' })).not.toBeNull()
    expect(shown('Ihr Zahlungskonto enthält 200,00 USDC. Es fehlen 48,00 USDC, um diese Rechnung zu bezahlen.')).toBe(true)
  })
})

describe('PaymentWidget, as a payer reads it', () => {
  test('behavior: one summary says what is paid, to whom, and that there is no network fee', () => {
    show({ name: 'connected', invoice, payer, note: null })
    expect(screen.getByText(/^You pay/).textContent).toBe('You pay 248.00 USDC to Northwind Studio Ltd · network fee: none (sponsored)')
    expect(shown(/could not be confirmed/)).toBe(false)
  })

  test('behavior: without a confirmed name the whole address is the payee, with a notice, and paying asks twice', () => {
    const act = show({ name: 'connected', invoice, payer, note: null }, { merchantName: null })
    expect(screen.getByText(/^You pay/).textContent).toBe(`You pay 248.00 USDC to ${invoice.merchant} · network fee: none (sponsored)`)
    expect(shown(/^The recipient's name could not be confirmed/)).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Pay 248.00 USDC' }))
    expect(act.pay).not.toHaveBeenCalled()
    expect(screen.getByRole('alert').textContent).toBe('You are paying an address whose owner could not be confirmed. Check it once more, then confirm.')
    fireEvent.click(screen.getByRole('button', { name: 'Yes, pay 248.00 USDC to this address' }))
    expect(act.pay).toHaveBeenCalledOnce()
  })

  test('behavior: the steps are listed with the current one marked, the ones before it done', () => {
    const authorisation = { amount: 248_000_000n, token: invoice.token, merchant: invoice.merchant, spender: deployment.registry, deadline: inAnHour }
    show({ name: 'signingPermit', invoice, payer, authorisation, typedData: {} as never })
    const steps = screen.getByRole('list', { name: 'Payment steps' })
    expect([...steps.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['✓Check the payment (done)', '2Sign in your wallet', '3The network confirms it'])
    expect(steps.querySelector('[aria-current="step"]')?.textContent).toBe('2Sign in your wallet')
    expect(shown('Your wallet opens next and shows this request. Nothing is paid until you approve it there.')).toBe(true)
  })

  test('behavior: addresses are shortened in the middle, whole on hover and to assistive technology, with a copy button', async () => {
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    show({ name: 'connected', invoice, payer, note: null })
    expect(screen.getByText('0xafa1…2Ee7').closest('[title]')?.getAttribute('title')).toBe(vault)
    fireEvent.click(screen.getByRole('button', { name: `Copy address ${vault}` }))
    expect(writeText).toHaveBeenCalledWith(vault)
    expect(await screen.findByText('Copied', { selector: '[role="status"]' })).not.toBeNull()
  })

  test('paid: the receipt names invoice, amount, payee, the wallet that paid with its payment account, time and transaction, the operation under details, and says the devnet has no explorer', () => {
    const paid = { ...invoice, status: 'Paid' as const, payer: vault, paidAt: '1790000000', txHash }
    show({ name: 'paid', invoice: paid, receipt: { amount: 248_000_000n, invoiceNumber: invoice.invoiceNumber, userOpHash, txHash, wallet: owner } }, { deployment: { ...deployment, chainId: 31337 } })
    const receipt = screen.getByRole('region', { name: 'Receipt' })
    expect([...receipt.querySelectorAll(':scope > dl > div > dt')].map((dt) => dt.textContent)).toEqual(['Invoice', 'Amount paid', 'Paid to', 'Paid from', 'Your payment account', 'Time', 'Transaction'])
    const row = (label: string) => [...receipt.querySelectorAll('dt')].find((dt) => dt.textContent === label)!.nextElementSibling!
    expect(row('Paid from').querySelector('[title]')?.getAttribute('title')).toBe(owner)
    expect(row('Your payment account').querySelector('[title]')?.getAttribute('title')).toBe(vault)
    expect(receipt.querySelector('details > summary')?.textContent).toBe('Technical details')
    expect(receipt.querySelector('details dt')?.textContent).toBe('Operation hash')
    expect(receipt.textContent).toContain('NW-1042')
    expect(receipt.textContent).toContain('Northwind Studio Ltd')
    expect(receipt.textContent).toContain(txHash)
    expect(receipt.querySelector('time')?.getAttribute('datetime')).toBe('2026-09-21T14:13:20.000Z')
    expect(shown('Local test network: no explorer to link to.')).toBe(true)
    const print = vi.fn()
    Object.defineProperty(globalThis, 'print', { value: print, configurable: true })
    fireEvent.click(screen.getByRole('button', { name: 'Save receipt' }))
    expect(print).toHaveBeenCalledOnce()
  })

  test("paid: the receipt shows what the merchant refunded, read from the pinned registry's refundedAmount; nothing while none was", async () => {
    const paid = { ...invoice, status: 'Paid' as const, payer: vault, paidAt: '1790000000', txHash }
    const asked: { to: string; data: Hex }[] = []
    let refunded = 50_500_000n
    const readChain: SimulationCall = async (call) => {
      asked.push(call)
      return `0x${refunded.toString(16).padStart(64, '0')}`
    }
    show({ name: 'paid', invoice: paid, receipt: null }, { readChain })
    const label = await screen.findByText('Refunded to the payer', { selector: 'dt' })
    expect(screen.getByRole('region', { name: 'Receipt' }).contains(label)).toBe(true)
    expect(label.nextElementSibling?.textContent).toBe('50.50 USDC')
    expect(asked).toEqual([{ to: deployment.registry, data: `${refundedAmountSelector}${BigInt(invoice.id).toString(16).padStart(64, '0')}` }])
    cleanup()
    show({ name: 'paid', invoice: paid, receipt: null }, { readChain, locale: { strings: de, tag: 'de' } })
    expect(await screen.findByText('An den Zahler erstattet', { selector: 'dt' })).not.toBeNull()
    cleanup()
    refunded = 0n
    show({ name: 'paid', invoice: paid, receipt: null }, { readChain })
    await vi.waitFor(() => expect(asked).toHaveLength(3))
    expect(screen.queryByText('Refunded to the payer')).toBeNull()
  })

  test('behavior: the devnet wallet shows what it is asked to sign, and Reject answers no', async () => {
    show({ name: 'connected', invoice, payer, note: null })
    const answers: boolean[] = []
    const request: DevnetWalletRequest = { kind: 'sign', intent: 'Authorize spending of tokens', warning: null, rows: [['Spender', deployment.registry], ['Amount', '248 USDC']], typedData: null }
    const detail = { request, respond: (approved: boolean) => answers.push(approved) }
    const shownByPage = !globalThis.dispatchEvent(new CustomEvent('svc-devnet-wallet-request', { detail, cancelable: true }))
    expect(shownByPage).toBe(true)
    const prompt = await screen.findByRole('group', { name: 'Devnet wallet' })
    expect([...prompt.querySelectorAll('dt')].map((dt) => `${dt.textContent}=${dt.nextElementSibling?.textContent}`)).toEqual([`Spender=${deployment.registry}`, 'Amount=248 USDC'])
    expect(prompt.textContent).toContain('Authorize spending of tokens')
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }))
    expect(answers).toEqual([false])
    expect(screen.queryByRole('group', { name: 'Devnet wallet' })).toBeNull()
  })

  test('behavior: on a German page the devnet wallet\'s own words are German, its warning over a request no descriptor describes too, while the fields keep the names they are signed under', async () => {
    show({ name: 'connected', invoice, payer, note: null }, { locale: { strings: de, tag: 'de-DE' } })
    const answers: boolean[] = []
    const request: DevnetWalletRequest = { kind: 'sign', intent: null, warning: 'noDescription', rows: [['domain.name', 'USD Coin'], ['value', '248000000']], typedData: null }
    globalThis.dispatchEvent(new CustomEvent('svc-devnet-wallet-request', { detail: { request, respond: (approved: boolean) => answers.push(approved) }, cancelable: true }))
    const prompt = await screen.findByRole('group', { name: 'Devnet-Wallet' })
    expect(within(prompt).getByText('Keine Beschreibung für diese Anfrage: Prüfen Sie jedes Feld').className).toBe('svc-warning')
    expect([...prompt.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual(['domain.name', 'value'])
    expect(within(prompt).getAllByRole('button').map((button) => button.textContent)).toEqual(['Ablehnen', 'Genehmigen'])
    fireEvent.click(within(prompt).getByRole('button', { name: 'Genehmigen' }))
    expect(answers).toEqual([true])
  })

  test('behavior: nothing takes focus while the widget changes on its own; after the payer acts, the new state\'s heading does', () => {
    const view = (state: PaymentState) => (
      <LocaleContext.Provider value={english}>
        <PaymentWidget state={state} actions={actions()} wallets={[injected]} deployment={deployment} merchantName="Northwind Studio Ltd" invoiceNumber="NW-1042" />
      </LocaleContext.Provider>
    )
    const { rerender } = render(view({ name: 'loading' }))
    rerender(view({ name: 'ready', invoice, note: null, rechecks: 0 }))
    expect(document.activeElement).toBe(document.body)
    const rabby = screen.getByRole('button', { name: 'Rabby' })
    rabby.focus()
    fireEvent.click(rabby)
    rerender(view({ name: 'connecting', invoice }))
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2 }))
  })
})
