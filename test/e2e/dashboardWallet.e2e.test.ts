import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { devnetClients } from '../../devnet/deploy'
import { createPayer } from '../../devnet/seed'
import { registryStatusOf } from '../../shared/invoiceStatus'
import { signedRequest } from '../support/signedRequest'
import { accessibilityViolations } from './support/accessibilityViolations'
import { screenshot } from './support/browser'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { clickPay } from './support/clickPay'
import { injectTestWallet } from './support/testWallet'

/**
 * The merchant's money in the dashboard, every owner operation signed in the owner's own wallet (an
 * injected EIP-6963 wallet holding the demo owner's key, its signatures real and checked by the vault):
 * an invoice issued, paid by a customer in a second page, seen Paid and exported, half of it refunded
 * to the payer and some of the vault withdrawn to the withdrawal address. Each prompt is read in words
 * before the wallet is asked, and the chain holds each result.
 */

const checkout = useCheckoutInBrowser()
const widths = [1280, 390] as const

async function accessibleAtEveryWidth(page: Page, view: string) {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 })
    expect(await accessibilityViolations(page), `${view} at ${width} px`).toEqual([])
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${view}'s width at ${width} px`).toBeLessThanOrEqual(width)
    await screenshot(page, `dashboard-wallet-${view}-${width}`)
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

