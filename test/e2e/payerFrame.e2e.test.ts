import type { BrowserContextOptions, Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { devnetClients } from '../../devnet/deploy'
import { mintTo } from '../../devnet/seed'
import { loadLocale, type Strings } from '../../src/ui/strings'
import { signedRequest } from '../support/signedRequest'
import { workerCheckout } from '../support/workerCheckout'
import { accessibilityViolations } from './support/accessibilityViolations'
import { screenshot } from './support/browser'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { answerDevnetWallet } from './support/devnetWalletPrompt'
import { injectTestWallet } from './support/testWallet'

/**
 * What frames the payment as a payer meets it, at 390 and 1280 px: a share link whose token opens
 * nothing (expired, another invoice's, revoked, garbage, cut short) says only what is known and offers
 * only the chain's invoice; the dead ends keep the page's frame; addresses keep their order in
 * Arabic; German step labels stay in their columns; the card fits what it shows once the payment is
 * back a step or done.
 */

const checkout = useCheckoutInBrowser()
const widths = [390, 1280] as const
const strings = async (code: string): Promise<Strings> => (await loadLocale([code])).strings
const heading = (page: Page) => page.locator('#svc-widget-heading').textContent()
const device = (width: number): BrowserContextOptions => ({ viewport: { width, height: width < 500 ? 844 : 900 } })
const deployment = () => ({ chainId: checkout.devnet.file.chainId, ...checkout.devnet.file.contracts })

/** A page of its own context (axe runs a second page in it): no wallet unless given, so the devnet's own is the one offered. */
async function pageAt(width: number, locale = 'en-US', options: BrowserContextOptions = {}) {
  return (await checkout.browser.newContext({ ...device(width), locale, ...options })).newPage()
}

const withToken = (shareLink: string, token: string) => {
  const url = new URL(shareLink)
  url.searchParams.set('token', token)
  return url.toString()
}
const tokenOf = (shareLink: string) => new URL(shareLink).searchParams.get('token')!

/** Open invoices of a demo set of the worker's devnet besides this file's own (which the bad links use). */
let second: ReturnType<Awaited<ReturnType<typeof workerCheckout>>['newDemoSet']> | undefined
const moreInvoices = async () => (await (second ??= workerCheckout().then((worker) => worker.newDemoSet()))).invoices

/** Share links whose token opens nothing, each as a payer could hold one; the revoked and expired
 * ones made through the merchant's API, as a merchant would. */
let deadLinks: Promise<[string, string][]> | undefined
function badLinks(): Promise<[string, string][]> {
  deadLinks ??= (async () => {
    const { invoices, serverUrl, merchant } = checkout.devnet.file
    const [first, second, third, fourth] = invoices
    // first, so that it runs out while the other link is revoked
    const expiring = await signedRequest(serverUrl, merchant.apiKey, { method: 'POST', path: `/v1/invoices/${fourth!.id}/tokens`, body: JSON.stringify({ expiresAt: new Date(Date.now() + 1_500).toISOString() }) })
    expect(expiring.status).toBe(201)
    const revoked = await signedRequest(serverUrl, merchant.apiKey, { method: 'POST', path: `/v1/invoices/${third!.id}/share/regenerate` })
    expect(revoked.status).toBe(200)
    // until the server no longer opens the expiring link's details: it has expired
    const detailsOf = async (shareLink: string) => {
      const { pathname, searchParams } = new URL(shareLink)
      return ((await (await fetch(`${serverUrl}/v1${pathname}/metadata?token=${searchParams.get('token')}`)).json()) as { accessLevel: string }).accessLevel
    }
    await expect.poll(() => detailsOf(expiring.body.shareLink as string), { timeout: 10_000, interval: 250 }).toBe('onchain_only')
    const token = tokenOf(first!.shareLink)
    return [
      ['garbage', withToken(first!.shareLink, `svc_tk_${'x'.repeat(43)}`)],
      ['cut short', withToken(first!.shareLink, token.slice(0, -6))],
      ["another invoice's", withToken(first!.shareLink, tokenOf(second!.shareLink))],
      ['revoked', third!.shareLink],
      ['expired', expiring.body.shareLink as string],
    ]
  })()
  return deadLinks
}

describe('the page\'s frame, as a payer meets it', () => {
  test.each(widths)('behavior: at %i px a link whose token opens nothing says so without a cause it cannot know, offers only the chain\'s invoice (no QR code of the link, no ✓ beside the unconfirmed name)', { timeout: 120_000 }, async (width) => {
    const t = await strings('en')
    for (const [kind, link] of await badLinks()) {
      const page = await pageAt(width)
      const answer = await page.goto(link)
      expect(answer?.status(), kind).toBe(200)
      await expect.poll(() => page.getByRole('heading', { name: 'This link does not open this invoice\'s details' }).isVisible(), { message: kind }).toBe(true)
      expect(await page.getByText(t.deadLinkBody).isVisible()).toBe(true)
      // read from the chain, and said to be: no ✓ on the line beside the name that is not confirmed
      await expect.poll(() => page.locator('.svc-chain-status > :not([hidden])').textContent(), { timeout: 15_000, message: kind }).toBe(t.trustCheckedNoDocument)
      expect(await page.getByText(/^The recipient's name could not be confirmed/).isVisible()).toBe(true)
      // the chain's invoice is payable (its amount to its address), and the dead link is carried nowhere
      await page.getByRole('button', { name: 'Devnet wallet (demo payer)' }).waitFor({ timeout: 15_000 })
      expect(await heading(page)).toBe('Choose a wallet to pay with')
      expect(await page.locator('.svc-elsewhere, .svc-qr-frame, .svc-wallet-apps').count(), kind).toBe(0)
      const body = (await page.locator('body').innerText())!
      expect(body).not.toMatch(/withdrew|no longer works|Pay on your phone/)
      expect(body).not.toContain('✓')
      if (kind === 'garbage') {
        await screenshot(page, `frame-${width}-dead-link`)
        expect(await accessibilityViolations(page)).toEqual([])
      }
      await page.context().close()
    }
  })

  test.each(widths)('behavior: at %i px a malformed link and an unknown invoice are pages in the page\'s frame: the language switch, the brand scope, a card', { timeout: 60_000 }, async (width) => {
    const { serverUrl } = checkout.devnet.file
    // as the server sends them, before any script: the frame is there already
    const bare = await pageAt(width, 'en-US', { javaScriptEnabled: false })
    for (const [path, status, title] of [['/pay/abc', 400, 'This link is not complete'], ['/pay/987654321', 404, 'Invoice not found']] as const) {
      expect((await bare.goto(`${serverUrl}${path}`))?.status()).toBe(status)
      expect(await bare.locator('.svc-brand-scope .svc-banner h1').textContent()).toBe(title)
      expect(await bare.getByRole('navigation', { name: 'Language' }).isVisible()).toBe(true)
    }
    await bare.context().close()

    const page = await pageAt(width)
    await page.goto(`${serverUrl}/pay/987654321`)
    // the chain read, the client's page: the same frame
    await page.waitForLoadState('networkidle')
    expect(await page.locator('.svc-brand-scope .svc-banner h1').allTextContents()).toEqual(['Invoice not found'])
    const card = (await page.locator('.svc-banner').boundingBox())!
    expect(card.width).toBeGreaterThan(width < 500 ? 300 : 500)
    expect(await page.getByRole('navigation', { name: 'Language' }).isVisible()).toBe(true)
    expect(await accessibilityViolations(page)).toEqual([])
    await screenshot(page, `frame-${width}-not-found`)

    // the switch on the malformed link's page works without a script, and the pick is remembered
    await page.goto(`${serverUrl}/pay/abc`)
    expect(await page.locator('.svc-brand-scope .svc-banner h1').textContent()).toBe('This link is not complete')
    expect(await accessibilityViolations(page)).toEqual([])
    await screenshot(page, `frame-${width}-bad-link`)
    await page.locator('.svc-lang summary').click()
    await page.getByRole('link', { name: 'Deutsch' }).click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Dieser Link ist unvollständig')
    expect(new URL(page.url()).searchParams.get('lang')).toBe('de')
    await page.goto(`${serverUrl}/pay/987654321`)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 15_000 }).toBe((await strings('de')).notFoundTitle)
    await page.context().close()
  })

  test.each(widths)('behavior: at %i px in Arabic every address line keeps its order ("12 Harbour Row", never "Harbour Row 12"), in the server\'s first rendering and the page', { timeout: 60_000 }, async (width) => {
    const invoice = (await moreInvoices())[0]!
    /** Whether `first` is drawn left of `then` in the parties' card, as the payer sees the line: each
     * word found in the first text node that holds its `[in, word]` pair's `in`. */
    const inOrder = (page: Page, first: readonly [string, string], then: readonly [string, string]) =>
      page.evaluate(
        (words) => {
          const [a, b] = words.map(([holder, word]) => {
            const walker = document.createTreeWalker(document.querySelector('.svc-parties')!, NodeFilter.SHOW_TEXT)
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const text = node.textContent ?? ''
              if (!text.includes(holder)) continue
              const range = document.createRange()
              range.setStart(node, text.indexOf(word))
              range.setEnd(node, text.indexOf(word) + word.length)
              return range.getBoundingClientRect().left
            }
            throw new Error(`no "${holder}" in the parties' card`)
          })
          return a! < b!
        },
        [first, then],
      )
    const lines = [
      [['12 Harbour Row', '12'], ['12 Harbour Row', 'Harbour']],
      [['BS1 5DB', 'BS1'], ['Bristol', 'Bristol']],
      [['10969', '10969'], ['Berlin', 'Berlin']],
    ] as const
    for (const javaScriptEnabled of [false, true]) {
      const page = await pageAt(width, 'ar', { javaScriptEnabled })
      await page.goto(invoice.shareLink)
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl')
      if (javaScriptEnabled) await expect.poll(() => page.locator('.svc-chain-status > :not([hidden])').textContent(), { timeout: 15_000 }).toMatch(/^✓/)
      for (const [first, then] of lines) expect(await inOrder(page, first, then), `${first[1]} before ${then[1]}, script ${javaScriptEnabled}`).toBe(true)
      if (javaScriptEnabled) {
        expect(await accessibilityViolations(page)).toEqual([])
        await screenshot(page, `frame-ar-${width}-addresses`)
      }
      await page.context().close()
    }
  })

  test.each(widths)('behavior: at %i px in German each step\'s label stays in its column, clear of the next step\'s number', async (width) => {
    const invoice = (await moreInvoices())[0]!
    const page = await pageAt(width, 'de-DE')
    await injectTestWallet(page, { privateKey: checkout.devnet.file.payer.ownerPrivateKey, rpcUrl: checkout.devnet.file.rpcUrl, chainId: checkout.devnet.file.chainId })
    await page.goto(invoice.shareLink)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await page.locator('.svc-steps').waitFor()
    const boxes = await page.locator('.svc-steps li').evaluateAll((items) =>
      items.map((item) => {
        const label = item.lastElementChild!
        const range = document.createRange()
        range.selectNodeContents(label)
        const text = range.getBoundingClientRect()
        const box = item.getBoundingClientRect()
        return { text: label.textContent, left: text.left, right: text.right, itemLeft: box.left, itemRight: box.right, number: item.firstElementChild!.getBoundingClientRect() }
      }),
    )
    expect(boxes.map(({ text }) => text)).toEqual(['Zahlung prüfen', 'In der Wallet unterschreiben', 'Das Netzwerk bestätigt sie'])
    boxes.forEach((box, i) => {
      // the label's text within its own step, and left of the next step's number
      expect(box.right, box.text!).toBeLessThanOrEqual(box.itemRight + 0.5)
      expect(box.left, box.text!).toBeGreaterThanOrEqual(box.itemLeft - 0.5)
      const next = boxes[i + 1]
      if (next) expect(box.right, box.text!).toBeLessThanOrEqual(next.number.left)
    })
    expect(await accessibilityViolations(page, { within: '.svc-widget' })).toEqual([])
    await screenshot(page, `frame-de-${width}-steps`)
    await page.context().close()
  })

  test.each(widths)('behavior: at %i px the card fits what it shows after a decline and once paid (no room left by the wallet\'s prompt), and no "no wallet" line sits under the devnet wallet', { timeout: 120_000 }, async (width) => {
    const invoice = (await moreInvoices())[1 + widths.indexOf(width)]!
    const clients = devnetClients(checkout.devnet.file.rpcUrl, checkout.devnet.file.chainId)
    await mintTo(clients, deployment(), (await workerCheckout()).seed.payer.vault, BigInt(invoice.amount))
    const page = await pageAt(width)
    await page.goto(invoice.shareLink)
    const devnetWallet = page.getByRole('button', { name: 'Devnet wallet (demo payer)' })
    await devnetWallet.waitFor({ timeout: 15_000 })
    // a wallet is offered: nothing says none was found
    expect(await page.locator('.svc-widget p:visible', { hasText: /No wallet was found/ }).count()).toBe(0)
    expect(await accessibilityViolations(page)).toEqual([])
    await devnetWallet.click()
    const pay = page.getByRole('button', { name: /^Pay / })
    await pay.click()
    await answerDevnetWallet(page, 'Reject')
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Pay this invoice')
    /** Room in the card under its last element, past its padding and border (about 22 px). */
    const roomLeft = () =>
      page.locator('.svc-widget').evaluate((card) => {
        const shown = [...card.children].filter((child) => child.getBoundingClientRect().height > 0 && getComputedStyle(child).position !== 'absolute')
        return card.getBoundingClientRect().bottom - Math.max(...shown.map((child) => child.getBoundingClientRect().bottom))
      })
    await expect.poll(roomLeft).toBeLessThan(40)
    await screenshot(page, `frame-${width}-declined`)
    expect(await accessibilityViolations(page)).toEqual([])
    await pay.click()
    await answerDevnetWallet(page, 'Approve')
    await answerDevnetWallet(page, 'Approve')
    await expect.poll(() => heading(page), { timeout: 30_000 }).toBe('Payment received')
    await expect.poll(roomLeft).toBeLessThan(40)
    const saved = (await page.getByRole('button', { name: 'Save receipt' }).boundingBox())!
    const card = (await page.locator('.svc-widget').boundingBox())!
    expect(card.y + card.height - (saved.y + saved.height)).toBeLessThan(40)
    await screenshot(page, `frame-${width}-paid`)
    expect(await accessibilityViolations(page)).toEqual([])
    await page.context().close()
  })
})
