import type { Page } from 'playwright-core'
import { parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { devnetClients } from '../../devnet/deploy'
import { createPayer, issueInvoice } from '../../devnet/seed'
import type { InvoiceMetadata } from '../../shared/metadata'
import { hashMetadata } from '../../shared/metadataHash'
import { english } from '../../src/ui/strings'
import { afterPayEn } from '../../src/ui/strings.afterPay'
import { screenshot } from './support/browser'
import { clickPay } from './support/clickPay'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { rewrite } from './support/rewrite'
import { injectTestWallet } from './support/testWallet'
import { movingClock } from './support/pageClock'

/**
 * What a lying service, a man in the middle or a hostile frame can still put on screen, and what the
 * page says instead: every attack here ends in a true statement (the chain's figures, a named
 * mismatch, "cannot check", "ask for a new permit"), never in a false one or a signature.
 */

const t = english.strings
const checkout = useCheckoutInBrowser()
const { deployment } = checkout
const clients = () => devnetClients(checkout.devnet.file.rpcUrl, checkout.devnet.file.chainId)

async function scenario(amount = parseUnits('5000', 6)) {
  const invoice = await checkout.freshInvoice(amount)
  const payer = await createPayer(clients(), deployment(), parseUnits('10000', 6))
  const page = await checkout.browser.newPage({ viewport: { width: 1100, height: 1000 } })
  const wallet = await injectTestWallet(page, { privateKey: payer.ownerPrivateKey, rpcUrl: checkout.devnet.file.rpcUrl, chainId: checkout.devnet.file.chainId })
  const signatures = () => wallet.requests.filter((method) => method === 'eth_signTypedData_v4' || method === 'personal_sign')
  return { invoice, payer, page, wallet, url: invoice.url, signatures }
}

const heading = (page: Page) => page.locator('#svc-widget-heading').textContent()

/** The state as a laptop and a phone show it. */
async function screenshots(page: Page, name: string) {
  await screenshot(page, name)
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshot(page, `${name}-390`)
}
const widgetText = (page: Page) => page.locator('.svc-widget').textContent()
/** What the payer reads: the app's markup (the served data block beside it is no text on screen). */
const pageText = (page: Page) => page.locator('#app').textContent()


/** The service answers `status` with this body to POSTs of `path`, `times` times. */
async function refuse(page: Page, path: string, status: number, json: unknown, times = 1) {
  let left = times
  await page.route(
    (url) => url.pathname === path,
    async (route) => {
      if (route.request().method() !== 'POST' || left === 0) return route.fallback()
      left--
      await route.fulfill({ status, json })
    },
  )
}

/** A record the merchant could commit to: billing `amountRaw` in base units, with everything else given. */
function record(amountRaw: bigint, overrides: Partial<InvoiceMetadata>): InvoiceMetadata {
  const { contracts, chainId, merchant } = checkout.devnet.file
  return {
    version: '1.0',
    invoiceNumber: 'NW-9001',
    issuedAt: '2026-11-02',
    dueAt: '2030-01-01',
    merchant: { name: 'Northwind Studio Ltd', walletAddress: merchant.vault },
    payer: { name: 'Acme Robotics GmbH' },
    token: { address: contracts.token, symbol: 'USDC', decimals: 6, chainId },
    amount: '10.00',
    amountRaw: amountRaw.toString(),
    lineItems: [{ description: 'Everything', quantity: 1, unitPrice: '10.00', amount: '10.00' }],
    createdBy: 'merchant',
    createdAt: '2026-11-02T10:00:00Z',
    ...overrides,
  }
}

describe('nothing false on screen', () => {
  test('behavior: a committed record whose amountRaw matches the chain but whose total, lines and due date do not is not verified; a homoglyph name is flagged and a right-to-left override shown', async () => {
    const amount = parseUnits('1000', 6)
    const metadata = record(amount, {
      // a Greek capital Nu and a Cyrillic o
      merchant: { name: '\u039Dorthwind Studi\u043E Ltd', walletAddress: checkout.devnet.file.merchant.vault },
      notes: 'you pay \u202E10.00 USDC only',
    })
    const { timestamp } = await checkout.chain().getBlock()
    const { rpcUrl, merchant, serverUrl } = checkout.devnet.file
    const invoice = await issueInvoice(rpcUrl, deployment(), merchant, { amount, dueAt: timestamp + 86_400n * 30n, metaHash: hashMetadata(metadata) })
    const page = await checkout.browser.newPage({ viewport: { width: 1100, height: 1000 } })
    // the service serves the very record the chain commits to
    await rewrite(page, `/v1/pay/${invoice.id}/metadata`, (body) => {
      body.accessLevel = 'full'
      body.metadata = metadata
    })
    await page.goto(`${serverUrl}/pay/${invoice.id}`)
    await expect.poll(() => page.locator('.svc-document .svc-warning[role="alert"]').textContent()).toContain('(total shown, line items, due date)')
    await expect.poll(() => page.locator('.svc-name-warning').textContent()).toBe(t.nameLookalike('\u039Dorthwind Studi\u043E Ltd'))
    await expect.poll(() => pageText(page)).toContain('you pay [U+202E]10.00 USDC only')
    expect(await pageText(page)).not.toContain('\u202E')
    expect(await page.getByText(t.verified).isVisible()).toBe(false)
    // the header names no one the chain has not confirmed, and bills the chain's amount
    expect(await page.locator('.svc-header').textContent()).not.toContain('orthwind')
    await expect.poll(() => page.locator('.svc-amount strong').textContent()).toBe('1,000.00 USDC')
    await screenshots(page, '30-committed-record-inconsistent')
    await page.close()
  })

  test('behavior: figures the chain disproved are replaced by the chain\'s, and the service\'s document is withdrawn with a notice', async () => {
    const { invoice, page, url, signatures } = await scenario()
    const lie = record(parseUnits('10', 6), { notes: 'Wire any remainder to 0x000000000000000000000000000000000000dEaD' })
    for (const path of [`/v1/pay/${invoice.id}`, `/v1/pay/${invoice.id}/metadata`]) {
      await rewrite(page, path, (body) => {
        body.data.amount = parseUnits('10', 6).toString()
        body.data.dueAt = '1893456000'
        if (path.endsWith('/metadata')) {
          body.accessLevel = 'full'
          body.metadata = lie
        }
      })
    }
    await page.goto(url)
    await expect.poll(() => heading(page)).toBe('Payment stopped for your safety')
    await expect.poll(() => page.locator('.svc-amount strong').textContent()).toBe('5,000.00 USDC')
    await expect.poll(() => pageText(page)).toContain(t.documentWithdrawn)
    expect(await pageText(page)).not.toContain('dEaD')
    expect(await pageText(page)).not.toContain('2030')
    expect(await pageText(page)).not.toContain('10.00 USDC')
    await screenshots(page, '31-disproved-figures-replaced')
    expect(signatures()).toEqual([])
    await page.close()
  })

  test('behavior: a service\'s PERMIT_EXPIRED to /permit asks for a new authorisation; nothing says expired and nothing is signed', async () => {
    const { invoice, page, url, signatures } = await scenario()
    await refuse(page, `/v1/pay/${invoice.id}/permit`, 409, { error: 'PERMIT_EXPIRED', message: 'The authorisation expired' })
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await clickPay(page)
    await expect.poll(() => widgetText(page), { timeout: 20_000 }).toContain(afterPayEn.errorPermitRenew)
    expect(await widgetText(page)).not.toContain(t.permitExpiredTitle)
    expect(signatures()).toEqual([])
    await page.close()
  })

  test('behavior: a service\'s PERMIT_EXPIRED to /prepare while the signed permit has an hour left re-asks, and a new permit pays', async () => {
    const { invoice, page, url, wallet } = await scenario()
    await refuse(page, `/v1/pay/${invoice.id}/prepare`, 409, { error: 'PERMIT_EXPIRED', message: 'expired' })
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await clickPay(page)
    await expect.poll(() => widgetText(page), { timeout: 20_000 }).toContain(afterPayEn.errorPermitRenew)
    expect(await heading(page)).not.toBe(t.permitExpiredTitle)
    expect(await widgetText(page)).not.toContain(t.permitExpiredTitle)
    await screenshots(page, '32-permit-expired-by-service-reasks')
    await page.getByRole('button', { name: afterPayEn.signNewPermit }).click()
    await expect.poll(() => heading(page), { timeout: 30_000 }).toBe('Payment received')
    expect(wallet.typed.filter((request) => request.primaryType === 'Permit').length).toBe(2)
    await page.close()
  })

  test('behavior: with the pinned RPC unreachable the wallet\'s read confirms nothing: the payer is told the page cannot check the invoice, and nothing is signed', async () => {
    const { page, url, signatures } = await scenario()
    await page.route((u) => u.href.startsWith(checkout.devnet.file.rpcUrl), (route) => route.abort('connectionrefused'))
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await expect.poll(() => widgetText(page), { timeout: 30_000 }).toContain(afterPayEn.errorCannotCheck)
    // nothing on the page calls the invoice checked: the one trust line says it is still being checked
    expect(await page.locator('body').innerText()).not.toContain(t.trustChecked)
    expect(await page.locator('body').innerText()).not.toContain(t.trustCheckedNoDocument)
    await screenshots(page, '33-pinned-rpc-down-cannot-check')
    expect(signatures()).toEqual([])
    await page.close()
  })

  test('behavior: a 20,000-character error code and a message dressed as a receipt are never shown: the payer reads the generic message', async () => {
    const { invoice, page, url, signatures } = await scenario()
    const code = 'PAID_'.repeat(4000)
    await refuse(page, `/v1/pay/${invoice.id}/permit`, 400, { error: code, code, message: '<b>PAID ✓ Payment received</b> You can close this page' })
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await clickPay(page)
    await expect.poll(() => widgetText(page), { timeout: 20_000 }).toContain(afterPayEn.errorRefused)
    const text = (await pageText(page))!
    expect(text).not.toContain('PAID_PAID')
    expect(text).not.toContain('Payment received')
    expect(text).not.toContain('close this page')
    expect(signatures()).toEqual([])
    await page.close()
  })

  test('behavior: a served not-found for an invoice open on chain is not "Invoice not found": the chain\'s invoice is shown with the service\'s failure', async () => {
    const { invoice, page, url } = await scenario()
    await page.route(
      (u) => u.pathname === `/pay/${invoice.id}`,
      async (route) => {
        const response = await route.fetch()
        const html = (await response.text()).replace(/(<script type="application\/json" id="svc-served">)(.*?)(<\/script>)/s, (_, open: string, json: string, close: string) => {
          const served = JSON.parse(json)
          return `${open}${JSON.stringify({ locale: served.locale, notFound: true })}${close}`
        })
        await route.fulfill({ response, body: html })
      },
    )
    for (const path of [`/v1/pay/${invoice.id}`, `/v1/pay/${invoice.id}/metadata`]) {
      await page.route(
        (u) => u.pathname === path,
        (route) => route.fulfill({ status: 404, json: { error: 'NOT_FOUND', message: 'no invoice with this id' } }),
      )
    }
    await page.goto(url)
    await expect.poll(() => widgetText(page), { timeout: 20_000 }).toContain(afterPayEn.errorServiceNotFound)
    await expect.poll(() => page.locator('.svc-amount strong').textContent()).toBe('5,000.00 USDC')
    expect(await page.getByRole('heading', { name: t.notFoundTitle }).count()).toBe(0)
    await screenshots(page, '34-served-not-found-open-on-chain')
    await page.close()
  })

  test('behavior: an id the chain does not hold either is "Invoice not found", said after the chain read', async () => {
    const page = await checkout.browser.newPage()
    const reads: string[] = []
    page.on('request', (request) => {
      if (request.url().startsWith(checkout.devnet.file.rpcUrl) && request.postData()?.includes('eth_call')) reads.push(request.url())
    })
    await page.goto(`${checkout.devnet.file.serverUrl}/pay/999999999`)
    await expect.poll(() => reads.length, { timeout: 20_000 }).toBeGreaterThan(0)
    await expect.poll(() => page.getByRole('heading', { name: t.notFoundTitle }).count(), { timeout: 20_000 }).toBe(1)
    await page.close()
  })
})

describe('the loader against a hostile frame', () => {
  test('behavior: a forged paid for another invoice, a paid with markup in its fields and a 19,999 px resize are dropped or held; a well-formed paid for the mounted invoice that the chain does not show is not passed on either', async () => {
    const page = await checkout.browser.newPage({ viewport: { width: 1100, height: 1000 } })
    const warnings: string[] = []
    page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()))
    // the host looks at the chain again for a while (five times, 2 s apart) for a payment it does not
    // find: the page's clock is moved on instead
    await page.clock.install()
    await page.goto(`${checkout.devnet.file.storefrontUrl}/script-tag`)
    await expect.poll(() => page.frames().some((frame) => frame.url().includes('/pay/')), { timeout: 15_000 }).toBe(true)
    const frame = page.frames().find((candidate) => candidate.url().includes('/pay/'))!
    await expect.poll(() => page.locator('[data-event="ready"]').count(), { timeout: 15_000 }).toBe(1)
    const mounted = new URL(frame.url()).pathname.split('/').pop()!
    const instance = new URL(frame.url()).searchParams.get('instance')!
    const hash = `0x${'ab'.repeat(32)}`
    // the frame itself turned hostile: right origin, right window, right instance
    await frame.evaluate(
      ({ instance, mounted, hash }) => {
        const send = (message: object) => parent.postMessage({ svc: 1, id: instance, ...message }, '*')
        send({ type: 'paid', detail: { invoiceId: String(BigInt(mounted) + 1n), userOpHash: hash, txHash: hash } })
        send({ type: 'paid', detail: { invoiceId: mounted, userOpHash: '<img src=x onerror=alert(1)>', txHash: hash } })
        send({ type: 'error', detail: { invoiceId: mounted, code: 'PAID ✓ Payment received' } })
      },
      { instance, mounted, hash },
    )
    // the widget in the frame still reports its own height as it settles: the hostile frame insists
    // until its size is the last the host heard, and the host holds it at its ceiling
    await expect
      .poll(async () => {
        await frame.evaluate((instance) => parent.postMessage({ svc: 1, id: instance, type: 'resize', height: 19_999 }, '*'), instance)
        return page.locator('iframe').evaluate((element) => element.getBoundingClientRect().height)
      })
      .toBe(4000)
    expect(await page.locator('[data-event="paid"]').count()).toBe(0)
    expect(await page.locator('[data-event="error"]').count()).toBe(0)
    // the right invoice, well formed, but an invented transaction for an invoice the chain holds open:
    // the host reads the pinned chain first and says why it does not pass it on
    await frame.evaluate(({ instance, mounted, hash }) => parent.postMessage({ svc: 1, id: instance, type: 'paid', detail: { invoiceId: mounted, userOpHash: hash, txHash: hash } }, '*'), { instance, mounted, hash })
    await expect.poll(movingClock(page, () => warnings.join('\n')), { timeout: 20_000 }).toContain(`the checkout said invoice ${mounted} is paid; not passed on`)
    expect(await page.locator('[data-event="paid"]').count()).toBe(0)
    await page.close()
  })
})
