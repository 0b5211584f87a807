import { createHash } from 'node:crypto'
import type { Frame, Page } from 'playwright-core'
import { parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createMerchantClient } from '../../cli/merchant/createMerchantClient'
import { demoBrandColor, demoLogo } from '../../devnet/demoLogo'
import { devnetClients } from '../../devnet/deploy'
import { cancelInvoice, createPayer, mintTo } from '../../devnet/seed'
import { accessibilityViolations } from './support/accessibilityViolations'
import { screenshot } from './support/browser'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { rewrite } from './support/rewrite'
import { injectTestWallet } from './support/testWallet'

/**
 * A studio's brand colour in the real browser: every state a payer can reach here, with the hardest
 * colour there is for contrast (pure yellow, 1.07:1 against white), has no WCAG 2.0–2.2 A/AA
 * violation; the logo comes from the checkout's own origin; and the brand colour changes nothing of
 * what the page verifies.
 */

const checkout = useCheckoutInBrowser()
const deployment = () => ({ chainId: checkout.devnet.file.chainId, ...checkout.devnet.file.contracts })
const logo = demoLogo()
const logoPath = `/v1/branding/logos/${createHash('sha256').update(logo).digest('hex')}.png`
// the demo's logo is 1 kB: the server writes it into the page, exactly the file's bytes (server/routes/servedBranding.ts)
const logoInPage = `data:image/png;base64,${Buffer.from(logo).toString('base64')}`
const yellow = 'rgb(255, 255, 0)'
const black = 'rgb(0, 0, 0)'

const merchant = () => createMerchantClient({ baseUrl: checkout.devnet.file.serverUrl, ...checkout.devnet.file.merchant.apiKey })

beforeAll(async () => {
  // as the demo merchant's backend would, through the HMAC-signed route
  await merchant().setBranding({ brandColor: '#FFFF00', logo })
})
afterAll(async () => {
  // the worker's devnet is shared with the next browser files: the demo's own colour back
  await merchant().setBranding({ brandColor: demoBrandColor, logo })
})

/** The invoice that is never paid here, with full metadata. */
const unpaidInvoice = () => checkout.devnet.file.invoices[0]!

async function payerPage({ funds = parseUnits('10000', 6), accountFunds = 0n, startChainId }: { funds?: bigint; accountFunds?: bigint; startChainId?: number } = {}) {
  const clients = devnetClients(checkout.devnet.file.rpcUrl, checkout.devnet.file.chainId)
  const payer = await createPayer(clients, deployment(), funds)
  if (accountFunds > 0n) await mintTo(clients, deployment(), payer.owner, accountFunds)
  // a context of its own: axe finishes its run in a second page of the same context
  const context = await checkout.browser.newContext({ viewport: { width: 1100, height: 1000 } })
  const page = await context.newPage()
  const images: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'image') images.push(request.url())
  })
  const wallet = await injectTestWallet(page, {
    privateKey: payer.ownerPrivateKey,
    rpcUrl: checkout.devnet.file.rpcUrl,
    chainId: checkout.devnet.file.chainId,
    ...(startChainId === undefined ? {} : { startChainId }),
  })
  return { page, wallet, images }
}

const heading = (page: Page | Frame) => page.locator('#svc-widget-heading').textContent()

async function connected(page: Page, invoice = unpaidInvoice()) {
  await page.goto(invoice.shareLink)
  await page.getByRole('button', { name: 'Test Wallet' }).click()
  await page.getByRole('button', { name: /^Pay / }).waitFor()
}

/** The band's colour and its logo as the browser loaded it: where from, and its natural size. */
function band(page: Page | Frame) {
  return page.evaluate(() => {
    const shown = document.querySelector<HTMLElement>('.svc-brand-band')
    const image = document.querySelector<HTMLImageElement>('.svc-brand-logo')
    return {
      background: shown ? getComputedStyle(shown).backgroundColor : null,
      logo: image ? { src: image.currentSrc, loaded: image.complete && image.naturalWidth, alt: image.getAttribute('alt') } : null,
    }
  })
}

/** Every enabled primary button, as [background, text colour]. */
const primaryButtons = (page: Page | Frame) =>
  page.evaluate(() => [...document.querySelectorAll<HTMLButtonElement>('.svc-primary:enabled')].map((button) => [getComputedStyle(button).backgroundColor, getComputedStyle(button).color]))

