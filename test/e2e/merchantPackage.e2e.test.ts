import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import type { Browser, Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { installPackedPackage } from '../support/packedPackage'
import { accessibilityViolations } from './support/accessibilityViolations'
import { screenshot } from './support/browser'
import { useCheckoutInBrowser, type BrowserDevnet } from './support/checkoutInBrowser'
import { injectTestWallet } from './support/testWallet'

const checkout = useCheckoutInBrowser()
let devnet: BrowserDevnet
let browser: Browser
let appBundle = ''
let installedServerEntry = ''
let installedDir = ''

// A merchant's React app, bundled from the packed package installed in a fresh project, as their
// build would bundle it
const app = `import { useState } from 'react'
import { createRoot } from 'react-dom/client'
import { Checkout } from '@svc-checkout/js/react'

const query = new URLSearchParams(location.search)

function Shop() {
  const [shown, setShown] = useState(true)
  const [events, setEvents] = useState<string[]>([])
  const log = (name: string, detail: unknown) => setEvents((all) => [...all, name + ' ' + JSON.stringify(detail)])
  return (
    <main>
      <h1>Order #1001</h1>
      {shown ? (
        <Checkout
          baseUrl={query.get('checkout')!}
          invoiceId={query.get('invoice')!}
          token={query.get('token')!}
          layout={query.get('layout') === 'compact' ? 'compact' : 'full'}
          mode={query.get('mode') === 'inline' ? 'inline' : 'iframe'}
          onReady={(detail) => log('ready', detail)}
          onPaid={(detail) => log('paid', detail)}
          onError={(detail) => log('error', detail.code)}
        />
      ) : null}
      <button onClick={() => setShown(false)}>Remove checkout</button>
      <ol>{events.map((line, i) => <li key={i} data-event={line.split(' ')[0]}>{line}</li>)}</ol>
    </main>
  )
}
createRoot(document.getElementById('root')!).render(<Shop />)
`

beforeAll(async () => {
  ;({ devnet, browser } = checkout)
  const installed = await installPackedPackage()
  installedDir = installed.dir
  writeFileSync(join(installed.dir, 'app.tsx'), app)
  await build({
    absWorkingDir: installed.dir,
    entryPoints: ['app.tsx'],
    outfile: join(installed.dir, 'app.js'),
    bundle: true,
    format: 'esm',
    jsx: 'automatic',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  })
  appBundle = readFileSync(join(installed.dir, 'app.js'), 'utf8')
  installedServerEntry = pathToFileURL(join(installed.dir, 'node_modules', '@svc-checkout', 'js', 'dist', 'server.js')).href
}, 180_000)
afterAll(() => rmSync(installedDir, { recursive: true, force: true }))

/** The merchant's page, served on the storefront's origin (one the pay page may be framed by). */
async function merchantPage(path: string, html: string, options: { wallet: boolean }): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 900, height: 1000 } })
  if (options.wallet) await injectTestWallet(page, { privateKey: devnet.file.payer.ownerPrivateKey, rpcUrl: devnet.file.rpcUrl, chainId: devnet.file.chainId, topOnly: false })
  const base = `${devnet.file.storefrontUrl}${path}`
  await page.route(`${base}/app.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: appBundle }))
  await page.route(`${base}?**`, (route) => route.fulfill({ contentType: 'text/html', body: html }))
  return page
}

const reactShop = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>React shop</title></head><body><div id="root"></div><script type="module" src="/react-shop/app.js"></script></body></html>`

function reactShopUrl(invoice: { id: string; shareLink: string }, layout: 'full' | 'compact', mode: 'iframe' | 'inline' = 'iframe') {
  const query = new URLSearchParams({ checkout: devnet.file.serverUrl, invoice: invoice.id, token: new URL(invoice.shareLink).searchParams.get('token')!, layout, mode })
  return `${devnet.file.storefrontUrl}/react-shop?${query}`
}

async function payFrame(page: Page): Promise<Frame> {
  await expect.poll(() => page.frames().some((frame) => frame.url().includes('/pay/')), { timeout: 15_000 }).toBe(true)
  return page.frames().find((frame) => frame.url().includes('/pay/'))!
}

const frameHeight = async (page: Page) => (await page.locator('iframe').boundingBox())?.height ?? 0

describe('the packed package in a merchant app', () => {
  test('behavior: the React component from the packed tarball mounts the checkout on the devnet, receives paid with the chain\'s txHash, and unmounts cleanly', async () => {
    const invoice = devnet.file.invoices[0]!
    const page = await merchantPage('/react-shop', reactShop, { wallet: true })
    await page.goto(reactShopUrl(invoice, 'full'))
    const frame = await payFrame(page)
    await expect.poll(() => page.locator('[data-event="ready"]').count(), { timeout: 15_000 }).toBe(1)
    await frame.getByRole('button', { name: /^Test Wallet$/ }).click()
    await frame.getByRole('button', { name: /^Pay / }).click()
    await expect.poll(() => frame.locator('#svc-widget-heading').textContent(), { timeout: 30_000 }).toBe('Payment received')
    await expect.poll(() => page.locator('[data-event="paid"]').count(), { timeout: 10_000 }).toBe(1)
    const paid = JSON.parse((await page.locator('[data-event="paid"]').textContent())!.replace(/^paid /, ''))
    const [onChain] = await checkout.chain().getContractEvents({ address: devnet.file.contracts.registry, abi: invoiceRegistryAbi, eventName: 'InvoicePaid', args: { id: BigInt(invoice.id) }, fromBlock: 0n })
    expect(paid).toEqual({ invoiceId: invoice.id, userOpHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), txHash: onChain!.transactionHash })
    await screenshot(page, '30-react-package-paid')

    // the merchant's server, polling: the installed package's readInvoice reads the same from the chain
    const { readInvoice } = (await import(installedServerEntry)) as typeof import('../../packages/checkout/src/server')
    // a devnet's chain is short: its payments are searched for from block 0, as no public RPC's could be
    const deployment = { chainId: devnet.file.chainId, registry: devnet.file.contracts.registry, registryFromBlock: '0' }
    const read = await readInvoice({ rpcUrl: devnet.file.rpcUrl, deployment, invoiceId: invoice.id })
    expect(read).toMatchObject({ invoiceId: invoice.id, status: 'paid', amount: invoice.amount, payment: { payer: devnet.file.payer.vault, txHash: onChain!.transactionHash, blockNumber: onChain!.blockNumber.toString(), net: onChain!.args.net!.toString() } })
    expect(await readInvoice({ rpcUrl: devnet.file.rpcUrl, deployment, invoiceId: 10n ** 12n })).toEqual({ invoiceId: (10n ** 12n).toString(), status: 'notFound' })
    expect(await readInvoice({ rpcUrl: devnet.file.rpcUrl, deployment, invoiceId: devnet.file.invoices[1]!.id })).toMatchObject({ status: 'open', payment: null })

    // unmounting removes the frame and its listeners: nothing more reaches the app
    await page.getByRole('button', { name: 'Remove checkout' }).click()
    await expect.poll(() => page.locator('iframe').count()).toBe(0)
    expect(await page.locator('[data-event="error"]').count()).toBe(0)
    await page.close()
  })

  test('behavior: the compact layout shows the payee, the amount and its confirmation with the document one disclosure away, in a smaller frame that grows when opened', async () => {
    const invoice = devnet.file.invoices[1]!
    const full = await merchantPage('/react-shop', reactShop, { wallet: false })
    await full.goto(reactShopUrl(invoice, 'full'))
    const fullFrame = await payFrame(full)
    await expect.poll(() => fullFrame.locator('.svc-header .svc-ok:not([hidden])').textContent(), { timeout: 15_000 }).toContain('match the payment record')
    expect(await fullFrame.locator('.svc-document').isVisible()).toBe(true)
    await expect.poll(() => frameHeight(full)).toBeGreaterThan(600)
    const fullHeight = await frameHeight(full)
    await full.close()

    const page = await merchantPage('/react-shop', reactShop, { wallet: false })
    await page.goto(reactShopUrl(invoice, 'compact'))
    const frame = await payFrame(page)
    expect(new URL(frame.url()).searchParams.get('layout')).toBe('compact')
    await expect.poll(() => frame.locator('.svc-header .svc-ok:not([hidden])').isVisible(), { timeout: 15_000 }).toBe(true)
    expect(await frame.locator('main').getAttribute('class')).toBe('svc-page svc-page-narrow svc-page-compact svc-page-open')
    const header = (await frame.locator('.svc-header').textContent())!
    expect(header).toContain('Northwind Studio Ltd')
    expect(header).toContain(`${(Number(invoice.amount) / 1e6).toLocaleString('en-US', { minimumFractionDigits: 2 })} USDC`)
    expect(await frame.getByRole('heading', { name: 'Choose a wallet to pay with' }).isVisible()).toBe(true)
    // one column: the payment under the header, at any width
    const [headerBox, widgetBox] = await Promise.all([frame.locator('.svc-header').boundingBox(), frame.locator('.svc-widget').boundingBox()])
    expect(widgetBox!.x).toBe(headerBox!.x)
    expect(widgetBox!.y).toBeGreaterThan(headerBox!.y + headerBox!.height)
    const disclosure = frame.locator('details.svc-disclosure')
    expect(await disclosure.evaluate((element: HTMLDetailsElement) => element.open)).toBe(false)
    expect(await frame.locator('.svc-document').isVisible()).toBe(false)
    await expect.poll(() => frameHeight(page)).toBeGreaterThan(200)
    // the frame follows its content (the resize messages), the language switch above the app
    // included, settled before it is measured
    await expect.poll(async () => Math.abs((await frameHeight(page)) - (await frame.evaluate(() => document.body.getBoundingClientRect().height))), { timeout: 10_000 }).toBeLessThan(2)
    expect(await frame.evaluate(() => document.documentElement.scrollHeight <= document.documentElement.clientHeight)).toBe(true)
    const compactHeight = await frameHeight(page)
    expect(compactHeight).toBeLessThan(fullHeight - 200)
    await screenshot(page, '31-compact-layout')

    await frame.getByText('Show the invoice').click()
    await expect.poll(() => frame.locator('.svc-document .svc-facts').isVisible()).toBe(true)
    await expect.poll(() => frameHeight(page), { timeout: 10_000 }).toBeGreaterThan(compactHeight + 200)
    await screenshot(page, '32-compact-layout-opened')
    await page.close()
  })

  test('behavior: inline, the compact layout is the same: the payment under the header, the document behind the disclosure', async () => {
    const invoice = devnet.file.invoices[1]!
    const page = await merchantPage('/react-shop', reactShop, { wallet: false })
    await page.goto(reactShopUrl(invoice, 'compact', 'inline'))
    // the widget in a shadow root on the page: the locators reach into it
    await expect.poll(() => page.locator('.svc-header .svc-ok:not([hidden])').isVisible(), { timeout: 20_000 }).toBe(true)
    expect(page.frames()).toHaveLength(1)
    expect(await page.locator('main.svc-page').getAttribute('class')).toBe('svc-page svc-page-narrow svc-page-compact svc-page-open')
    expect(await page.locator('details.svc-disclosure summary').textContent()).toBe('Show the invoice')
    expect(await page.locator('.svc-document').isVisible()).toBe(false)
    const [headerBox, widgetBox] = await Promise.all([page.locator('.svc-header').boundingBox(), page.locator('.svc-widget').boundingBox()])
    expect(widgetBox!.x).toBe(headerBox!.x)
    expect(widgetBox!.y).toBeGreaterThan(headerBox!.y + headerBox!.height)
    await page.close()
  })

  test('behavior: the compact page is rendered compact by the server, and has no accessibility violations closed or open', async () => {
    const invoice = devnet.file.invoices[1]!
    const url = `${invoice.shareLink}&layout=compact`
    // the server renders what the page then hydrates: the same layout
    const served = await (await fetch(url)).text()
    expect(served).toContain('<main class="svc-page svc-page-narrow svc-page-compact svc-page-unconfirmed">')
    expect(served).toContain('<details class="svc-disclosure"><summary>Show the invoice</summary>')
    // a context of its own: axe finishes its run in a second page of the same context
    const page = await (await browser.newContext({ viewport: { width: 500, height: 900 } })).newPage()
    await page.goto(url)
    await expect.poll(() => page.locator('.svc-header .svc-ok:not([hidden])').isVisible(), { timeout: 15_000 }).toBe(true)
    const violations = () => accessibilityViolations(page)
    expect(await violations()).toEqual([])
    await page.getByText('Show the invoice').click()
    await expect.poll(() => page.locator('.svc-document .svc-facts').isVisible()).toBe(true)
    expect(await violations()).toEqual([])
    await page.context().close()
  })

  test('behavior: a script tag without data-layout mounts the compact layout, as data-layout="compact" does; data-layout="full" the full document', async () => {
    const invoice = devnet.file.invoices[2]!
    const token = new URL(invoice.shareLink).searchParams.get('token')!
    const tag = (layout: string) =>
      `<!doctype html><html><body><h1>Order #1002</h1><script src="${devnet.file.serverUrl}/embed.js" data-invoice-id="${invoice.id}" data-token="${token}"${layout} async></script></body></html>`
    for (const [attribute, query] of [[' data-layout="compact"', 'compact'], ['', 'none']] as const) {
      const page = await merchantPage('/tag-shop', tag(attribute), { wallet: false })
      await page.goto(`${devnet.file.storefrontUrl}/tag-shop?${query}`)
      const frame = await payFrame(page)
      expect(new URL(frame.url()).searchParams.get('layout')).toBe(attribute ? 'compact' : null)
      await expect.poll(() => frame.locator('details.svc-disclosure summary').textContent(), { timeout: 15_000 }).toBe('Show the invoice')
      expect(await frame.locator('.svc-document').isVisible()).toBe(false)
      await page.close()
    }

    const full = await merchantPage('/tag-shop', tag(' data-layout="full"'), { wallet: false })
    await full.goto(`${devnet.file.storefrontUrl}/tag-shop?full`)
    const fullFrame = await payFrame(full)
    expect(new URL(fullFrame.url()).searchParams.get('layout')).toBe('full')
    await expect.poll(() => fullFrame.locator('.svc-document').isVisible(), { timeout: 15_000 }).toBe(true)
    expect(await fullFrame.locator('details.svc-disclosure').count()).toBe(0)
    await full.close()
  })
})
