import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import jsQR from 'jsqr'
import type { Browser, Frame, Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { formatUnits, getAddress, getContractAddress, parseUnits } from 'viem'
import { describe, expect, onTestFinished, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { devnetClients } from '../../devnet/deploy'
import payment from '../../clear-signing/eip712-svc-checkout-Payment.json'
import { devnetWalletWriting } from '../../src/wallet/devnetWalletScreen'
import { formatTokenAmount } from '../../src/ui/format'
import { de } from '../../src/ui/strings.de'
import permit from '../../clear-signing/eip712-svc-checkout-devnet-usdc-Permit.json'
import { renderDescriptor, type Descriptor, type TypedDataRequest, type WalletKnowledge } from '../../shared/clearSigning/renderDescriptor'
import pinnedDevnet from '../../shared/devnet.deployment.json'
import { createPayer, mintTo } from '../../devnet/seed'
import { accessibilityViolations } from './support/accessibilityViolations'
import { artifactsDir } from './support/browser'
import { useCheckoutInBrowser, type BrowserDevnet } from './support/checkoutInBrowser'
import { answerDevnetWallet } from './support/devnetWalletPrompt'
import { rewrite } from './support/rewrite'
import { injectTestWallet } from './support/testWallet'
import { workerCheckout } from '../support/workerCheckout'

/**
 * The checkout as a payer meets it, on a phone (390 px) and a laptop (1280 px), on the pay page and
 * embedded in a shop: nothing takes focus or scrolls before the payer acts, nothing shifts while the
 * payment goes through, the receipt can be kept, the devnet wallet shows what it signs, and every
 * dead end says what to do. Every state is kept as a screenshot in test-results/screenshots/.
 */

const checkout = useCheckoutInBrowser()
const deployment = () => ({ chainId: checkout.devnet.file.chainId, ...checkout.devnet.file.contracts })
const clients = () => devnetClients(checkout.devnet.file.rpcUrl, checkout.devnet.file.chainId)
const widths = [390, 1280] as const
const usdc = (raw: string | bigint) => `${Number(formatUnits(BigInt(raw), 6)).toLocaleString('en-US', { minimumFractionDigits: 2 })} USDC`
const trustLine = 'Checked: the amount, recipient and due date match the payment record.'

type Screenshotting = { screenshotting: { begin(): void; end(): void } }

/** A screenshot taller than the window lays the page, and a frame in it, out anew: each document
 * notes when the test took one, so that what moved then is not counted as the payer's layout shift. */
async function shot(target: Page | ReturnType<Page['locator']>, name: string) {
  mkdirSync(artifactsDir, { recursive: true })
  const frames = ('goto' in target ? target : target.page()).frames()
  const mark = (step: 'begin' | 'end') => Promise.all(frames.map((frame) => frame.evaluate((step) => (window as unknown as Partial<Screenshotting>).screenshotting?.[step](), step).catch(() => {})))
  await mark('begin')
  await target.screenshot({ path: join(artifactsDir, `payer-${name}.png`), ...('goto' in target ? { fullPage: true } : {}) })
  await mark('end')
}

/** A page of its own context at `width`, with a fresh payer's wallet (funded vault unless told), and
 * every layout shift recorded that no input of the payer caused. */
async function payerPage(browser: Browser, width: number, { funds = parseUnits('100000', 6), accountFunds = 0n, startChainId, locale = 'en-US' }: { funds?: bigint; accountFunds?: bigint; startChainId?: number; locale?: string } = {}) {
  const payer = await createPayer(clients(), deployment(), funds)
  if (accountFunds > 0n) await mintTo(clients(), deployment(), payer.owner, accountFunds)
  const context = await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 }, locale })
  const page = await context.newPage()
  await page.addInitScript(() => {
    const shifts: number[] = []
    // when the test took a screenshot, on this document's clock (an entry can arrive after its end)
    const screenshots: [number, number][] = []
    ;(window as unknown as Screenshotting).screenshotting = {
      begin: () => void screenshots.push([performance.now(), Infinity]),
      end: () => void (screenshots.at(-1)![1] = performance.now()),
    }
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[] })[]) {
        if (entry.hadRecentInput || screenshots.some(([from, to]) => entry.startTime >= from && entry.startTime <= to)) continue
        shifts.push(entry.value)
        // what moved, when, in a window of what size, in which state, from where to where
        // (y/width x height): a failure names it
        moved.push(`${entry.value.toFixed(4)} t=${Math.round(entry.startTime)}ms ${innerWidth}x${innerHeight} [${document.querySelector('#svc-widget-heading')?.textContent}] ${entry.sources.map((source) => `${(source.node as Element | undefined)?.className || source.node?.nodeName} ${source.previousRect.y}/${source.previousRect.width}x${source.previousRect.height}->${source.currentRect.y}/${source.currentRect.width}x${source.currentRect.height}`).join(', ')}`)
      }
    }).observe({ type: 'layout-shift', buffered: true })
    const moved: string[] = []
    ;(window as unknown as { shifts: number[]; moved: string[] }).shifts = shifts
    ;(window as unknown as { moved: string[] }).moved = moved
  })
  const wallet = await injectTestWallet(page, {
    privateKey: payer.ownerPrivateKey,
    rpcUrl: checkout.devnet.file.rpcUrl,
    chainId: checkout.devnet.file.chainId,
    ...(startChainId === undefined ? {} : { startChainId }),
  })
  return { page, wallet, payer }
}

