import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Frame, Page } from 'playwright-core'
import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { permitTypedData, permitTypedDataJson } from '../../shared/permit'
import { accessibilityViolations } from './support/accessibilityViolations'
import { screenshot } from './support/browser'
import { useCheckoutInBrowser, type BrowserDevnet } from './support/checkoutInBrowser'
import { injectTestWallet } from './support/testWallet'
import { movingClock } from './support/pageClock'

const checkout = useCheckoutInBrowser()
let devnet: BrowserDevnet
let browser: Browser
let stranger: Server
let strangerUrl = ''
const referers: string[] = []
const checkoutRequests: string[] = []

beforeAll(async () => {
  ;({ devnet, browser } = checkout)
  // a third origin that is not allowed to frame the pay page
  stranger = createServer((_req, res) => {
    const invoice = devnet.file.invoices[0]!
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><iframe id="pay" src="${invoice.shareLink}&embed=1"></iframe>`)
  })
  await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve))
  strangerUrl = `http://127.0.0.1:${(stranger.address() as AddressInfo).port}`
}, 90_000)
afterAll(async () => {
  await new Promise((resolve) => stranger?.close(resolve))
})

const chain = () => createPublicClient({ transport: http(devnet.file.rpcUrl) })
async function paidEvent(id: string) {
  const [event] = await chain().getContractEvents({ address: devnet.file.contracts.registry, abi: invoiceRegistryAbi, eventName: 'InvoicePaid', args: { id: BigInt(id) }, fromBlock: 0n })
  return event
}

async function storefrontPage(options: { topOnly: boolean }) {
  return (await storefrontWithWallet(options)).page
}

async function storefrontWithWallet(options: { topOnly: boolean; viewport?: { width: number; height: number } }) {
  // a context of its own: axe finishes its run in a second page of the same context
  const page = await (await browser.newContext({ viewport: options.viewport ?? { width: 1100, height: 1100 } })).newPage()
  page.on('request', (request) => {
    const referer = request.headers()['referer']
    if (referer) referers.push(referer)
    if (request.url().startsWith(devnet.file.serverUrl)) checkoutRequests.push(request.url())
  })
  const wallet = await injectTestWallet(page, { privateKey: devnet.file.payer.ownerPrivateKey, rpcUrl: devnet.file.rpcUrl, chainId: devnet.file.chainId, topOnly: options.topOnly })
  return { page, wallet }
}

/** Serves a changed copy of the checkout's files matching `pattern`: a compromised checkout server. */
async function tamper(page: Page, pattern: string) {
  await page.route(pattern, async (route) => {
    const response = await route.fetch()
    await route.fulfill({ response, body: `window.__tampered = true;\n${await response.text()}` })
  })
}

async function payFrame(page: Page): Promise<Frame> {
  await expect.poll(() => page.frames().some((frame) => frame.url().includes('/pay/')), { timeout: 15_000 }).toBe(true)
  return page.frames().find((frame) => frame.url().includes('/pay/'))!
}

const heading = (frame: Frame) => frame.locator('#svc-widget-heading').textContent()

describe('embedding on a storefront origin', () => {
  test('behavior: forged messages from another origin or frame change nothing', async () => {
    const page = await storefrontPage({ topOnly: true })
    await page.goto(`${devnet.file.storefrontUrl}/script-tag`)
    const frame = await payFrame(page)
    await expect.poll(() => frame.getByRole('button', { name: /via 127\.0\.0\.1/ }).count(), { timeout: 15_000 }).toBe(1)
    const instance = new URL(frame.url()).searchParams.get('instance')!
    // the host page itself, a frame of another origin and the pay frame's own window forge messages
    await page.evaluate((id) => {
      const forged = { svc: 1, id, type: 'paid', detail: { invoiceId: '1', userOpHash: '0x01', txHash: '0x02' } }
      window.postMessage(forged, '*')
      const evil = document.createElement('iframe')
      evil.srcdoc = `<script>parent.postMessage(${JSON.stringify(forged)}, '*')</script>`
      document.body.appendChild(evil)
    }, instance)
    await frame.evaluate((id) => {
      // into the pay frame, from itself rather than its parent: a fake host wallet
      window.postMessage({ svc: 1, id, type: 'wallet:providers', providers: [{ uuid: 'x', name: 'Evil Wallet', icon: 'data:,', rdns: 'evil' }], hostOrigin: 'https://evil.example' }, '*')
    }, instance)
    await page.waitForTimeout(500)
    expect(await page.locator('[data-event="paid"]').count()).toBe(0)
    expect(await frame.getByRole('button', { name: /Evil Wallet/ }).count()).toBe(0)
    await page.close()
  })

  // before the script-tag payment below: the invoice is still open, so only the permit's own fields are refused
  test('behavior: code in the checkout frame gets the host wallet to sign neither a foreign permit nor a bare hash', async () => {
    const { page, wallet } = await storefrontWithWallet({ topOnly: true })
    await page.goto(`${devnet.file.storefrontUrl}/script-tag`)
    const frame = await payFrame(page)
    // the frame asks for the host's wallets as it starts, whatever the invoice's state: the bridge is loaded
    await expect.poll(() => page.evaluate(() => '__svcBridge' in window), { timeout: 15_000 }).toBe(true)
    const instance = new URL(frame.url()).searchParams.get('instance')!
    const { contracts, chainId, payer } = devnet.file
    // a permit that lets an attacker drain the payer's own account, in the pinned token's real domain
    const foreignPermit = permitTypedDataJson(
      permitTypedData(
        { name: 'USD Coin', version: '2', chainId, verifyingContract: contracts.token },
        { owner: payer.owner, spender: '0x000000000000000000000000000000000000dEaD', value: 10n ** 12n, nonce: 0n, deadline: BigInt(Math.floor(Date.now() / 1000) + 3600) },
      ),
    )
    // as a compromised checkout would: straight to the host, around the page's own checks
    const ask = (method: string, params: unknown[], rid: number) =>
      frame.evaluate(
        ({ id, parentOrigin, method, params, rid }) =>
          new Promise<number | 'signed'>((resolve) => {
            addEventListener('message', (event) => {
              if (event.data?.type === 'wallet:response' && event.data.rid === rid) resolve(event.data.error ? event.data.error.code : 'signed')
            })
            parent.postMessage({ svc: 1, id, type: 'wallet:request', rid, uuid: '5d0e1c1e-7f1b-4c55-9a8e-0b7f1c2d3e4f', method, params }, parentOrigin)
          }),
        { id: instance, parentOrigin: devnet.file.storefrontUrl, method, params, rid },
      )
    expect(await ask('eth_signTypedData_v4', [payer.owner, foreignPermit], 9001)).toBe(4100)
    expect(await ask('personal_sign', [`0x${'0e'.repeat(32)}`, payer.owner], 9002)).toBe(4200)
    expect(await ask('svc_signUserOperation', [{ sender: payer.vault }, payer.owner], 9003)).toBe(4100)
    expect(wallet.requests.filter((method) => method === 'eth_signTypedData_v4' || method === 'personal_sign')).toEqual([])
    await page.close()
  })

  test('behavior: one script tag pays through the host wallet bridge and the host receives paid with the txHash; on a phone, compact by default, Pay 1,300 px nearer the top, the frame as tall as its content and nothing wider than the screen', async () => {
    const product = devnet.file.invoices[0]!
    const screen = { width: 390, height: 844 }
    const { page, wallet } = await storefrontWithWallet({ topOnly: true, viewport: screen })
    await page.goto(`${devnet.file.storefrontUrl}/script-tag`)
    const frame = await payFrame(page)
    // the tag names no layout: the embed's default is the compact one, the document one tap away
    expect(new URL(frame.url()).searchParams.has('layout')).toBe(false)
    await expect.poll(() => frame.locator('main').getAttribute('class'), { timeout: 15_000 }).toMatch(/\bsvc-page-compact\b/)
    expect(await frame.locator('details.svc-disclosure summary').textContent()).toBe('Show the invoice')
    const bridged = frame.getByRole('button', { name: /Test Wallet · via 127\.0\.0\.1/ })
    await expect.poll(() => bridged.count(), { timeout: 15_000 }).toBe(1)
    // the wallet lives only in the host page: inside the frame it is reached through the bridge
    expect(await frame.getByRole('button', { name: /^Test Wallet$/ }).count()).toBe(0)
    await expect.poll(() => page.locator('[data-event="ready"]').count()).toBe(1)
    await screenshot(page, '10-storefront-script-tag')
    /** The frame is as tall as the page in it: nothing scrolls inside it, nothing of it is cut off. */
    const frameFitsContent = async () => {
      const box = (await page.locator('iframe').first().boundingBox())!
      const inner = await frame.evaluate(() => ({ content: document.body.getBoundingClientRect().height, scroll: document.documentElement.scrollHeight, view: document.documentElement.clientHeight }))
      return Math.abs(box.height - inner.content) < 2 && inner.scroll <= inner.view
    }
    await expect.poll(frameFitsContent, { timeout: 10_000 }).toBe(true)
    expect(await accessibilityViolations(page, { within: 'iframe' })).toEqual([])
    await bridged.click()
    const pay = frame.getByRole('button', { name: /^Pay / })
    await pay.waitFor({ timeout: 20_000 })
    // on the page as it opens, unscrolled (the click above scrolls to the wallet if it has to): the
    // whole of Pay lies within the embed's first screen, 844 px from the frame's top (Pay comes before
    // the connected wallet's details, and the compact header, steps, brand band and language switch
    // take less room); on this shop's page, under its own 322 px of product, Pay starts about 920 px
    // down, where the compact layout put it 1,330 px down and the full one 2,800
    await page.evaluate(() => scrollTo(0, 0))
    const [payBox, frameTop] = [(await pay.boundingBox())!, (await page.locator('iframe').first().boundingBox())!.y]
    const payBottom = payBox.y + payBox.height - frameTop
    expect(payBottom, `Pay ends ${Math.round(payBottom)} px below the embed's top, on a ${screen.height} px screen`).toBeLessThanOrEqual(screen.height)
    // what the payer confirms is still there, under Pay: the wallet, the payment account with its one explanation, the balance
    const who = frame.locator('.svc-widget .svc-details')
    expect(await who.locator('dt').allTextContents()).toEqual(['Wallet', 'Your payment account', 'Balance'])
    expect(await who.locator('.svc-account-explained').textContent()).toBe('An account only your wallet controls, for paying invoices without a network fee.')
    // the steps on one line, the current one named, all three there for assistive technology
    expect(await frame.locator('.svc-steps li').allTextContents()).toEqual(['1Check the payment', '2Sign in your wallet', '3The network confirms it'])
    expect(await frame.locator('.svc-steps').evaluate((steps) => steps.getBoundingClientRect().height)).toBeLessThan(40)
    expect(await accessibilityViolations(page, { within: 'iframe' })).toEqual([])
    await screenshot(page, '10b-storefront-script-tag-ready-390')
    await pay.click()
    await expect.poll(() => heading(frame), { timeout: 20_000 }).toBe('Payment received')
    await expect.poll(frameFitsContent, { timeout: 10_000 }).toBe(true)
    const saveReceipt = frame.getByRole('button', { name: 'Save receipt' })
    expect(await saveReceipt.isVisible()).toBe(true)
    const [saveBox, frameBox] = await Promise.all([saveReceipt.boundingBox(), page.locator('iframe').first().boundingBox()])
    expect(saveBox!.y + saveBox!.height).toBeLessThanOrEqual(frameBox!.y + frameBox!.height)
    // every hash wraps: neither the shop's page nor the frame is wider than the screen
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(screen.width)
    expect(await frame.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true)
    expect(await accessibilityViolations(page, { within: 'iframe' })).toEqual([])
    await expect.poll(() => page.locator('[data-event="paid"]').count(), { timeout: 10_000 }).toBe(1)
    const detail = JSON.parse((await page.locator('[data-event="paid"]').textContent())!.replace(/^paid /, ''))
    const onChain = await paidEvent(product.id)
    expect(detail).toMatchObject({ invoiceId: product.id, txHash: onChain?.transactionHash })
    expect(detail.userOpHash).toMatch(/^0x[0-9a-f]{64}$/)
    // the host's wallet signed the permit and the payment's message, which the host rebuilt from the
    // operation it verified: what it shows is the invoice on the chain
    expect(wallet.requests.filter((method) => method === 'personal_sign' || method === 'eth_sign')).toEqual([])
    expect(wallet.typed.map((request) => request.primaryType)).toEqual(['Permit', 'Payment'])
    const invoiceOnChain = await chain().readContract({ address: devnet.file.contracts.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [BigInt(product.id)] })
    expect(wallet.typed[1]!.message).toMatchObject({
      invoice: product.id,
      merchant: invoiceOnChain.merchant,
      token: invoiceOnChain.token,
      amount: invoiceOnChain.amount.toString(),
      operation: detail.userOpHash,
    })
    await screenshot(page, '11-storefront-paid')
    await page.context().close()
  })

  // after the payment above: the invoice is Paid, so the checkout's own paid is true, and forged ones
  // must be told from it by what the chain shows
  test('behavior: a compromised checkout frame\'s forged paid does not reach the host page; the paid the chain shows does', async () => {
    const product = devnet.file.invoices[0]!
    const onChain = await paidEvent(product.id)
    const page = await storefrontPage({ topOnly: true })
    const warnings: string[] = []
    page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()))
    // the host looks at the chain again for a while (five times, 2 s apart) for a transaction it does
    // not find: the page's clock is moved on instead
    await page.clock.install()
    await page.goto(`${devnet.file.storefrontUrl}/script-tag`)
    const frame = await payFrame(page)
    // the checkout's own paid, for an invoice paid before it was mounted, is the chain's
    await expect.poll(() => page.locator('[data-event="paid"]').count(), { timeout: 20_000 }).toBe(1)
    const heard = () => page.locator('[data-event="paid"]').allTextContents()
    expect((await heard()).map((line) => JSON.parse(line.replace(/^paid /, '')))).toEqual([{ invoiceId: product.id, userOpHash: '', txHash: onChain!.transactionHash }])

    // code at the frame's origin, in the frame's own window, posting as the checkout would: every
    // check of the message itself passes (origin, window, instance, invoice, formats)
    const instance = new URL(frame.url()).searchParams.get('instance')!
    const [issued] = await chain().getContractEvents({ address: devnet.file.contracts.registry, abi: invoiceRegistryAbi, eventName: 'InvoiceIssued', args: { id: BigInt(product.id) }, fromBlock: 0n })
    const forged = [
      // an invented transaction
      { invoiceId: product.id, userOpHash: '', txHash: `0x${'ee'.repeat(32)}` },
      // a real transaction of the registry's for this invoice, not its payment: its issue
      { invoiceId: product.id, userOpHash: '', txHash: issued!.transactionHash },
      // the real transaction, an invented operation
      { invoiceId: product.id, userOpHash: `0x${'0a'.repeat(32)}`, txHash: onChain!.transactionHash },
    ]
    await frame.evaluate(
      ({ id, parentOrigin, forged }) => {
        for (const detail of forged) parent.postMessage({ svc: 1, id, type: 'paid', detail }, parentOrigin)
      },
      { id: instance, parentOrigin: devnet.file.storefrontUrl, forged },
    )
    // each is refused, and the console says why (the invented transaction after looking again for a while)
    const refusals = () => warnings.filter((text) => text.startsWith(`svc-checkout: the checkout said invoice ${product.id} is paid; not passed on`)).length
    await expect.poll(movingClock(page, refusals), { timeout: 30_000 }).toBe(3)
    expect(warnings.join('\n')).toContain("the transaction named does not carry the registry's payment of this invoice")
    expect(warnings.join('\n')).toContain('the transaction named does not carry the operation named')
    expect(await heard()).toHaveLength(1)
    await page.close()
  }, 60_000)

  test.each([
    ['the wallet bridge', '**/embed/bridge.*.js'],
    ['the kit that pins it', '**/embed/kit.*.js'],
  ])('behavior: %s tampered by the checkout server is refused under a loader pinned with SRI, and never runs', async (_, pattern) => {
    const page = await storefrontPage({ topOnly: true })
    const console: string[] = []
    page.on('console', (message) => console.push(message.text()))
    await tamper(page, pattern)
    await page.goto(`${devnet.file.storefrontUrl}/script-tag`)
    const frame = await payFrame(page)
    await expect.poll(() => console.join('\n'), { timeout: 15_000 }).toMatch(/integrity/)
    expect(await page.evaluate(() => (window as unknown as { __tampered?: boolean }).__tampered)).toBeUndefined()
    expect(await frame.getByRole('button', { name: /via 127\.0\.0\.1/ }).count()).toBe(0)
    await page.close()
  })

  test('behavior: a plain iframe of the pay page pays', async () => {
    const product = devnet.file.invoices[1]!
    const page = await storefrontPage({ topOnly: false })
    const refused: string[] = []
    page.on('console', (message) => message.text().includes('Content Security Policy') && refused.push(message.text()))
    await page.goto(`${devnet.file.storefrontUrl}/iframe`)
    const frame = await payFrame(page)
    // sized by the shop's own stylesheet, which its CSP allows: the checkout at its real size, not 300×150
    const box = await page.locator('iframe.checkout-frame').boundingBox()
    expect(box?.height).toBe(900)
    expect(box!.width).toBeGreaterThan(300)
    expect(refused).toEqual([])
    // the shop prices as the checkout shows amounts
    const checkoutTotal = await frame.locator('.svc-amount strong').textContent()
    expect(await page.locator('.price').textContent()).toBe(checkoutTotal)
    expect(checkoutTotal).toMatch(/^\d{1,3}(,\d{3})*\.\d{2} USDC$/)
    await frame.getByRole('button', { name: /^Test Wallet$/ }).click()
    await frame.getByRole('button', { name: /^Pay / }).click()
    await expect.poll(() => heading(frame), { timeout: 20_000 }).toBe('Payment received')
    expect(await paidEvent(product.id)).toBeDefined()
    await page.close()
  })

  test('behavior: an origin that is not allowed cannot frame the pay page', async () => {
    const page = await browser.newPage()
    const blocked: string[] = []
    page.on('console', (message) => blocked.push(message.text()))
    await page.goto(strangerUrl)
    // the browser's refusal, as it reports it; then what the frame shows once refused
    await expect.poll(() => blocked.join('\n')).toMatch(/frame-ancestors/)
    const frame = page.frames().find((f) => f !== page.mainFrame())
    const rendered = frame ? await frame.locator('#app').count().catch(() => 0) : 0
    expect(rendered).toBe(0)
    await page.close()
  })

  test('behavior: the access token never appears in a Referer header or the server log', async () => {
    const tokens = devnet.file.invoices.map((invoice) => new URL(invoice.shareLink).searchParams.get('token')!)
    const page = await storefrontPage({ topOnly: false })
    await page.goto(`${devnet.file.storefrontUrl}/iframe`)
    const frame = await payFrame(page)
    await expect.poll(() => frame.getByText('Checked: the amount, recipient and due date match the payment record.').isVisible(), { timeout: 15_000 }).toBe(true)
    await page.close()
    // the pages made token-bearing requests to the checkout, and none of them carried a referrer with it
    expect(checkoutRequests.some((url) => tokens.some((token) => url.includes(token)))).toBe(true)
    for (const referer of referers) for (const token of tokens) expect(referer).not.toContain(token)
    // the request log (JSON lines); the devnet's start-up summary prints the demo links on purpose
    const log = devnet
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .join('\n')
    expect(log).toContain(`"path":"/pay/${devnet.file.invoices[1]!.id}"`)
    for (const token of tokens) expect(log).not.toContain(token)
  })
})
