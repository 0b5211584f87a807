import jsQR from 'jsqr'
import type { BrowserContextOptions, Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { devnetClients } from '../../devnet/deploy'
import { createPayer } from '../../devnet/seed'
import { loadLocale } from '../../src/ui/strings'
import { accessibilityViolations } from './support/accessibilityViolations'
import { screenshot } from './support/browser'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { injectTestWallet } from './support/testWallet'

/**
 * What a payer reads of fees and of where to send funds (issue 38): one sentence, from the chain's own
 * run of the operation, says that the payer pays exactly the invoice and no network fee while the
 * merchant's service fee comes out of its share, to the cent in every language; "Not enough funds"
 * names the network and the token beside the address to send to, and a phone is shown no QR code of
 * its own address.
 */

const checkout = useCheckoutInBrowser()
const heading = (page: Page) => page.locator('#svc-widget-heading').textContent()

const phone: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
}
const laptop: BrowserContextOptions = { viewport: { width: 1280, height: 900 } }
const devices = [
  [390, phone],
  [1280, laptop],
] as const

/** A payer with `funds` in their vault, on a page of its own context (axe runs in a second page of it). */
async function payerPage(locale: string, device: BrowserContextOptions, funds: bigint) {
  const clients = devnetClients(checkout.devnet.file.rpcUrl, checkout.devnet.file.chainId)
  const payer = await createPayer(clients, checkout.deployment(), funds)
  const page = await (await checkout.browser.newContext({ ...device, locale })).newPage()
  const wallet = await injectTestWallet(page, { privateKey: payer.ownerPrivateKey, rpcUrl: checkout.devnet.file.rpcUrl, chainId: checkout.devnet.file.chainId })
  return { page, payer, wallet }
}

/** Connects, pays, and stops at the wallet's Payment signature: the state where the page shows what the
 * operation moves. The invoice has no record naming the payee, so the page asks once more. */
async function toSigning(locale: string, device: BrowserContextOptions, amount: bigint) {
  const { strings: t } = await loadLocale([locale])
  const invoice = await checkout.freshInvoice(amount)
  const { page, wallet } = await payerPage(locale, device, parseUnits('10000', 6))
  const held = wallet.holdNext('Payment')
  await page.goto(invoice.url)
  await page.getByRole('button', { name: 'Test Wallet' }).click()
  await page.locator('.svc-widget button.svc-primary').click()
  await expect.poll(() => page.getByText(t.payUnnamedConfirm).isVisible(), { timeout: 20_000 }).toBe(true)
  await page.locator('.svc-widget button.svc-primary').click()
  const release = await held
  await expect.poll(() => heading(page), { timeout: 20_000 }).toBe(t.signingTitle)
  return { page, release, t }
}

describe('the fee, as the payer reads it before signing', () => {
  test.each(devices)('behavior: at %i px one sentence says the payer pays exactly the amount and no network fee, and the payee bears its service fee', async (width, device) => {
    const { page, release } = await toSigning('en-US', device, parseUnits('248', 6))
    await expect
      .poll(() => page.locator('.svc-simulated').textContent(), { timeout: 20_000 })
      .toBe('Tried on the blockchain just now, before you sign: you pay exactly 248.00 USDC, with no network fee (it is sponsored); the payee receives 245.52 USDC, as its service fee of 2.48 USDC comes out of its share, not out of what you pay.')
    // the summary above says the same of the network fee: no bare "fee" contradicts it
    expect(await page.locator('.svc-summary-fee').textContent()).toBe(' · network fee: none (sponsored)')
    expect(await page.locator('.svc-widget').textContent()).not.toMatch(/· fee /)
    await screenshot(page, `fees-${width}-en-simulated`)
    expect(await accessibilityViolations(page)).toEqual([])
    release()
    await expect.poll(() => heading(page), { timeout: 30_000 }).toBe('Payment received')
    await page.context().close()
  }, 120_000)

  test.each(devices)('behavior: at %i px in German, a fee in fractions of a cent is shown to the cent, and the payee\'s share and the fee add up to the amount shown', async (width, device) => {
    // the devnet's rate is 1%: of 1,336.50 USDC the chain moves 13.365 to the fee and 1,323.135 to the merchant
    const { page, release } = await toSigning('de-DE', device, parseUnits('1336.5', 6))
    const sentence = page.locator('.svc-simulated')
    await expect
      .poll(() => sentence.textContent(), { timeout: 20_000 })
      .toBe(
        'Soeben auf der Blockchain durchgespielt, bevor Sie unterschreiben: Sie zahlen genau 1.336,50 USDC, ohne Netzwerkgebühr (sie wird übernommen); der Empfänger erhält 1.323,13 USDC, denn die Servicegebühr von 13,37 USDC geht vom Anteil des Empfängers ab, nicht zu Ihren Lasten.',
      )
    expect(await sentence.textContent()).not.toMatch(/\d,\d{3}\b/)
    await screenshot(page, `fees-${width}-de-simulated`)
    expect(await accessibilityViolations(page)).toEqual([])
    release()
    await page.context().close()
  }, 120_000)
})

describe('not enough funds, as the payer reads where to send them', () => {
  const token = () => checkout.devnet.file.contracts.token
  const short = (hex: string) => `${hex.slice(0, 6)}…${hex.slice(-4)}`

  test.each(devices)('behavior: at %i px the address to send to comes with the network and the token, its contract to copy; a QR code only where another device can scan it', async (width, device) => {
    const invoice = await checkout.freshInvoice(parseUnits('248', 6))
    const { page, payer } = await payerPage('en-US', device, 0n)
    await page.goto(invoice.url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Not enough funds')
    const fund = page.locator('.svc-fund')
    await expect.poll(() => fund.locator('.svc-fund-label').textContent()).toBe("Your payment account's address (send the missing amount here)")
    expect(await fund.getByRole('button', { name: `Copy address ${payer.vault}` }).count()).toBe(1)
    expect(await fund.locator('dt').allTextContents()).toEqual(['Network', 'Token'])
    expect(await fund.locator('dd').first().textContent()).toBe('svc-checkout devnet')
    expect(await fund.locator('dd').nth(1).locator('.svc-hex-short').textContent()).toBe(short(token()))
    expect(await fund.locator('dd').nth(1).textContent()).toMatch(/^USDC /)
    expect(await fund.getByRole('button', { name: `Copy token contract ${token()}` }).isVisible()).toBe(true)
    // one name for it: the summary above calls it "Your payment account" too, never a "vault"
    expect(await page.locator('.svc-details dt', { hasText: 'Your payment account' }).count()).toBe(1)
    expect(await page.locator('.svc-widget').textContent()).not.toMatch(/vault/i)
    const qr = page.getByRole('img', { name: `QR code of the address ${payer.vault}` })
    if (width === 390) {
      // a phone would have to scan its own screen: no code, and the network and token stay in view
      await page.waitForTimeout(500)
      expect(await page.locator('.svc-qr').count()).toBe(0)
    } else {
      await qr.locator('path').waitFor()
      const png = PNG.sync.read(await qr.screenshot())
      expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(payer.vault)
    }
    await screenshot(page, `funds-${width}-insufficient`)
    expect(await accessibilityViolations(page)).toEqual([])
    await page.context().close()
  }, 120_000)
})