const heading = (where: Page | Frame) => where.locator('#svc-widget-heading').textContent()
const layoutShift = (where: Page | Frame) => where.evaluate(() => (window as unknown as { shifts: number[] }).shifts.reduce((sum, value) => sum + value, 0))

async function paidTransaction(invoiceId: string) {
  const [paid] = await clients().public.getContractEvents({ address: deployment().registry, abi: invoiceRegistryAbi, eventName: 'InvoicePaid', args: { id: BigInt(invoiceId) }, fromBlock: 0n })
  return paid!.transactionHash
}

type DemoInvoice = BrowserDevnet['file']['invoices'][number]
const unused: DemoInvoice[] = []
/** An open demo invoice with its metadata and share link, none used twice: this file's own set
 * first, then new sets of the worker's devnet. */
async function demoInvoice(): Promise<DemoInvoice> {
  if (unused.length === 0 && !usedOwnSet) {
    usedOwnSet = true
    unused.push(...checkout.devnet.file.invoices)
  }
  if (unused.length === 0) unused.push(...(await (await workerCheckout()).newDemoSet()).invoices)
  return unused.shift()!
}
let usedOwnSet = false

/** What the measured numbers were, for the report: kept beside the screenshots. */
const measured: Record<string, number> = {}
function keep(name: string, value: number) {
  measured[name] = value
  mkdirSync(artifactsDir, { recursive: true })
  writeFileSync(join(artifactsDir, 'payer-measured.json'), `${JSON.stringify(measured, null, 2)}\n`)
}

/**
 * A clear-signing wallet's rendering of the page's requests, each as the lines the payer reads: the
 * pinned token, the demo payer, and its vault a proxy of the implementation the devnet's factory
 * creates, with amounts and deadlines written as the devnet wallet on a page in `tag` writes them
 * (this process and the browser share the machine's time zone).
 */
async function asTheDevnetWalletRenders(page: Page, tag: string) {
  const { payer } = (await workerCheckout()).seed
  const vaultImplementation = getContractAddress({ from: getAddress(pinnedDevnet.vaultFactory), nonce: 1n })
  const knowledge: WalletKnowledge = {
    tokens: [{ chainId: pinnedDevnet.chainId, address: getAddress(pinnedDevnet.token), ticker: pinnedDevnet.tokenSymbol, decimals: pinnedDevnet.tokenDecimals }],
    from: payer.owner,
    implementationOf: (chain, address) => (chain === pinnedDevnet.chainId && address === getAddress(payer.vault) ? vaultImplementation : undefined),
    ...devnetWalletWriting(tag),
  }
  return async (index: number, descriptor: unknown) => {
    const typedData = (await page.evaluate(() => (window as unknown as { svcAsked: (string | null)[] }).svcAsked))[index]
    const screen = renderDescriptor(descriptor as Descriptor, JSON.parse(typedData!) as TypedDataRequest, knowledge)
    return [screen.intent, ...screen.lines]
  }
}

