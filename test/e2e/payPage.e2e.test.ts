import type { Page } from 'playwright-core'
import { parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { devnetClients } from '../../devnet/deploy'
import { createPayer } from '../../devnet/seed'
import { screenshot } from './support/browser'
import { clickPay } from './support/clickPay'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { injectTestWallet } from './support/testWallet'

const checkout = useCheckoutInBrowser()
const { chain, balanceOf } = checkout
const statusOnChain = async (id: string) => (await checkout.invoiceOnChain(BigInt(id))).status

async function payerPage(payer: { ownerPrivateKey: `0x${string}` }, { viewport = { width: 1100, height: 1000 }, ...options }: { startChainId?: number; viewport?: { width: number; height: number } } = {}) {
  const page = await checkout.browser.newPage({ viewport })
  const wallet = await injectTestWallet(page, { privateKey: payer.ownerPrivateKey, rpcUrl: checkout.devnet.file.rpcUrl, chainId: checkout.devnet.file.chainId, ...options })
  return { page, wallet }
}

async function freshPayer() {
  const clients = devnetClients(checkout.devnet.file.rpcUrl, checkout.devnet.file.chainId)
  return createPayer(clients, { chainId: checkout.devnet.file.chainId, ...checkout.devnet.file.contracts }, parseUnits('10000', 6))
}

const heading = (page: Page) => page.locator('#svc-widget-heading')

describe('the hosted pay page in a real browser', () => {
  // first: it reads an invoice the tests below pay
  test.each([
    ['a desktop', { width: 1100, height: 1000 }],
    ['a phone', { width: 412, height: 823 }],
  ])('behavior: on %s, the invoice is on screen before any script runs, and the client takes the same page over without moving it', async (_, viewport) => {
    const invoice = checkout.devnet.file.invoices[0]!
    const { page } = await payerPage(checkout.devnet.file.payer, { viewport })
    // the page's scripts wait until the server-rendered invoice has been looked at
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/assets/*.js', async (route) => {
      await held
      await route.continue()
    })
    await page.addInitScript(() => {
      const shifts: number[] = []
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!entry.hadRecentInput) shifts.push(entry.value)
      }).observe({ type: 'layout-shift', buffered: true })
      ;(window as unknown as { shifts: number[] }).shifts = shifts
    })
    await page.goto(invoice.shareLink, { waitUntil: 'commit' })
    // the merchant's number, still unchecked, holds its place unseen: neither it nor the chain's bare number is read
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Invoice', exact: true }).count()).toBe(1)
    expect(await page.locator('h1').textContent()).toMatch(/^Invoice NW-\d{4}$/)
    expect(await page.getByText('Unconfirmed', { exact: true }).isVisible()).toBe(true)
    // a mark on the server's element: still there afterwards only if the client hydrated it, not replaced it
    await page.evaluate(() => ((document.querySelector('h1') as HTMLElement & { served?: boolean }).served = true))
    release()
    await expect.poll(() => page.getByText('Checked: the amount, recipient and due date match the payment record.').isVisible()).toBe(true)
    await expect.poll(() => heading(page).textContent()).toBe('Choose a wallet to pay with')
    expect(await page.evaluate(() => (document.querySelector('h1') as HTMLElement & { served?: boolean }).served)).toBe(true)
    expect(await page.getByRole('heading', { level: 1, name: /^Invoice NW-\d{4}$/ }).count()).toBe(1)
    expect(await page.getByText('Unconfirmed', { exact: true }).count()).toBe(0)
    const shifts = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)
    expect(shifts.reduce((sum, value) => sum + value, 0)).toBeLessThan(0.01)
    await page.close()
  })

  test('behavior: the page starts its Intl warm-up worker under its own policy, and nothing it runs is refused', async () => {
    const { page } = await payerPage(checkout.devnet.file.payer)
    const workers: string[] = []
    page.on('worker', (worker) => workers.push(new URL(worker.url()).pathname))
    await page.addInitScript(() => {
      const refused: string[] = []
      document.addEventListener('securitypolicyviolation', (event) => refused.push(`${event.effectiveDirective} ${event.blockedURI}`))
      ;(window as unknown as { refused: string[] }).refused = refused
    })
    await page.goto(checkout.devnet.file.invoices[0]!.shareLink)
    await expect.poll(() => page.getByText('Checked: the amount, recipient and due date match the payment record.').isVisible()).toBe(true)
    expect(workers).toEqual([expect.stringMatching(/^\/assets\/warmIntl\.worker-[\w-]+\.js$/)])
    expect(await page.evaluate(() => (window as unknown as { refused: string[] }).refused)).toEqual([])
    await page.close()
  })

  test('behavior: a payer opens a share link, sees the line items, connects, pays, and sees Paid; the chain agrees', async () => {
    const invoice = checkout.devnet.file.invoices[1]!
    const payer = checkout.devnet.file.payer
    const { page, wallet } = await payerPage(payer)
    await page.goto(invoice.shareLink)
    await expect.poll(() => page.getByText('Managed hosting').first().isVisible()).toBe(true)
    await expect.poll(() => page.getByText('Checked: the amount, recipient and due date match the payment record.').isVisible()).toBe(true)
    await screenshot(page, '01-invoice-ready')

    const before = await balanceOf(payer.vault)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await page.getByRole('button', { name: /^Pay / }).click()
    await expect.poll(() => heading(page).textContent(), { timeout: 20_000 }).toBe('Payment received')
    await screenshot(page, '02-paid-receipt')

    // two prompts a person can read, the permit and the payment, and never a bare hash
    expect(wallet.requests).not.toContain('personal_sign')
    expect(wallet.requests).not.toContain('eth_sign')
    expect(wallet.typed.map((request) => request.primaryType)).toEqual(['Permit', 'Payment'])
    const onChain = await checkout.invoiceOnChain(BigInt(invoice.id))
    expect(wallet.typed[1]!.message).toMatchObject({
      invoice: invoice.id,
      merchant: onChain.merchant,
      token: onChain.token,
      amount: onChain.amount.toString(),
      fromWallet: '0',
      vault: payer.vault,
    })
    expect(await statusOnChain(invoice.id)).toBe(2)
    expect(await balanceOf(payer.vault)).toBe(before - BigInt(invoice.amount))
    const shownTx = await page.locator('.svc-detail', { hasText: 'Transaction' }).locator('.svc-hex').getAttribute('title')
    const [paid] = await chain().getContractEvents({ address: checkout.devnet.file.contracts.registry, abi: invoiceRegistryAbi, eventName: 'InvoicePaid', args: { id: BigInt(invoice.id) }, fromBlock: 0n })
    expect(shownTx).toBe(paid?.transactionHash)

    await page.reload()
    await expect.poll(() => page.getByText('This invoice is paid').first().isVisible()).toBe(true)
    await screenshot(page, '03-paid-page')
    await page.close()
  })

  test('behavior: a wallet on another network is asked to switch, and the payment then goes through', async () => {
    const invoice = checkout.devnet.file.invoices[2]!
    const payer = await freshPayer()
    const { page } = await payerPage(payer, { startChainId: 1 })
    await page.goto(invoice.shareLink)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await expect.poll(() => heading(page).textContent()).toBe('Wrong network')
    await screenshot(page, '04-wrong-network')
    await page.getByRole('button', { name: /^Switch to/ }).click()
    await page.getByRole('button', { name: /^Pay / }).click()
    await expect.poll(() => heading(page).textContent(), { timeout: 20_000 }).toBe('Payment received')
    expect(await statusOnChain(invoice.id)).toBe(2)
    await page.close()
  })

  test('behavior: too little in the vault shows how much is missing and offers no payment', async () => {
    const invoice = checkout.devnet.file.invoices[3]!
    const { page } = await payerPage(checkout.devnet.file.payer)
    await page.goto(invoice.shareLink)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await expect.poll(() => heading(page).textContent()).toBe('Not enough funds')
    await expect.poll(() => page.getByText(/more is needed to pay this invoice/).textContent()).toMatch(/20,248\.00|20\.248,00|more is needed/)
    expect(await page.getByRole('button', { name: /^Pay / }).count()).toBe(0)
    await screenshot(page, '05-insufficient-balance')
    await page.close()
  })

  test('behavior: a payer who rejects the permit signature is back where they were, and nothing was paid', async () => {
    const invoice = checkout.devnet.file.invoices[0]!
    const payer = await freshPayer()
    const { page, wallet } = await payerPage(payer)
    await page.goto(invoice.shareLink)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    wallet.rejectNext('eth_signTypedData_v4')
    await page.getByRole('button', { name: /^Pay / }).click()
    await expect.poll(() => page.getByText('You declined the authorisation. Nothing was paid.').isVisible()).toBe(true)
    expect(await page.getByRole('button', { name: /^Pay / }).count()).toBe(1)
    expect(await statusOnChain(invoice.id)).toBe(1)
    await page.close()
  })

  test('behavior: a server answer tampered in flight is refused as unsafe and never offered for signing', async () => {
    const invoice = checkout.devnet.file.invoices[0]!
    const payer = await freshPayer()
    const { page, wallet } = await payerPage(payer)
    await page.route('**/v1/pay/*/prepare', async (route) => {
      const response = await route.fetch()
      const body = await response.json()
      // a dishonest server: the same operation, but paying another invoice
      body.userOp.callData = body.userOp.callData.replace(
        BigInt(invoice.id).toString(16).padStart(64, '0'),
        (BigInt(invoice.id) + 1n).toString(16).padStart(64, '0'),
      )
      await route.fulfill({ response, json: body })
    })
    await page.goto(invoice.shareLink)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await page.getByRole('button', { name: /^Pay / }).click()
    await expect.poll(() => heading(page).textContent(), { timeout: 20_000 }).toBe('Payment stopped for your safety')
    await screenshot(page, '06-unsafe')
    expect(wallet.requests).not.toContain('personal_sign')
    expect(wallet.typed.map((request) => request.primaryType)).not.toContain('Payment')
    expect(await page.getByRole('button', { name: /sign|pay/i }).count()).toBe(0)
    expect(await statusOnChain(invoice.id)).toBe(1)
    await page.close()
  })

  test('behavior: a service\'s PERMIT_EXPIRED (its word, not the clock\'s) is recovered in the browser with one action: a new authorisation', async () => {
    const invoice = checkout.devnet.file.invoices[0]!
    const payer = await freshPayer()
    const { page } = await payerPage(payer)
    let expireNext = true
    await page.route('**/v1/pay/*/prepare', async (route) => {
      if (!expireNext) return route.continue()
      expireNext = false
      // the server's answer when the permit ran out while the payer hesitated
      await route.fulfill({ status: 409, json: { error: 'PERMIT_EXPIRED', code: 'PERMIT_EXPIRED', message: 'the permit has less than two minutes left' } })
    })
    await page.goto(invoice.shareLink)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await page.getByRole('button', { name: /^Pay / }).click()
    // the permit has an hour left by the page's clock: it asks for a new one, and never says expired
    await expect.poll(() => page.locator('.svc-widget').textContent(), { timeout: 20_000 }).toContain('The payment service asked for a new authorisation. Nothing was paid.')
    expect(await heading(page).textContent()).not.toBe('The authorisation expired')
    await screenshot(page, '07-permit-renewal-asked')
    await page.getByRole('button', { name: 'Sign a new authorisation' }).click()
    await expect.poll(() => heading(page).textContent(), { timeout: 20_000 }).toBe('Payment received')
    expect(await statusOnChain(invoice.id)).toBe(2)
    await page.close()
  })

  test('behavior: a payer who switches account after signing the permit starts over as the new account; nothing signed for the old one is used', async () => {
    const invoice = await checkout.freshInvoice()
    const first = await freshPayer()
    const second = await freshPayer()
    const { page, wallet } = await payerPage(first)
    await page.goto(invoice.url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    const held = wallet.holdNext('Payment')
    await clickPay(page)
    const answer = await held
    // the permit is signed and the operation waits in the wallet: the payer changes account there
    await wallet.switchAccount(second.ownerPrivateKey)
    await expect.poll(() => page.locator(`.svc-hex[title="${second.vault}"]`).first().isVisible()).toBe(true)
    await expect.poll(() => heading(page).textContent()).toBe('Pay this invoice')
    answer()
    const [firstBefore, secondBefore] = await Promise.all([balanceOf(first.vault), balanceOf(second.vault)])
    await clickPay(page)
    await expect.poll(() => heading(page).textContent(), { timeout: 20_000 }).toBe('Payment received')
    const onChain = await checkout.invoiceOnChain(BigInt(invoice.id))
    expect([onChain.status, onChain.payer]).toEqual([2, second.vault])
    expect(await balanceOf(first.vault)).toBe(firstBefore)
    expect(await balanceOf(second.vault)).toBe(secondBefore - onChain.amount)
    await page.close()
  })

  test('behavior: a payer who moves the wallet to another chain while ready sees the wrong network, and is back once it returns', async () => {
    const invoice = await checkout.freshInvoice()
    const payer = await freshPayer()
    const { page, wallet } = await payerPage(payer)
    await page.goto(invoice.url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await expect.poll(() => page.getByRole('button', { name: /^Pay / }).isVisible()).toBe(true)
    await wallet.switchChain(1)
    await expect.poll(() => heading(page).textContent()).toBe('Wrong network')
    expect(await page.getByRole('button', { name: /^Pay / }).count()).toBe(0)
    await wallet.switchChain(checkout.devnet.file.chainId)
    await expect.poll(() => page.getByRole('button', { name: /^Pay / }).isVisible()).toBe(true)
    await page.close()
  })

  test("behavior: MetaMask mobile's nested rejection (4001 under data.originalError) reads as declined, not as a wallet failure", async () => {
    const invoice = await checkout.freshInvoice()
    const { page, wallet } = await payerPage(await freshPayer())
    await page.goto(invoice.url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    wallet.rejectNext('eth_signTypedData_v4', { nested: true })
    await clickPay(page)
    await expect.poll(() => page.getByText('You declined the authorisation. Nothing was paid.').isVisible()).toBe(true)
    expect(await page.getByText('Your wallet reported a problem.').count()).toBe(0)
    await page.close()
  })
})