/** Signs in through the provider's own forms, as the merchant does, and lands on the invoices. */
async function signIn(page: Page) {
  const { dashboardUrl, merchant } = checkout.devnet.file
  await page.goto(dashboardUrl!)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByLabel('Email').fill(merchant.login!.email)
  await page.getByLabel('Password').fill(merchant.login!.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  const allow = page.getByRole('button', { name: 'Allow' })
  const invoices = page.getByRole('heading', { level: 1, name: 'Invoices' })
  await Promise.race([allow.waitFor(), invoices.waitFor()])
  if (await allow.isVisible()) await allow.click()
  await invoices.waitFor()
}

describe("the owner's wallet in the dashboard", () => {
  test('behavior: the owner issues in the wallet, the customer pays from the share link, the owner sees it Paid, exports it, refunds half to the payer and withdraws, each message read in words first and each result on the chain', async () => {
    const { merchant, rpcUrl, chainId, serverUrl, contracts } = checkout.devnet.file
    // a customer of this file's own, made by the merchant's backend: the browser part is the wallet
    const customerName = `Wallet Customer ${randomUUID().slice(0, 8)}`
    const created = await signedRequest(serverUrl, merchant.apiKey, {
      method: 'POST',
      path: '/v1/customers',
      body: JSON.stringify({ type: 'person', legalName: customerName, email: 'payer@wallet-customer.example', address: { street: 'Kaiserstraße 5', city: 'Frankfurt', postal: '60311', country: 'DE' }, taxId: '12345678901' }),
    })
    expect(created.status).toBe(201)

    const context = await checkout.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })
    const page = await context.newPage()
    const wallet = await injectTestWallet(page, { privateKey: merchant.ownerPrivateKey, rpcUrl, chainId, name: 'Owner Wallet' })
    await signIn(page)

    // issued in the owner's wallet: 10 USDC to the new customer
    await page.getByLabel('Customer', { exact: true }).selectOption({ label: `${customerName} (payer@wallet-customer.example)` })
    await page.getByLabel('Amount (USDC)').fill('10')
    await page.getByLabel('Due in (days)').fill('7')
    await page.getByRole('button', { name: 'Issue invoice' }).click()
    await page.getByRole('button', { name: 'Connect Owner Wallet' }).click()
    const review = page.getByRole('region', { name: 'Check what you sign' })
    await review.waitFor({ timeout: 30_000 })
    expect(await review.locator('.intent').textContent()).toMatch(/^Issue an invoice for 10 USDC, due /)
    await review.getByRole('button', { name: 'Sign in my wallet' }).click()
    const shareLink = page.getByRole('link', { name: 'Share link' })
    await shareLink.waitFor({ timeout: 30_000 })
    const link = (await shareLink.getAttribute('href'))!
    const invoiceId = new URL(link).pathname.split('/').pop()!
    expect((await checkout.invoiceOnChain(BigInt(invoiceId))).status).toBe(registryStatusOf.Issued)

    // the customer pays it from the link, in a page of their own with a wallet of their own
    const payer = await createPayer(devnetClients(rpcUrl, chainId), { chainId, ...contracts }, parseUnits('100', 6))
    const payerContext = await checkout.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })
    const payerPage = await payerContext.newPage()
    await injectTestWallet(payerPage, { privateKey: payer.ownerPrivateKey, rpcUrl, chainId })
    await payerPage.goto(link)
    await payerPage.getByRole('heading', { name: 'Choose a wallet to pay with' }).waitFor({ timeout: 20_000 })
    await payerPage.getByRole('button', { name: 'Test Wallet' }).click()
    await payerPage.getByRole('button', { name: /^Pay / }).waitFor({ timeout: 20_000 })
    await clickPay(payerPage)
    await payerPage.getByRole('heading', { name: 'Payment received' }).waitFor({ timeout: 30_000 })
    await payerContext.close()

    // the owner sees it Paid, once the index has the payment
    const row = page.getByRole('row').filter({ hasText: '10.00 USDC' }).filter({ has: page.getByRole('button', { name: /^Refund invoice / }) })
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click()
        return row.count()
      }, { timeout: 30_000 })
      .toBe(1)
    expect(await row.getByRole('cell', { name: 'Paid' }).count()).toBe(1)

    // the export carries the payment
    await page.getByRole('link', { name: 'Payments' }).click()
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor()
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export the last year as CSV' }).click()
    const csv = readFileSync((await (await download).path())!, 'utf8').toLowerCase()
    expect(csv.split('\n').some((line) => line.includes(payer.vault.toLowerCase()) && line.includes(`,${invoiceId},`) && line.includes(',10000000,'))).toBe(true)

    // half refunded to the payer: the amount, the payer and the invoice read before signing
    await page.getByRole('link', { name: 'Invoices' }).click()
    await row.getByRole('button', { name: /^Refund invoice / }).click()
    await page.getByLabel('Amount to refund (USDC)').fill('5')
    const payerBefore = await checkout.balanceOf(payer.vault)
    await page.getByRole('button', { name: 'Prepare the refund' }).click()
    await review.waitFor({ timeout: 30_000 })
    expect(await review.locator('.intent').textContent()).toBe(`Refund 5 USDC of invoice ${invoiceId} to ${payer.vault}`)
    await accessibleAtEveryWidth(page, 'sign-refund')
    await review.getByRole('button', { name: 'Sign in my wallet' }).click()
    await page.getByRole('status').filter({ hasText: /^5\.00 USDC of invoice .+ refunded to the payer\.$/ }).waitFor({ timeout: 30_000 })
    expect(await checkout.balanceOf(payer.vault)).toBe(payerBefore + parseUnits('5', 6))

    // withdrawn to the withdrawal address the owner sets here; the balance is shown first
    await page.getByRole('link', { name: 'Withdrawals' }).click()
    await page.getByRole('heading', { level: 1, name: 'Withdrawals' }).waitFor()
    await expect.poll(() => page.getByText(/^Your vault holds [\d.]+ USDC\.$/).count()).toBe(1)
    const destination = privateKeyToAccount(generatePrivateKey()).address
    await page.getByLabel('New withdrawal address (0x…)').fill(destination)
    await page.getByRole('button', { name: 'Save address' }).click()
    await page.getByRole('status').filter({ hasText: 'Withdrawal address saved.' }).waitFor()
    await accessibleAtEveryWidth(page, 'withdrawals')
    await page.getByLabel('Amount to withdraw (USDC)').fill('1.5')
    await page.getByRole('button', { name: 'Prepare the withdrawal' }).click()
    await review.waitFor({ timeout: 30_000 })
    expect(await review.locator('.intent').textContent()).toBe(`Withdraw 1.5 USDC to ${destination}`)
    await review.getByRole('button', { name: 'Sign in my wallet' }).click()
    await page.getByRole('status').filter({ hasText: '1.5 USDC withdrawn to your withdrawal address.' }).waitFor({ timeout: 30_000 })
    expect(await checkout.balanceOf(destination)).toBe(parseUnits('1.5', 6))
    await page.getByRole('cell', { name: destination }).waitFor()

    // every message the wallet signed named the studio's vault on the devnet, and came after its words
    expect(wallet.typed.map((typed) => typed.primaryType)).toEqual(['Issue', 'Refund', 'Withdrawal'])
    for (const typed of wallet.typed) expect([String(typed.domain.verifyingContract).toLowerCase(), typed.domain.chainId]).toEqual([merchant.vault.toLowerCase(), chainId])
    await context.close()
  }, 240_000)
})