describe('the pay page as a payer meets it', () => {
  test.each(widths)('behavior: at %i px nothing takes focus on load, nothing shifts through a whole payment, and the saved receipt names invoice, amount, payee and transaction', async (width) => {
    const invoice = await demoInvoice()
    const { page, wallet, payer } = await payerPage(checkout.browser, width)
    await page.goto(invoice.shareLink)
    await expect.poll(() => heading(page)).toBe('Choose a wallet to pay with')
    await expect.poll(() => page.getByText(trustLine).isVisible()).toBe(true)
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true)
    expect(await page.getByText(/^You pay/).textContent()).toBe(`You pay ${usdc(invoice.amount)} to Northwind Studio Ltd · network fee: none (sponsored)`)
    await shot(page, `page-${width}-01-ready`)

    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await page.getByRole('button', { name: /^Pay / }).waitFor()
    // after the payer acted, focus is on the new state's heading
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('svc-widget-heading')
    expect(await page.locator('.svc-steps [aria-current="step"]').textContent()).toBe('1Check the payment')
    // Pay first, then who pays: the wallet, the payment account (its one explanation) and the balance
    const who = page.locator('.svc-widget .svc-details')
    expect(await who.locator('dt').allTextContents()).toEqual(['Wallet', 'Your payment account', 'Balance'])
    expect(await who.locator('.svc-account-explained').textContent()).toBe('An account only your wallet controls, for paying invoices without a network fee.')
    expect(await page.locator('.svc-widget :is(button.svc-primary, .svc-details)').evaluateAll((nodes) => nodes.map((node) => node.tagName))).toEqual(['BUTTON', 'DL'])
    expect(await page.locator('.svc-widget').textContent()).not.toMatch(/vault/i)
    expect(await accessibilityViolations(page)).toEqual([])
    await shot(page, `page-${width}-02-connected`)

    const held = wallet.holdNext('eth_signTypedData_v4')
    await page.getByRole('button', { name: /^Pay / }).click()
    const release = await held
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Authorise the payment in your wallet')
    expect(await page.locator('.svc-steps [aria-current="step"]').textContent()).toBe('2Sign in your wallet')
    // one deadline in view, and the contract that takes the amount folded under the details
    expect(await page.locator('.svc-widget dt:visible').allTextContents()).toEqual(['Amount', 'Token', 'Paid to', 'Valid until'])
    expect(await page.getByText('Taken by (invoice registry)').isVisible()).toBe(false)
    await page.locator('.svc-widget details.svc-technical:visible summary', { hasText: 'Technical details' }).click()
    expect(await page.getByText('Taken by (invoice registry)').isVisible()).toBe(true)
    expect(await accessibilityViolations(page)).toEqual([])
    await shot(page, `page-${width}-03-signing-permit`)
    release()
    await expect.poll(() => heading(page), { timeout: 30_000 }).toBe('Payment received')
    // the receipt names the wallet the payer connected, with the payment account the chain records as
    // the payer as its detail; the operation's hash is folded under the details
    const receipt = page.getByRole('region', { name: 'Receipt' })
    const row = (label: string) => receipt.locator('.svc-detail', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('[title]').first().getAttribute('title')
    expect(await row('Paid from')).toBe(payer.owner)
    const [onChainPayer] = await clients().public.getContractEvents({ address: deployment().registry, abi: invoiceRegistryAbi, eventName: 'InvoicePaid', args: { id: BigInt(invoice.id) }, fromBlock: 0n })
    expect(getAddress((await row('Your payment account')) ?? '')).toBe(getAddress(onChainPayer!.args.payer!))
    expect(getAddress(onChainPayer!.args.payer!)).toBe(getAddress(payer.vault))
    expect(await receipt.getByText('Operation hash').isVisible()).toBe(false)
    expect(await receipt.locator('details.svc-technical summary').textContent()).toBe('Technical details')
    expect(await accessibilityViolations(page)).toEqual([])
    await shot(page, `page-${width}-04-paid`)
    const cls = await layoutShift(page)
    keep(`cls-page-${width}`, cls)
    expect(cls, (await page.evaluate(() => (window as unknown as { moved: string[] }).moved)).join('\n')).toBeLessThan(0.01)

    // the receipt as the payer saves it: the print layout, as chromium prints it to PDF
    const tx = await paidTransaction(invoice.id)
    await page.emulateMedia({ media: 'print' })
    const dir = mkdtempSync(join(tmpdir(), 'svc-receipt-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    await page.pdf({ path: join(dir, 'receipt.pdf'), format: 'A4' })
    const text = execFileSync('pdftotext', ['-layout', join(dir, 'receipt.pdf'), '-'], { encoding: 'utf8' })
    expect(text).toMatch(/receipt/i)
    expect(text).toContain(invoice.invoiceNumber)
    expect(text).toContain(usdc(invoice.amount))
    expect(text).toContain('Northwind Studio Ltd')
    expect(text.replace(/\s+/g, '')).toContain(tx)
    // the receipt alone: not the invoice's lines or the buttons
    expect(text).not.toContain('Save receipt')
    await page.context().close()
  })

  test('behavior: the devnet wallet shows each request as a wallet would; Reject comes back to the Pay step with nothing paid, Approve pays', { timeout: 120_000 }, async () => {
    const invoice = await demoInvoice()
    // the devnet wallet pays from the devnet's demo payer: enough in its vault for any demo invoice
    await mintTo(clients(), deployment(), (await workerCheckout()).seed.payer.vault, BigInt(invoice.amount))
    const context = await checkout.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })
    // what the page asked the devnet wallet to sign, as eth_signTypedData_v4's JSON, in order
    await context.addInitScript(() => {
      const asked: (string | null)[] = ((window as unknown as { svcAsked: (string | null)[] }).svcAsked = [])
      addEventListener('svc-devnet-wallet-request', (event) => asked.push((event as CustomEvent<{ request: { typedData: string | null } }>).detail.request.typedData))
    })
    const page = await context.newPage()
    await page.goto(invoice.shareLink)
    // the devnet wallet's own icon, sized to the button's line, not an empty square
    const icon = await page.getByRole('button', { name: 'Devnet wallet (demo payer)' }).locator('svg').boundingBox()
    expect([icon?.width, icon?.height]).toEqual([28, 28])
    await page.getByRole('button', { name: 'Devnet wallet (demo payer)' }).click()
    const pay = page.getByRole('button', { name: `Pay ${usdc(invoice.amount)}` })
    await pay.waitFor({ timeout: 20_000 })
    await pay.click()
    await page.getByRole('group', { name: 'Devnet wallet' }).waitFor({ timeout: 20_000 })
    await shot(page, 'page-1280-05-devnet-wallet-request')
    await page.setViewportSize({ width: 390, height: 844 })
    await shot(page, 'page-390-05-devnet-wallet-request')
    await page.setViewportSize({ width: 1280, height: 900 })
    const rendered = await asTheDevnetWalletRenders(page, 'en-US')
    const refused = await answerDevnetWallet(page, 'Reject')
    // the payer reads what the descriptor renders: no raw field, no warning
    expect(refused).toEqual(await rendered(0, permit))
    // the amount as the page beside it writes it
    expect(refused).toContain(`Amount: ${usdc(invoice.amount)}`)
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Pay this invoice')
    expect(await page.getByText('You declined the authorisation. Nothing was paid.').isVisible()).toBe(true)
    expect(await checkout.invoiceOnChain(BigInt(invoice.id)).then((onChain) => onChain.status)).toBe(1)
    await shot(page, 'page-1280-06-devnet-wallet-rejected')

    await pay.click()
    const approvedPermit = await answerDevnetWallet(page, 'Approve')
    expect(approvedPermit).toEqual(await rendered(1, permit))
    const approvedPayment = await answerDevnetWallet(page, 'Approve')
    expect(approvedPayment).toEqual(await rendered(2, payment))
    expect(approvedPayment.slice(0, 3)).toEqual(['Pay invoice', expect.stringMatching(/^Invoice no\.: \d+$/), `Amount: ${usdc(invoice.amount)}`])
    await expect.poll(() => heading(page), { timeout: 30_000 }).toBe('Payment received')
    expect(await page.getByText('Local test network: no explorer to link to.').isVisible()).toBe(true)
    expect(await checkout.invoiceOnChain(BigInt(invoice.id)).then((onChain) => onChain.status)).toBe(2)
    await context.close()
  })

  test('behavior: at 390 px in de-DE the devnet wallet writes amounts and the deadline as the German page does, beside German buttons, and Approve pays', { timeout: 120_000 }, async () => {
    const invoice = await demoInvoice()
    await mintTo(clients(), deployment(), (await workerCheckout()).seed.payer.vault, BigInt(invoice.amount))
    const context = await checkout.browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'de-DE' })
    await context.addInitScript(() => {
      const asked: (string | null)[] = ((window as unknown as { svcAsked: (string | null)[] }).svcAsked = [])
      addEventListener('svc-devnet-wallet-request', (event) => asked.push((event as CustomEvent<{ request: { typedData: string | null } }>).detail.request.typedData))
    })
    const page = await context.newPage()
    await page.goto(invoice.shareLink)
    await page.getByRole('button', { name: de.devnetWallet }).click()
    // the amount as the German page writes it on its Pay button: what the payer compares the wallet with
    const amount = formatTokenAmount(BigInt(invoice.amount), { symbol: 'USDC', decimals: 6 }, 'de-DE')
    expect(amount).toMatch(/^\d{1,3}(\.\d{3})*,\d{2} USDC$/)
    const pay = page.getByRole('button', { name: de.pay(amount) })
    await pay.waitFor({ timeout: 20_000 })
    await pay.click()
    const prompt = page.getByRole('group', { name: de.afterPay.devnetWalletTitle })
    await prompt.waitFor({ timeout: 20_000 })
    expect(await prompt.getByRole('button').allTextContents()).toEqual(['Ablehnen', 'Genehmigen'])
    expect(await prompt.locator(':scope > p').first().textContent()).toBe('Diese Seite bittet Sie, Folgendes zu unterschreiben:')
    // nothing wider than the phone
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await shot(page, 'page-390-05-devnet-wallet-request-de-DE')
    const rendered = await asTheDevnetWalletRenders(page, 'de-DE')
    const approvedPermit = await answerDevnetWallet(page, 'Approve', de.afterPay)
    expect(approvedPermit).toEqual(await rendered(0, permit))
    // the descriptor's own words, the wallet's German figures
    expect(approvedPermit).toContain(`Amount: ${amount}`)
    expect(approvedPermit.at(-1)).toMatch(/^Valid until: \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/)
    const approvedPayment = await answerDevnetWallet(page, 'Approve', de.afterPay)
    expect(approvedPayment).toEqual(await rendered(1, payment))
    expect(approvedPayment.slice(0, 3)).toEqual(['Pay invoice', expect.stringMatching(/^Invoice no\.: \d+$/), `Amount: ${amount}`])
    await expect.poll(() => heading(page), { timeout: 30_000 }).toBe(de.receiptTitle)
    expect(await checkout.invoiceOnChain(BigInt(invoice.id)).then((onChain) => onChain.status)).toBe(2)
    await context.close()
  })

  test('behavior: on a 390 px phone, as Lighthouse\'s mobile run loads it, the largest text the share link paints is the payment\'s summary from the server\'s page: nothing painted later (the chain\'s check, the record\'s, no wallet found) outgrows it', async () => {
    const invoice = await demoInvoice()
    // no wallet in this browser, on a phone: the page ends with the most text it shows before the
    // payer acts (at 1280 px the invoice document beside the payment has larger paragraphs, painted
    // from the server's page as well)
    const context = await checkout.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-US' })
    const page = await context.newPage()
    await page.addInitScript(() => {
      const painted: string[] = []
      ;(window as unknown as { painted: string[] }).painted = painted
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { element: Element | null })[]) painted.push(`${entry.element?.tagName}.${entry.element?.className}: ${entry.element?.textContent?.slice(0, 40)}`)
      }).observe({ type: 'largest-contentful-paint', buffered: true })
    })
    await page.goto(invoice.shareLink)
    await expect.poll(() => page.getByText(trustLine).isVisible(), { timeout: 20_000 }).toBe(true)
    await expect.poll(() => page.locator('.svc-elsewhere h3').isVisible(), { timeout: 20_000 }).toBe(true)
    expect(await page.locator('.svc-elsewhere h3').textContent()).toBe('Open in your wallet app')
    const painted = () => page.evaluate(() => (window as unknown as { painted: string[] }).painted)
    await expect.poll(async () => (await painted()).at(-1)?.split(':')[0]).toBe('P.svc-summary-line')
    await context.close()
  })

  test.each([
    ['de-DE', 'Ihr Zahlungskonto', 'Ein Konto, über das nur Ihre Wallet verfügt, um Rechnungen ohne Netzwerkgebühr zu bezahlen.', /Vault/],
    ['ar', 'حساب الدفع الخاص بك', 'حساب لا تتحكم فيه إلا محفظتك، لدفع الفواتير دون رسوم شبكة.', /vault/i],
  ] as const)('behavior: at 390 px in %s the connected payer reads Pay first, then the payment account under one name, explained once', async (locale, account, explained, otherName) => {
    const invoice = await demoInvoice()
    const { page } = await payerPage(checkout.browser, 390, { locale })
    await page.goto(invoice.shareLink)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    const pay = page.locator('.svc-widget button.svc-primary')
    await pay.waitFor({ timeout: 20_000 })
    const who = page.locator('.svc-widget .svc-details')
    expect((await who.locator('dt').allTextContents())[1]).toBe(account)
    expect(await page.locator('.svc-account-explained').allTextContents()).toEqual([explained])
    expect(await page.locator('.svc-widget').textContent()).not.toMatch(otherName)
    // nothing wider than the phone, right to left included
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    expect(await accessibilityViolations(page)).toEqual([])
    await shot(page, `page-390-connected-${locale}`)
    await page.context().close()
  })

  test.each(widths)('behavior: at %i px not enough funds shows the payment account\'s address to copy and as a QR code that reads back to it', async (width) => {
    const invoice = await demoInvoice()
    const { page, payer } = await payerPage(checkout.browser, width, { funds: 0n })
    await page.goto(invoice.shareLink)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Not enough funds')
    const qr = page.getByRole('img', { name: `QR code of the address ${payer.vault}` })
    await qr.waitFor()
    const png = PNG.sync.read(await qr.screenshot())
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(payer.vault)
    expect(await page.locator('.svc-fund').getByRole('button', { name: `Copy address ${payer.vault}` }).count()).toBe(1)
    // shortened in the middle, on one line
    const shortVault = `${payer.vault.slice(0, 6)}…${payer.vault.slice(-4)}`
    const box = await page.locator('.svc-fund .svc-hex-short', { hasText: shortVault }).boundingBox()
    expect(box!.height).toBeLessThan(30)
    await shot(page, `page-${width}-07-insufficient`)
    await page.context().close()
  })

  test.each(widths)('behavior: at %i px every dead end is a page in the payer\'s words: a malformed link (400), an unknown invoice (404), a link whose token no longer opens', async (width) => {
    const context = await checkout.browser.newContext({ viewport: { width, height: 844 }, locale: 'en-US' })
    const page = await context.newPage()
    const { serverUrl } = checkout.devnet.file
    const bad = await page.goto(`${serverUrl}/pay/abc`)
    expect(bad?.status()).toBe(400)
    expect(bad?.headers()['content-type']).toMatch(/^text\/html/)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This link is not complete')
    expect(await page.locator('body').textContent()).not.toMatch(/VALIDATION_ERROR|"error"/)
    await shot(page, `page-${width}-08-bad-link`)

    const unknown = await page.goto(`${serverUrl}/pay/987654321`)
    expect(unknown?.status()).toBe(404)
    // the chain read, one page: the server's not-found markup is replaced, not added to
    await expect.poll(() => page.getByRole('heading', { level: 1 }).allTextContents(), { timeout: 15_000 }).toEqual(['Invoice not found'])
    await page.waitForLoadState('networkidle')
    expect(await page.getByRole('heading', { level: 1 }).allTextContents()).toEqual(['Invoice not found'])
    await shot(page, `page-${width}-09-not-found`)

    const link = new URL((await demoInvoice()).shareLink)
    link.searchParams.set('token', `svc_tk_${'x'.repeat(43)}`)
    const withdrawn = await page.goto(link.toString())
    expect(withdrawn?.status()).toBe(200)
    await expect.poll(() => page.getByRole('heading', { name: 'This link does not open this invoice\'s details' }).isVisible()).toBe(true)
    // no name the record could confirm: the whole address stands in, with the notice
    await expect.poll(() => page.getByText(/^The recipient's name could not be confirmed/).isVisible(), { timeout: 15_000 }).toBe(true)
    // the whole address, on one line of its own even on a phone: never broken inside
    const address = page.locator('.svc-summary .svc-address')
    expect(await address.textContent()).toMatch(/^0x[0-9a-fA-F]{40}$/)
    const { height, width: addressWidth } = (await address.boundingBox())!
    expect(height).toBeLessThan(20)
    expect(addressWidth).toBeLessThanOrEqual((await page.locator('.svc-summary').boundingBox())!.width)
    await shot(page, `page-${width}-10-link-withdrawn`)
    await context.close()

    const german = await checkout.browser.newContext({ viewport: { width, height: 844 }, locale: 'de-DE' })
    const dePage = await german.newPage()
    const answer = await dePage.goto(`${serverUrl}/pay/abc`)
    expect(answer?.status()).toBe(400)
    expect(await dePage.getByRole('heading', { level: 1 }).textContent()).toBe('Dieser Link ist unvollständig')
    expect(await dePage.evaluate(() => document.documentElement.lang)).toBe('de')
    await german.close()
  })
})

