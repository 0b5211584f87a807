import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import type { BrowserContextOptions, Page } from 'playwright-core'
import { parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { devnetClients } from '../../devnet/deploy'
import { createPayer } from '../../devnet/seed'
import { loadLocale, type Strings } from '../../src/ui/strings'
import { afterPayStrings } from '../../src/ui/strings.afterPay'
import { accessibilityViolations } from './support/accessibilityViolations'
import { screenshot } from './support/browser'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { injectTestWallet } from './support/testWallet'

const checkout = useCheckoutInBrowser()
const strings = async (code: string): Promise<Strings> => (await loadLocale([code])).strings
const heading = (page: Page) => page.locator('#svc-widget-heading').textContent()

const phone: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
}
const desktop: BrowserContextOptions = { viewport: { width: 1280, height: 900 } }

async function freshPayer(funds = parseUnits('10000', 6)) {
  const clients = devnetClients(checkout.devnet.file.rpcUrl, checkout.devnet.file.chainId)
  return createPayer(clients, { chainId: checkout.devnet.file.chainId, ...checkout.devnet.file.contracts }, funds)
}

/** A page in its own context (axe runs in a second page of it), in a language, with or without a wallet. */
async function pageIn(locale: string, device: BrowserContextOptions, wallet?: { ownerPrivateKey: `0x${string}`; startChainId?: number }) {
  const page = await (await checkout.browser.newContext({ ...device, locale })).newPage()
  if (wallet) {
    const { ownerPrivateKey, startChainId } = wallet
    await injectTestWallet(page, { privateKey: ownerPrivateKey, rpcUrl: checkout.devnet.file.rpcUrl, chainId: checkout.devnet.file.chainId, ...(startChainId === undefined ? {} : { startChainId }) })
  }
  return page
}

/** The QR code in the page, read back from its pixels as a phone's camera would. */
async function qrText(page: Page): Promise<string | null> {
  await page.locator('.svc-qr path').waitFor()
  const png = PNG.sync.read(await page.locator('.svc-qr-frame').screenshot())
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null
}

/** What each wallet app opens, read from its link the way the wallet's documentation says it does. */
function openedBy(href: string): string {
  const url = new URL(href)
  if (url.host === 'link.metamask.io') return `https://${href.slice('https://link.metamask.io/dapp/'.length)}`
  if (url.host === 'go.cb-w.com') return url.searchParams.get('cb_url')!
  if (url.host === 'phantom.app') return decodeURIComponent(url.pathname.slice('/ul/browse/'.length))
  return url.searchParams.get('url')!
}

/** A payment in a language, start to receipt, every state checked against that language's catalog. */
async function payIn(code: string, device: BrowserContextOptions, shareLink: string, name: string, unnamedPayee = false) {
  const t = await strings(code)
  const payer = await freshPayer()
  const page = await pageIn(code, device, payer)
  await page.goto(shareLink)
  expect(await page.locator('html').getAttribute('lang')).toBe(code)
  expect(await page.locator('html').getAttribute('dir')).toBe(code === 'ar' ? 'rtl' : 'ltr')
  await expect.poll(() => heading(page)).toBe(t.chooseWallet)
  await expect.poll(() => page.locator('h1').first().textContent()).toMatch(new RegExp(`^${t.invoiceTitle('').trim().replace(/[\u2066\u2069]/g, '')}`))
  await screenshot(page, `${name}-01-choose-wallet`)
  expect(await accessibilityViolations(page)).toEqual([])
  await page.getByRole('button', { name: 'Test Wallet' }).click()
  const pay = page.getByRole('button', { name: new RegExp(code === 'ar' ? '^ادفع' : 'を支払う$') }).first()
  await pay.waitFor()
  await screenshot(page, `${name}-02-ready-to-pay`)
  await pay.click()
  if (unnamedPayee) {
    // no verified record names the payee (a link without its token): the page asks once more
    await expect.poll(() => page.getByText(t.payUnnamedConfirm).isVisible()).toBe(true)
    await screenshot(page, `${name}-02b-confirm-unnamed-payee`)
    await page.locator('.svc-widget button.svc-primary').click()
  }
  await expect.poll(() => heading(page), { timeout: 30_000 }).toBe(t.receiptTitle)
  await screenshot(page, `${name}-03-receipt`)
  expect(await accessibilityViolations(page)).toEqual([])
  await page.reload()
  await expect.poll(() => page.getByText(t.paidTitle).first().isVisible()).toBe(true)
  await screenshot(page, `${name}-04-paid-page`)
  await page.context().close()
}