/** Axe, and the brand colour on every primary button it finds, with black text: the state's check. */
async function assertBrandedAndAccessible(page: Page) {
  expect(await accessibilityViolations(page)).toEqual([])
  for (const colours of await primaryButtons(page)) expect(colours).toEqual([yellow, black])
}

describe('a studio brand colour on the pay page', () => {
  test('behavior: the server-rendered page, before any script runs, paints the band in the brand colour with the small logo from the page itself, requesting no image, and has no accessibility violations', async () => {
    const { page, images } = await payerPage()
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const scripts: string[] = []
    await page.route('**/assets/*.js', async (route) => {
      scripts.push(route.request().url())
      await held
      await route.continue()
    })
    const response = await page.goto(unpaidInvoice().shareLink, { waitUntil: 'commit' })
    expect(response?.headers()['content-security-policy']).toContain("'unsafe-hashes'")
    await page.getByRole('heading', { level: 1 }).waitFor()
    // no script of the page has run: the colour is the style attribute its policy allowed by hash
    await expect.poll(() => band(page)).toEqual({ background: yellow, logo: { src: logoInPage, loaded: 96, alt: '' } })
    expect(await page.evaluate(() => document.querySelector('.svc-brand-scope')!.getAttribute('style'))).toBe('--svc-brand:#ffff00;--svc-brand-text:#000000;--svc-brand-edge:#999900')
    expect(await page.getByText('Unconfirmed', { exact: true }).isVisible()).toBe(true)
    expect(images.filter((url) => !url.startsWith('data:'))).toEqual([])
    expect(await accessibilityViolations(page)).toEqual([])
    await screenshot(page, 'branding-01-first-paint-ffff00')
    release()
    await page.context().close()
  })

  test('behavior: the choose-a-wallet state, branded, has no accessibility violations', async () => {
    const { page, images } = await payerPage()
    await page.goto(unpaidInvoice().shareLink)
    await expect.poll(() => heading(page)).toBe('Choose a wallet to pay with')
    expect(await band(page)).toEqual({ background: yellow, logo: { src: logoInPage, loaded: 96, alt: '' } })
    await assertBrandedAndAccessible(page)
    // every image the page loaded came from the checkout's origin (wallet icons are data URIs)
    expect(images.filter((url) => !url.startsWith('data:') && !url.startsWith(`${checkout.devnet.file.serverUrl}/`))).toEqual([])
    await page.context().close()
  })

  test("behavior: the connected state's Pay button is in the brand colour with black text, without a violation, and the brand colour changes none of the summary's, the header's or the invoice's computed colours", async () => {
    const { page } = await payerPage()
    await connected(page)
    expect(await primaryButtons(page)).toEqual([[yellow, black]])
    await assertBrandedAndAccessible(page)
    await screenshot(page, 'branding-02-connected-ffff00')
    await page.setViewportSize({ width: 390, height: 844 })
    await screenshot(page, 'branding-03-connected-ffff00-390px')
    const verified = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('.svc-header, .svc-header *, .svc-summary, .svc-summary *, .svc-document, .svc-document *')].map((element) => {
          const style = getComputedStyle(element)
          return `${element.tagName}.${element.className} ${style.color} ${style.backgroundColor} ${style.borderTopColor} ${style.outlineColor}`
        }),
      )
    const branded = await verified()
    expect(branded.length).toBeGreaterThan(20)
    expect(branded.join('\n')).not.toContain(yellow)
    // the same page without the brand: what the house colours give
    await page.evaluate(() => {
      const scope = document.querySelector<HTMLElement>('.svc-brand-scope')!
      scope.classList.remove('svc-branded')
      scope.style.cssText = ''
    })
    expect(await primaryButtons(page)).toEqual([['rgb(11, 92, 173)', 'rgb(255, 255, 255)']])
    expect(await verified()).toEqual(branded)
    await page.context().close()
  })

  test('behavior: the signing state, the authorisation open in the wallet, branded, has no accessibility violations', async () => {
    const { page, wallet } = await payerPage()
    await connected(page)
    const held = wallet.holdNext('eth_signTypedData_v4')
    await page.getByRole('button', { name: /^Pay / }).click()
    const release = await held
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Authorise the payment in your wallet')
    await assertBrandedAndAccessible(page)
    await page.context().close()
    release()
  })

  test('behavior: the pending state, branded, has no accessibility violations', async () => {
    const invoice = unpaidInvoice()
    const { page } = await payerPage()
    await page.route(
      (url) => url.pathname === `/v1/pay/${invoice.id}`,
      async (route) => {
        if (route.request().method() !== 'POST') return route.fallback()
        await route.fulfill({ status: 202, json: { status: 'pending', userOpHash: `0x${'ab'.repeat(32)}`, message: 'submitted, not yet included' } })
      },
    )
    await connected(page, invoice)
    await page.getByRole('button', { name: /^Pay / }).click()
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Payment submitted')
    await assertBrandedAndAccessible(page)
    await page.context().close()
  })

  test('behavior: the paid state, after a real payment, branded, has no accessibility violations', async () => {
    const { page } = await payerPage()
    await connected(page, checkout.devnet.file.invoices[1]!)
    await page.getByRole('button', { name: /^Pay / }).click()
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Payment received')
    expect((await band(page)).background).toBe(yellow)
    await assertBrandedAndAccessible(page)
    await page.context().close()
  })

  test('behavior: the unsafe state, branded, has no accessibility violations', async () => {
    const invoice = unpaidInvoice()
    const { page } = await payerPage()
    for (const path of [`/v1/pay/${invoice.id}`, `/v1/pay/${invoice.id}/metadata`]) {
      await rewrite(page, path, (body) => {
        body.data.amount = parseUnits('10', 6).toString()
      })
    }
    await page.goto(invoice.shareLink)
    await expect.poll(() => heading(page)).toBe('Payment stopped for your safety')
    await assertBrandedAndAccessible(page)
    await page.context().close()
  })

  test('behavior: the insufficient-balance state and the offer to pay from the wallet, branded, have no accessibility violations', async () => {
    const { page } = await payerPage({ funds: parseUnits('1', 6), accountFunds: parseUnits('100000', 6) })
    await page.goto(unpaidInvoice().shareLink)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await expect.poll(() => heading(page)).toBe('Not enough funds')
    await page.getByRole('button', { name: / from your wallet$/ }).waitFor()
    expect((await primaryButtons(page)).length).toBeGreaterThan(0)
    await assertBrandedAndAccessible(page)
    await page.context().close()
  })

  test('behavior: the wrong-network state, branded, has no accessibility violations', async () => {
    const { page } = await payerPage({ startChainId: 1 })
    await page.goto(unpaidInvoice().shareLink)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await expect.poll(() => heading(page)).toBe('Wrong network')
    expect(await primaryButtons(page)).toEqual([[yellow, black]])
    await assertBrandedAndAccessible(page)
    await page.context().close()
  })

  test('behavior: the canceled state, branded, has no accessibility violations', async () => {
    const invoice = checkout.devnet.file.invoices[2]!
    await cancelInvoice(checkout.devnet.file.rpcUrl, deployment(), checkout.devnet.file.merchant, BigInt(invoice.id))
    const { page } = await payerPage()
    await page.goto(invoice.shareLink)
    await expect.poll(() => page.getByRole('heading', { name: 'This invoice was canceled' }).isVisible()).toBe(true)
    expect((await band(page)).background).toBe(yellow)
    await assertBrandedAndAccessible(page)
    await page.context().close()
  })
})