describe('the states a payment can stop in, as a payer sees them', () => {
  test.each(widths)('behavior: at %i px the wrong network, a submitted payment not yet settled, a service that is down and an invoice the service misstates each say what happens next', async (width) => {
    const wrong = await payerPage(checkout.browser, width, { startChainId: 1 })
    await wrong.page.goto((await demoInvoice()).shareLink)
    await wrong.page.getByRole('button', { name: 'Test Wallet' }).click()
    await expect.poll(() => heading(wrong.page)).toBe('Wrong network')
    expect(await wrong.page.getByRole('button', { name: /^Switch to/ }).isVisible()).toBe(true)
    await shot(wrong.page, `page-${width}-11-wrong-network`)
    await wrong.page.context().close()

    const pendingInvoice = await demoInvoice()
    const pending = await payerPage(checkout.browser, width)
    await pending.page.route(
      (url) => url.pathname === `/v1/pay/${pendingInvoice.id}`,
      (route) => (route.request().method() === 'POST' ? route.fulfill({ status: 202, json: { status: 'pending', userOpHash: `0x${'ab'.repeat(32)}`, message: 'submitted, not yet included' } }) : route.fallback()),
    )
    await pending.page.goto(pendingInvoice.shareLink)
    await pending.page.getByRole('button', { name: 'Test Wallet' }).click()
    await pending.page.getByRole('button', { name: /^Pay / }).click()
    await expect.poll(() => heading(pending.page), { timeout: 20_000 }).toBe('Payment submitted')
    expect(await pending.page.locator('.svc-steps [aria-current="step"]').textContent()).toBe('3The network confirms it')
    // the service's 202 is its word, not the chain's: never "on its way"
    expect(await pending.page.getByText(/^The payment service says it sent your payment; nothing on the blockchain yet\./).isVisible()).toBe(true)
    await shot(pending.page, `page-${width}-12-pending`)
    await pending.page.context().close()

    const downInvoice = await demoInvoice()
    const down = await payerPage(checkout.browser, width)
    await down.page.route(
      (url) => url.pathname === `/v1/pay/${downInvoice.id}/permit`,
      (route) => route.fulfill({ status: 503, json: { error: 'BUNDLER_UNAVAILABLE', code: 'BUNDLER_UNAVAILABLE', message: 'the bundler is not answering' } }),
    )
    await down.page.goto(downInvoice.shareLink)
    await down.page.getByRole('button', { name: 'Test Wallet' }).click()
    await down.page.getByRole('button', { name: /^Pay / }).click()
    await expect.poll(() => heading(down.page), { timeout: 20_000 }).toBe('The payment did not go through')
    expect(await down.page.getByRole('button', { name: /^Try again/ }).count()).toBe(1)
    await shot(down.page, `page-${width}-13-service-down`)
    await down.page.context().close()

    const misstated = await demoInvoice()
    const unsafe = await payerPage(checkout.browser, width)
    for (const path of [`/v1/pay/${misstated.id}`, `/v1/pay/${misstated.id}/metadata`]) {
      await rewrite(unsafe.page, path, (body) => {
        body.data.amount = parseUnits('10', 6).toString()
      })
    }
    await unsafe.page.goto(misstated.shareLink)
    await expect.poll(() => heading(unsafe.page), { timeout: 20_000 }).toBe('Payment stopped for your safety')
    expect(await unsafe.page.getByRole('button', { name: /^Pay / }).count()).toBe(0)
    await shot(unsafe.page, `page-${width}-14-unsafe`)
    await unsafe.page.context().close()
  }, 120_000)
})