describe('the checkout in the payer\'s language, and from a browser with no wallet', () => {
  test('behavior: a payment in Japanese (Accept-Language: ja) is Japanese in every state, and axe finds nothing', async () => {
    await payIn('ja', desktop, checkout.devnet.file.invoices[1]!.shareLink, 'ja-1280')
  }, 120_000)

  test.each([
    ['390', phone],
    ['1280', desktop],
  ])('behavior: in Arabic at %s px, right to left in every state a payer reaches, figures left to right, and axe finds nothing', async (width, device) => {
    const t = await strings('ar')
    const name = (state: string) => `ar-${width}-${state}`
    // a payment from start to receipt
    const invoice = width === '1280' ? checkout.devnet.file.invoices[2]! : { shareLink: (await checkout.freshInvoice(parseUnits('12.5', 6))).url }
    await payIn('ar', device, invoice.shareLink, name('pay'), width === '390')

    const open = checkout.devnet.file.invoices[0]!
    // no wallet in this browser: the QR code on a computer, the wallet apps on a phone
    const bare = await pageIn('ar', device)
    await bare.goto(open.shareLink)
    await expect.poll(() => bare.getByText(width === '390' ? t.openInWalletTitle : t.payOnPhoneTitle).isVisible()).toBe(true)
    if (width === '1280') await bare.locator('.svc-qr path').waitFor()
    else await bare.locator('.svc-wallet-apps a').first().waitFor()
    await screenshot(bare, name('05-no-wallet'))
    expect(await accessibilityViolations(bare)).toEqual([])
    // the language switch, open
    await bare.locator('.svc-lang summary').click()
    await screenshot(bare, name('06-language-switch'))
    await bare.context().close()

    // a wallet on another network
    const wrong = await pageIn('ar', device, { ...(await freshPayer()), startChainId: 1 })
    await wrong.goto(open.shareLink)
    await wrong.getByRole('button', { name: 'Test Wallet' }).click()
    await expect.poll(() => heading(wrong)).toBe(t.wrongNetworkTitle)
    await screenshot(wrong, name('07-wrong-network'))
    await wrong.context().close()

    // too little in the vault
    const poor = await pageIn('ar', device, await freshPayer(parseUnits('1', 6)))
    await poor.goto(open.shareLink)
    await poor.getByRole('button', { name: 'Test Wallet' }).click()
    await expect.poll(() => heading(poor)).toBe(t.insufficientTitle)
    // the amount inside the Arabic sentence reads left to right: figure, then symbol
    const missing = await poor.getByText(/يلزم/).textContent()
    expect(missing).toMatch(/\u2066\u2066[\d,.٬٫]+\u00a0USDC\u2069\u2069/)
    await screenshot(poor, name('08-insufficient'))
    expect(await accessibilityViolations(poor)).toEqual([])
    await poor.context().close()

    // a server answer tampered in flight: stopped, explained in Arabic
    const tampered = await pageIn('ar', device, await freshPayer())
    await tampered.route('**/v1/pay/*/prepare', async (route) => {
      const response = await route.fetch()
      const body = await response.json()
      body.userOp.callData = body.userOp.callData.replace(BigInt(open.id).toString(16).padStart(64, '0'), (BigInt(open.id) + 1n).toString(16).padStart(64, '0'))
      await route.fulfill({ response, json: body })
    })
    await tampered.goto(open.shareLink)
    await tampered.getByRole('button', { name: 'Test Wallet' }).click()
    await tampered.getByRole('button', { name: /^ادفع/ }).first().click()
    await expect.poll(() => heading(tampered), { timeout: 30_000 }).toBe(t.unsafeTitle)
    await expect.poll(() => tampered.getByText(afterPayStrings(t).unsafeBody).isVisible()).toBe(true)
    await screenshot(tampered, name('09-unsafe'))
    expect(await accessibilityViolations(tampered)).toEqual([])
    await tampered.context().close()

    // a link to no invoice
    const lost = await pageIn('ar', device)
    await lost.goto(`${checkout.devnet.file.serverUrl}/pay/999999999?token=svc_tk_${'A'.repeat(43)}`)
    await expect.poll(() => lost.getByText(t.notFoundTitle).first().isVisible()).toBe(true)
    expect(await lost.locator('html').getAttribute('dir')).toBe('rtl')
    await screenshot(lost, name('10-not-found'))
    await lost.context().close()
  }, 240_000)

  test('behavior: on a computer with no wallet, "Pay on your phone" shows a QR code that reads as the exact share link, token included', async () => {
    const invoice = checkout.devnet.file.invoices[0]!
    const page = await pageIn('en', desktop)
    await page.goto(invoice.shareLink)
    await expect.poll(() => page.getByRole('heading', { name: 'Pay on your phone' }).isVisible()).toBe(true)
    expect(await page.getByRole('img', { name: 'QR code of the link to this invoice' }).count()).toBe(1)
    expect(await qrText(page)).toBe(invoice.shareLink)
    expect(invoice.shareLink).toMatch(/\?token=svc_tk_/)
    // a phone's links are not offered on a computer
    expect(await page.locator('.svc-wallet-apps').count()).toBe(0)
    await screenshot(page, 'en-1280-pay-on-phone')
    await page.context().close()
  }, 60_000)

  test('behavior: on a phone with no wallet, each wallet app\'s link opens the exact share link; no QR code', async () => {
    const invoice = checkout.devnet.file.invoices[0]!
    const page = await pageIn('en', phone)
    await page.goto(invoice.shareLink)
    await expect.poll(() => page.getByRole('heading', { name: 'Open in your wallet app' }).isVisible()).toBe(true)
    const links = page.locator('.svc-wallet-apps a')
    await expect.poll(() => links.count()).toBe(4)
    const found = await links.evaluateAll((anchors) => anchors.map((a) => ({ text: a.textContent, href: (a as HTMLAnchorElement).href, rel: a.getAttribute('rel') })))
    // MetaMask's link opens https only: on the devnet's http page it is left out (src/wallet/walletAppLinks.ts)
    expect(found.map(({ text }) => text)).toEqual(['Open in Base (Coinbase Wallet)', 'Open in Trust Wallet', 'Open in Rainbow', 'Open in Phantom'])
    for (const { href, rel } of found) {
      expect(openedBy(href)).toBe(invoice.shareLink)
      expect(rel).toBe('noreferrer')
    }
    expect(await page.locator('.svc-qr').count()).toBe(0)
    await screenshot(page, 'en-390-open-in-wallet')
    await page.context().close()
  }, 60_000)

  test('behavior: the language switch keeps the token, and the pick is remembered for the next share link', async () => {
    const [first, second] = checkout.devnet.file.invoices
    const page = await pageIn('en-US', desktop)
    await page.goto(first!.shareLink)
    await page.locator('.svc-lang summary').click()
    await page.getByRole('link', { name: '日本語' }).click()
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('ja')
    const url = new URL(page.url())
    expect([url.searchParams.get('token'), url.searchParams.get('lang')]).toEqual([new URL(first!.shareLink).searchParams.get('token'), 'ja'])
    const ja = await strings('ja')
    await expect.poll(() => heading(page)).toBe(ja.chooseWallet)
    await page.goto(second!.shareLink)
    expect(await page.locator('html').getAttribute('lang')).toBe('ja')
    await page.context().close()
  }, 60_000)
})