describe('a studio brand colour where a merchant embeds the checkout', () => {
  // the storefront sells this file's second and third invoices (paid and canceled above): the band is there in whatever state
  test('behavior: in the plain iframe on the storefront, the band and logo come from the checkout, with no accessibility violations in the frame', async () => {
    const { page } = await payerPage()
    await page.goto(`${checkout.devnet.file.storefrontUrl}/iframe`)
    await expect.poll(() => page.frames().some((frame) => frame.url().includes('/pay/'))).toBe(true)
    const frame = page.frames().find((candidate) => candidate.url().includes('/pay/'))!
    await expect.poll(() => heading(frame)).not.toBeNull()
    await expect.poll(() => band(frame)).toEqual({ background: yellow, logo: { src: logoInPage, loaded: 96, alt: '' } })
    expect(await accessibilityViolations(page, { within: 'iframe' })).toEqual([])
    await screenshot(page, 'branding-04-storefront-iframe')
    await page.context().close()
  })

  test("behavior: inline on the storefront's own origin, the widget fetches the branding and loads the logo from the checkout's origin, with no accessibility violations in it", async () => {
    const { page } = await payerPage()
    await page.goto(`${checkout.devnet.file.storefrontUrl}/inline`)
    const shown = () =>
      page.evaluate(() => {
        const root = document.querySelector('#checkout div')!.shadowRoot!
        const image = root.querySelector<HTMLImageElement>('.svc-brand-logo')
        const shownBand = root.querySelector<HTMLElement>('.svc-brand-band')
        return { background: shownBand && getComputedStyle(shownBand).backgroundColor, src: image?.currentSrc, loaded: image ? image.complete && image.naturalWidth : null }
      })
    await expect.poll(shown).toEqual({ background: yellow, src: `${checkout.devnet.file.serverUrl}${logoPath}`, loaded: 96 })
    expect(await accessibilityViolations(page, { within: '#checkout' })).toEqual([])
    await screenshot(page, 'branding-05-storefront-inline')
    await page.context().close()
  })
})