describe('the checkout embedded in a shop as a payer meets it', () => {
  /** A shop page on the storefront's origin (which the checkout lets frame it): tall, with its own
   * button focused and the page scrolled before the checkout loads in it. */
  async function shopPage(width: number, invoice: { id: string; shareLink: string }, layout: 'full' | 'compact' = 'full') {
    const { page, wallet } = await payerPage(checkout.browser, width, { funds: parseUnits('100000', 6) })
    const { storefrontUrl, serverUrl } = checkout.devnet.file
    const token = new URL(invoice.shareLink).searchParams.get('token')!
    await page.route(`${storefrontUrl}/payer-experience`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title></head>
<body><h1>Shop</h1><button id="host-button">Keep shopping</button><div style="height:700px"></div>
<script src="${serverUrl}/embed.js" data-invoice-id="${invoice.id}" data-token="${token}"${layout === 'compact' ? ' data-layout="compact"' : ''} async></script><div style="height:3000px"></div></body></html>`,
      }),
    )
    await page.goto(`${storefrontUrl}/payer-experience`, { waitUntil: 'domcontentloaded' })
    await page.evaluate(() => {
      document.getElementById('host-button')!.focus()
      scrollTo(0, 240)
    })
    return { page, wallet }
  }

  test.each([
    [390, 'full'],
    [1280, 'full'],
    [390, 'compact'],
  ] as const)('behavior: at %i px (%s layout) the embed neither scrolls nor takes focus from the host page as it loads, and pays', async (width, layout) => {
    const invoice = await demoInvoice()
    const { page } = await shopPage(width, invoice, layout)
    await expect.poll(() => page.frames().some((frame) => frame.url().includes('/pay/')), { timeout: 15_000 }).toBe(true)
    const frame = page.frames().find((candidate) => candidate.url().includes('/pay/'))!
    await expect.poll(() => heading(frame), { timeout: 20_000 }).toBe('Choose a wallet to pay with')
    await expect.poll(() => frame.getByText(trustLine).isVisible(), { timeout: 15_000 }).toBe(true)
    // the host as the payer left it
    expect(await page.evaluate(() => [scrollY, document.activeElement?.id])).toEqual([240, 'host-button'])
    expect(await frame.evaluate(() => document.activeElement === document.body)).toBe(true)
    const embed = page.locator('iframe').first()
    await embed.scrollIntoViewIfNeeded()
    await shot(embed, `embed-${layout}-${width}-01-ready`)
    await frame.getByRole('button', { name: /^Test Wallet$/ }).first().click()
    await frame.getByRole('button', { name: /^Pay / }).waitFor({ timeout: 20_000 })
    await shot(embed, `embed-${layout}-${width}-02-connected`)
    await frame.getByRole('button', { name: /^Pay / }).click()
    await expect.poll(() => heading(frame), { timeout: 30_000 }).toBe('Payment received')
    await shot(embed, `embed-${layout}-${width}-03-paid`)
    const frameShift = await layoutShift(frame)
    keep(`cls-embed-${layout}-frame-${width}`, frameShift)
    // inside the frame too: in one column the payment comes last (after the document, or after the
    // compact layout's disclosure), so its next state pushes nothing down
    expect(frameShift, (await frame.evaluate(() => (window as unknown as { moved: string[] }).moved)).join('\n')).toBeLessThan(0.01)
    // what the shop's page itself saw move (its own content under the frame): the host's layout shift
    const hostShift = await layoutShift(page)
    keep(`cls-embed-${layout}-host-${width}`, hostShift)
    expect(hostShift, (await page.evaluate(() => (window as unknown as { moved: string[] }).moved)).join('\n')).toBeLessThan(0.01)
    await page.context().close()
  })
})
