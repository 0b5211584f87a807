import type { Browser, Frame, Page } from 'playwright-core'
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

async function payFrame(page: Page): Promise<Frame> {
  await expect.poll(() => page.frames().some((frame) => frame.url().includes('/pay/')), { timeout: 15_000 }).toBe(true)
  return page.frames().find((frame) => frame.url().includes('/pay/'))!
}

const orderState = (page: Page) => page.locator('#order-state').getAttribute('data-state')

describe('the demo storefront\'s order page', () => {
  test('behavior: a forged webhook is refused and leaves the order awaiting payment', async () => {
    const invoice = devnet.file.invoices[0]!
    const forged = await fetch(`${devnet.file.storefrontUrl}/webhooks/svc-checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' },
      body: JSON.stringify({ type: 'invoice.paid', timestamp: new Date().toISOString(), data: { invoiceId: invoice.id } }),
    })
    expect(forged.status).toBe(400)
    expect(((await forged.json()) as { error: string }).error).toBe('WEBHOOK_SIGNATURE_MISMATCH')
    const order = await fetch(`${devnet.file.storefrontUrl}/api/orders/${invoice.id}`)
    expect(await order.json()).toEqual({ state: 'awaiting-payment' })
  })

  test('behavior: the page built with the package mounts the compact checkout, and its order turns paid only once the shop\'s server has a verified webhook, with the chain\'s txHash', async () => {
    const invoice = devnet.file.invoices[0]!
    const page = await browser.newPage({ viewport: { width: 1100, height: 1100 } })
    await injectTestWallet(page, { privateKey: devnet.file.payer.ownerPrivateKey, rpcUrl: devnet.file.rpcUrl, chainId: devnet.file.chainId, topOnly: false })
    await page.goto(`${devnet.file.storefrontUrl}/order`)
    expect(await orderState(page)).toBe('awaiting-payment')
    const frame = await payFrame(page)
    expect(new URL(frame.url()).searchParams.get('layout')).toBe('compact')
    // the package loaded the pinned loader (SRI), not the moving /embed.js
    const loaders = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLScriptElement>('script[src*="/embed"]')].filter((script) => /\/embed(\.js|\/embed\.)/.test(script.src)).map((script) => [new URL(script.src).pathname, script.integrity]),
    )
    expect(loaders).toEqual([[expect.stringMatching(/^\/embed\/embed\.v1\.[0-9a-f]{12}\.js$/), expect.stringMatching(/^sha384-[A-Za-z0-9+/]{64}$/)]])
    await expect.poll(() => page.locator('[data-event="ready"]').count(), { timeout: 15_000 }).toBe(1)
    await frame.getByRole('button', { name: /^Test Wallet$/ }).click()
    await frame.getByRole('button', { name: /^Pay / }).click()
    await expect.poll(() => frame.locator('#svc-widget-heading').textContent(), { timeout: 30_000 }).toBe('Payment received')
    // the chain's word, through the webhook: delivered within the follower's interval
    await expect.poll(() => orderState(page), { timeout: 20_000 }).toBe('paid')
    const [paid] = await checkout.chain().getContractEvents({ address: devnet.file.contracts.registry, abi: invoiceRegistryAbi, eventName: 'InvoicePaid', args: { id: BigInt(invoice.id) }, fromBlock: 0n })
    expect(await page.locator('#order-state').textContent()).toBe(`Paid: confirmed by a verified webhook from the chain. Ready to ship. (transaction ${paid!.transactionHash})`)
    const order = await fetch(`${devnet.file.storefrontUrl}/api/orders/${invoice.id}`)
    expect(await order.json()).toEqual({ state: 'paid', txHash: paid!.transactionHash })
    await screenshot(page, '33-storefront-order-paid')
    // on a phone the paid order's transaction hash wraps, in the shop's page and in the frame, and
    // the frame is as tall as what it shows: 'Save receipt' is not cut off
    await page.setViewportSize({ width: 390, height: 844 })
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    expect(await frame.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true)
    await expect
      .poll(async () => Math.abs((await page.locator('iframe').first().boundingBox())!.height - (await frame.evaluate(() => document.body.getBoundingClientRect().height))), { timeout: 10_000 })
      .toBeLessThan(2)
    expect(await frame.evaluate(() => document.documentElement.scrollHeight <= document.documentElement.clientHeight)).toBe(true)
    const [saveBox, frameBox] = await Promise.all([frame.getByRole('button', { name: 'Save receipt' }).boundingBox(), page.locator('iframe').first().boundingBox()])
    expect(saveBox!.y + saveBox!.height).toBeLessThanOrEqual(frameBox!.y + frameBox!.height)
    await screenshot(page, '33b-storefront-order-paid-390')
    await page.close()
  })
})