describe("a merchant's theme in the frame", () => {
  /** The checkout's iframe on the storefront's origin, themed as `SvcCheckout.mount(…, { theme })` themes it. */
  async function themedFrame(theme: Record<string, string>) {
    const { page } = await payerPage()
    const warnings: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text())
    })
    const host = `${checkout.devnet.file.storefrontUrl}/themed`
    const src = `${unpaidInvoice().shareLink}&embed=1&theme=${encodeURIComponent(JSON.stringify(theme))}`
    await page.route(host, (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><html lang="en"><title>Shop</title><iframe title="Checkout" src="${src}" style="width:100%;height:900px;border:0"></iframe>` }))
    await page.goto(host)
    await expect.poll(() => page.frames().some((frame) => frame.url().includes('/pay/'))).toBe(true)
    const frame = page.frames().find((candidate) => candidate.url().includes('/pay/'))!
    await expect.poll(() => heading(frame)).not.toBeNull()
    const shown = () =>
      frame.evaluate(() => {
        const widget = document.querySelector<HTMLElement>('.svc-widget')
        return { page: getComputedStyle(document.body).backgroundColor, text: getComputedStyle(document.body).color, corners: widget && getComputedStyle(widget).borderTopLeftRadius }
      })
    return { page, warnings, shown }
  }

  test("behavior: a theme that darkens the surface but keeps the dark text is not used for its colours: the payer reads the checkout's own, the merchant's developer reads why in the console, the theme's corners stay", async () => {
    const { page, warnings, shown } = await themedFrame({ '--svc-color-bg': '#0d0e10', '--svc-color-surface': '#15171a', '--svc-radius': '2px' })
    await expect.poll(() => warnings.find((warning) => warning.startsWith('svc-checkout:'))).toContain('--svc-color-text on --svc-color-surface is 1.05:1, under 4.5:1')
    await expect.poll(shown).toEqual({ page: 'rgb(244, 245, 247)', text: 'rgb(26, 28, 31)', corners: '2px' })
    expect(await accessibilityViolations(page, { within: 'iframe' })).toEqual([])
    await page.context().close()
  })

  test('behavior: a theme colour that is no colour (a gradient for the button, whose white label it would hide) is refused, though as a text colour it would borrow a readable one', async () => {
    const { page, warnings, shown } = await themedFrame({ '--svc-color-accent': 'linear-gradient(#fff, #fff)', '--svc-color-accent-text': '#ffffff', '--svc-radius': '2px' })
    await expect.poll(() => warnings.find((warning) => warning.startsWith('svc-checkout:'))).toContain('--svc-color-accent "linear-gradient(#fff, #fff)" is not a colour')
    await expect.poll(shown).toEqual({ page: 'rgb(244, 245, 247)', text: 'rgb(26, 28, 31)', corners: '2px' })
    await page.context().close()
  })

  test("behavior: a readable dark theme is used as given, the checkout's status colours turned light on dark, with no accessibility violations in the frame and nothing in the console", async () => {
    const dark = { '--svc-color-bg': '#0d0e10', '--svc-color-surface': '#15171a', '--svc-color-text': '#f2f3f5', '--svc-color-muted': '#a9aeb6', '--svc-color-border': '#3a3f46', '--svc-color-accent': '#6cb2ff', '--svc-color-accent-text': '#0d0e10', '--svc-color-focus': '#6cb2ff', '--svc-radius': '2px' }
    const { page, warnings, shown } = await themedFrame(dark)
    await expect.poll(shown).toEqual({ page: 'rgb(13, 14, 16)', text: 'rgb(242, 243, 245)', corners: '2px' })
    expect(await accessibilityViolations(page, { within: 'iframe' })).toEqual([])
    expect(warnings.filter((warning) => warning.startsWith('svc-checkout:'))).toEqual([])
    await screenshot(page, 'branding-06-storefront-themed')
    await page.context().close()
  })
})
