import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { describe, expect, test } from 'vitest'
import { registryStatusOf } from '../../shared/invoiceStatus'
import { accessibleAtEveryWidth } from './support/accessibleAtEveryWidth'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { injectTestWallet } from './support/testWallet'

/**
 * The merchant dashboard in chromium against the devnet `npm start` runs: the demo merchant signs in
 * through the identity provider's real login form, creates a customer and an invoice, and the share
 * link the dashboard hands over opens the pay page with that invoice; the invoice is issued and canceled
 * by the owner's own wallet (an injected EIP-6963 wallet holding the demo owner's key), each message
 * shown in words before the wallet is asked. Every view is checked by axe
 * against WCAG 2.2 AA at a desktop and a phone width. One page and few loads: each costs seconds.
 */

const checkout = useCheckoutInBrowser()

describe('the merchant dashboard', () => {
  test("behavior: the demo merchant signs in through the provider, creates a customer and an invoice signed in the owner's wallet, and its share link opens the pay page, then mails, downloads and cancels it with the wallet", async () => {
    const { dashboardUrl, merchant, rpcUrl, chainId } = checkout.devnet.file
    expect(dashboardUrl).toBeDefined()
    const context = await checkout.browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(dashboardUrl!).origin })
    const page = await context.newPage()
    const wallet = await injectTestWallet(page, { privateKey: merchant.ownerPrivateKey, rpcUrl, chainId, name: 'Owner Wallet' })

    // the page says where the merchant is before its script has run
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/dashboard/assets/*.js', async (route) => {
      await held
      await route.continue()
    })
    const response = await page.goto(dashboardUrl!, { waitUntil: 'commit' })
    expect(response!.headers()['content-security-policy']).toMatch(/script-src 'self';/)
    await page.getByRole('heading', { level: 1, name: 'Merchant dashboard' }).waitFor()
    release()

    // signed out: one button to the provider
    await page.getByRole('button', { name: 'Sign in' }).waitFor()
    await page.unroute('**/dashboard/assets/*.js')
    await accessibleAtEveryWidth(page, 'sign-in', 'dashboard-')
    // from the keyboard: the language switch in the bar, then the button, and Enter leaves for the provider
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('dashboard-language')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Sign in')
    await page.keyboard.press('Enter')

    // the provider's own login and consent forms, as the merchant fills them
    await page.getByLabel('Email').fill(merchant.login!.email)
    await page.getByLabel('Password').fill(merchant.login!.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    const allow = page.getByRole('button', { name: 'Allow' })
    const invoicesHeading = page.getByRole('heading', { level: 1, name: 'Invoices' })
    await Promise.race([allow.waitFor(), invoicesHeading.waitFor()])
    if (await allow.isVisible()) await allow.click()

    // back on the dashboard with the provider's code spent and gone from the address; the demo
    // profile is complete, so no first-run form stands in the way
    await invoicesHeading.waitFor()
    expect(new URL(page.url()).search).toBe('')
    expect(await page.evaluate(() => document.cookie)).toBe('')
    await accessibleAtEveryWidth(page, 'invoices', 'dashboard-')

    // a customer, created in the form
    const customerName = `Dashboard Customer ${Date.now()}`
    await page.getByRole('link', { name: 'Customers' }).click()
    await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor()
    await accessibleAtEveryWidth(page, 'customers', 'dashboard-')
    await page.getByLabel('Legal name').fill(customerName)
    await page.getByLabel('Email').fill('accounts@customer.example')
    await page.getByLabel('Street').fill('Hauptstraße 1')
    await page.getByLabel('City').fill('Hamburg')
    await page.getByLabel('Postal code').fill('20095')
    await page.getByLabel('Country (two letters, such as DE)').fill('DE')
    // a mistake first: the API's words for it, on the page
    await page.getByRole('button', { name: 'Create customer' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('an entity needs its registration number')
    // Enter in the last field sends the form, as a keyboard user sends it
    await page.getByLabel('Registration number (companies)').fill('HRB 12345')
    await page.getByLabel('Registration number (companies)').press('Enter')
    await expect.poll(() => page.getByRole('status').textContent()).toBe(`Customer ${customerName} created.`)
    await page.getByRole('cell', { name: customerName }).waitFor()

    // an invoice to that customer: the share link, copied
    await page.getByRole('link', { name: 'Invoices' }).click()
    await invoicesHeading.waitFor()
    await page.getByLabel('Customer', { exact: true }).selectOption({ label: `${customerName} (accounts@customer.example)` })
    await page.getByLabel('Amount (USDC)').fill('12.5')
    await page.getByLabel('Due in (days)').fill('14')
    await page.getByLabel('Description (optional)').fill('Dashboard-issued consulting')
    await page.getByRole('button', { name: 'Issue invoice' }).click()
    // the owner's wallet, connected once; then the message in words, and nothing asked of the wallet yet
    await page.getByRole('button', { name: 'Connect Owner Wallet' }).click()
    const review = page.getByRole('region', { name: 'Check what you sign' })
    await review.waitFor({ timeout: 30_000 })
    expect(await review.locator('.intent').textContent()).toMatch(/^Issue an invoice for 12\.5 USDC, due \d{4}-\d\d-\d\dT/)
    expect(await review.getByRole('listitem').allTextContents()).toEqual(expect.arrayContaining(['Amount: 12.5 USDC', 'Merchant vault: Your vault', 'Invoice registry: Invoice registry']))
    expect(wallet.typed).toEqual([])
    await accessibleAtEveryWidth(page, 'sign-issue', 'dashboard-')
    await review.getByRole('button', { name: 'Sign in my wallet' }).click()
    const shareLink = page.getByRole('link', { name: 'Share link' })
    await shareLink.waitFor({ timeout: 30_000 })
    const link = (await shareLink.getAttribute('href'))!
    expect(link).toMatch(/\/pay\/\d+\?token=/)
    // what the wallet signed: the vault's Issue message, under the studio's own vault on the devnet
    expect(wallet.typed).toHaveLength(1)
    expect(wallet.typed[0]).toMatchObject({ primaryType: 'Issue', domain: { chainId }, message: { amount: '12500000' } })
    expect(String(wallet.typed[0]!.domain.verifyingContract).toLowerCase()).toBe(merchant.vault.toLowerCase())
    // its QR code says the same link to a phone's camera
    const qr = page.getByRole('img', { name: /share link, for a phone's camera$/ })
    await expect.poll(async () => {
      const png = PNG.sync.read(await qr.screenshot())
      return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data
    }).toBe(link)
    await page.getByRole('button', { name: 'Copy link' }).click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(link)
    await accessibleAtEveryWidth(page, 'invoice-issued', 'dashboard-')

    // the list shows it Issued once the registry's follower has indexed it
    const invoiceId = new URL(link).pathname.split('/').pop()!
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click()
        return page.getByRole('row').filter({ hasText: '12.50 USDC' }).filter({ hasText: 'Issued' }).count()
      })
      .toBeGreaterThan(0)

    // the payer's side: the share link opens the pay page showing this invoice
    const payer = await context.newPage()
    await payer.goto(link)
    await expect.poll(() => payer.getByText('Dashboard-issued consulting').first().isVisible()).toBe(true)
    await expect.poll(() => payer.getByText('Checked: the amount, recipient and due date match the payment record.').isVisible()).toBe(true)
    expect(new URL(payer.url()).pathname).toBe(`/pay/${invoiceId}`)
    await payer.close()

    // the invoice's row: its PDF, its mail sent again, then canceled by the server's signer
    const row = page.getByRole('row').filter({ hasText: '12.50 USDC' })
    const pdf = page.waitForEvent('download')
    await row.getByRole('button', { name: /^PDF of invoice / }).click()
    expect((await pdf).suggestedFilename()).toMatch(/^invoice-.+\.pdf$/)
    await row.getByRole('button', { name: /^Email invoice .+ again$/ }).click()
    await page.getByRole('status').filter({ hasText: /^Invoice .+ sent to the customer\.$/ }).waitFor()
    await row.getByRole('button', { name: /^Cancel invoice / }).click()
    await review.waitFor({ timeout: 30_000 })
    expect(await review.locator('.intent').textContent()).toBe(`Cancel invoice ${invoiceId}`)
    await review.getByRole('button', { name: 'Sign in my wallet' }).click()
    await page.getByRole('status').filter({ hasText: /^Invoice .+ canceled\.$/ }).waitFor({ timeout: 30_000 })
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click()
        return row.getByRole('cell', { name: 'Canceled' }).count()
      })
      .toBe(1)
    // and the registry holds it canceled
    expect((await checkout.invoiceOnChain(BigInt(invoiceId))).status).toBe(registryStatusOf.Canceled)

    // payments and its export
    await page.getByRole('link', { name: 'Payments' }).click()
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor()
    await page.getByRole('button', { name: 'Export the last year as CSV' }).waitFor()
    await accessibleAtEveryWidth(page, 'payments', 'dashboard-')
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export the last year as CSV' }).click()
    expect((await download).suggestedFilename()).toBe('payments.csv')

    // the first-run form, as a studio without a complete profile sees it (the one answer replaced)
    await page.route('**/v1/studios/me/profile', (route) =>
      route.request().method() === 'GET' ? route.fulfill({ json: { success: true, profile: null, profileComplete: false } }) : route.continue(),
    )
    await page.reload()
    await page.getByRole('heading', { level: 1, name: 'Your business profile' }).waitFor()
    await accessibleAtEveryWidth(page, 'first-run', 'dashboard-')
    await context.close()

    // a browser set to German gets the German catalog, its page marked as German for screen readers
    const german = await checkout.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'de-DE' })
    const germanPage = await german.newPage()
    await germanPage.goto(dashboardUrl!)
    await germanPage.getByRole('heading', { level: 1, name: 'Anmelden' }).waitFor()
    expect(await germanPage.evaluate(() => document.documentElement.lang)).toBe('de')
    await accessibleAtEveryWidth(germanPage, 'sign-in-de', 'dashboard-')
    await german.close()
  }, 180_000)
})
