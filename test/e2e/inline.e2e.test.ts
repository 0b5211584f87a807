import type { Browser } from 'playwright-core'
import { createPublicClient, http } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { screenshot } from './support/browser'
import { useCheckoutInBrowser, type BrowserDevnet } from './support/checkoutInBrowser'
import { injectTestWallet } from './support/testWallet'

const checkout = useCheckoutInBrowser()
let devnet: BrowserDevnet
let browser: Browser

beforeAll(() => {
  ;({ devnet, browser } = checkout)
})

const chain = () => createPublicClient({ transport: http(devnet.file.rpcUrl) })

describe('inline mode on the storefront origin', () => {
  test('behavior: the widget renders in a shadow root on the host page, pays with the page\'s wallet, and the page hears paid with the chain\'s txHash', async () => {
    // the storefront's /inline page mounts the third demo invoice
    const invoice = devnet.file.invoices[2]!
    const page = await browser.newPage({ viewport: { width: 1100, height: 1100 } })
    const checkoutCalls: { url: string; referer: string | undefined }[] = []
    page.on('request', (request) => {
      if (request.url().startsWith(devnet.file.serverUrl)) checkoutCalls.push({ url: request.url(), referer: request.headers()['referer'] })
    })
    const wallet = await injectTestWallet(page, { privateKey: devnet.file.payer.ownerPrivateKey, rpcUrl: devnet.file.rpcUrl, chainId: devnet.file.chainId })
    await page.goto(`${devnet.file.storefrontUrl}/inline`)

    const heading = page.locator('#svc-widget-heading')
    await expect.poll(() => page.getByRole('button', { name: 'Test Wallet' }).isVisible(), { timeout: 15_000 }).toBe(true)
    expect(page.frames()).toHaveLength(1)
    expect(await page.locator('#checkout > div').evaluate((box) => box.shadowRoot?.mode)).toBe('open')
    expect(await page.locator('#checkout > div').evaluate((box) => box.shadowRoot?.adoptedStyleSheets.length)).toBe(1)
    await expect.poll(() => page.locator('#events [data-event="ready"]').count()).toBe(1)
    await screenshot(page, 'inline-01-ready')

    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await page.getByRole('button', { name: /^Pay / }).click()
    await expect.poll(() => heading.textContent(), { timeout: 20_000 }).toBe('Payment received')
    await expect.poll(() => page.locator('#events [data-event="paid"]').count()).toBe(1)
    await screenshot(page, 'inline-02-paid')

    const [paid] = await chain().getContractEvents({ address: devnet.file.contracts.registry, abi: invoiceRegistryAbi, eventName: 'InvoicePaid', args: { id: BigInt(invoice.id) }, fromBlock: 0n })
    const line = await page.locator('#events [data-event="paid"]').textContent()
    expect(JSON.parse(line!.replace(/^paid /, ''))).toEqual({ invoiceId: invoice.id, userOpHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), txHash: paid?.transactionHash })
    const onChain = await chain().readContract({ address: devnet.file.contracts.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [BigInt(invoice.id) ] })
    expect(onChain.status).toBe(2)
    expect(wallet.requests).toContain('eth_signTypedData_v4')

    // the widget called the checkout from the storefront's origin, without a Referer; the page stays the merchant's
    expect(checkoutCalls.some((call) => call.url.includes(`/v1/pay/${invoice.id}/prepare`))).toBe(true)
    expect(checkoutCalls.filter((call) => call.referer)).toEqual([])
    expect(await page.title()).toMatch(/Northwind demo shop$/)
    await page.close()
  })

  test('behavior: the pay routes answer any origin\'s preflight; the merchant routes answer none', async () => {
    const preflight = (path: string, method: string) =>
      fetch(`${devnet.file.serverUrl}${path}`, {
        method: 'OPTIONS',
        headers: { origin: devnet.file.storefrontUrl, 'access-control-request-method': method, 'access-control-request-headers': 'content-type' },
      })
    const pay = await preflight('/v1/pay/1/prepare', 'POST')
    expect(pay.status).toBe(204)
    expect(pay.headers.get('access-control-allow-origin')).toBe('*')
    expect(pay.headers.get('access-control-allow-credentials')).toBeNull()
    const merchant = await preflight('/v1/invoices/1/share', 'GET')
    expect(merchant.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('behavior: an inline widget tampered by the checkout server is refused under the pinned loader, and never runs on the host page', async () => {
    const page = await browser.newPage()
    const console: string[] = []
    page.on('console', (message) => console.push(message.text()))
    await page.route('**/assets/inline-*.js', async (route) => {
      const response = await route.fetch()
      await route.fulfill({ response, body: `window.__tampered = true;\n${await response.text()}` })
    })
    await page.goto(`${devnet.file.storefrontUrl}/inline`)
    await expect.poll(() => console.join('\n'), { timeout: 15_000 }).toMatch(/integrity/)
    expect(await page.evaluate(() => (window as unknown as { __tampered?: boolean }).__tampered)).toBeUndefined()
    expect(await page.locator('#checkout > div').evaluate((box) => box.shadowRoot)).toBeNull()
    await page.close()
  })
})
