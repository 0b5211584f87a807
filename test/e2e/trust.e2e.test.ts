import type { Page } from 'playwright-core'
import { createTestClient, getAddress, http, parseUnits } from 'viem'
import { describe, expect, onTestFinished, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { devnetClients, devnetRoles } from '../../devnet/deploy'
import { cancelInvoice, createPayer } from '../../devnet/seed'
import { english } from '../../src/ui/strings'
import { afterPayEn } from '../../src/ui/strings.afterPay'
import { screenshot } from './support/browser'
import { clickPay } from './support/clickPay'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { reSponsored } from './support/reSponsored'
import { rewrite } from './support/rewrite'
import { injectTestWallet } from './support/testWallet'
import { movingClock } from './support/pageClock'

/**
 * The page attacked as a malicious payment service or a man in the middle would: every answer the
 * service gives can be rewritten in flight (Playwright routes), and the chain (anvil) is the truth.
 * Each attack must end in a refusal or in the state the chain shows, never in a signature or a false
 * fact on screen.
 */

const checkout = useCheckoutInBrowser()
const { chain, balanceOf, invoiceOnChain: onchain } = checkout
const { deployment } = checkout
const clients = () => devnetClients(checkout.devnet.file.rpcUrl, checkout.devnet.file.chainId)

/** A fresh open invoice of the demo merchant and a fresh payer who can pay it, and the page with the payer's wallet. */
async function scenario(amount = parseUnits('5000', 6)) {
  const invoice = await checkout.freshInvoice(amount)
  const payer = await createPayer(clients(), deployment(), parseUnits('10000', 6))
  const page = await checkout.browser.newPage({ viewport: { width: 1100, height: 1000 } })
  const wallet = await injectTestWallet(page, { privateKey: payer.ownerPrivateKey, rpcUrl: checkout.devnet.file.rpcUrl, chainId: checkout.devnet.file.chainId })
  const { url } = invoice
  const signatures = () => wallet.requests.filter((method) => method === 'eth_signTypedData_v4' || method === 'personal_sign')
  return { invoice, payer, page, wallet, url, signatures }
}

const heading = (page: Page) => page.locator('#svc-widget-heading').textContent()
const t = english.strings

/** Every heading the payer was shown, in order, from the page's first paint on. */
async function recordHeadings(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = ((window as unknown as { __headings: string[] }).__headings = [])
    new MutationObserver(() => {
      const text = document.getElementById('svc-widget-heading')?.textContent ?? ''
      if (text && seen.at(-1) !== text) seen.push(text)
    }).observe(document, { subtree: true, childList: true, characterData: true })
  })
  return () => page.evaluate(() => (window as unknown as { __headings: string[] }).__headings)
}

const widgetText = (page: Page) => page.locator('.svc-widget').textContent()

/** Counts the page's own reads of the chain's latest block: each one is a check of a signed operation. */
function chainChecks(page: Page) {
  let checks = 0
  page.on('request', (request) => {
    if (request.url().startsWith(checkout.devnet.file.rpcUrl) && request.postData()?.includes('eth_getBlockByNumber')) checks++
  })
  return () => checks
}

describe('the pay page against a lying payment service', () => {
  test('behavior: decimals and symbol from the service are never used: the amount is the pinned token\'s, and the payment moves exactly that', async () => {
    const { invoice, payer, page, url } = await scenario()
    for (const path of [`/v1/pay/${invoice.id}`, `/v1/pay/${invoice.id}/metadata`]) {
      await rewrite(page, path, (body) => {
        body.data.token.decimals = 9
        body.data.token.symbol = 'XYZ'
      })
    }
    await page.goto(url)
    await expect.poll(() => page.locator('.svc-amount strong').textContent()).toBe('5,000.00 USDC')
    expect(await page.getByText(/XYZ|5\.00 USDC/).count()).toBe(0)
    const before = await balanceOf(payer.vault)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await clickPay(page)
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Payment received')
    expect(await balanceOf(payer.vault)).toBe(before - parseUnits('5000', 6))
    await page.close()
  })

  test('behavior: an invoice the service misstates is refused before any wallet is offered, naming what differs', async () => {
    const { invoice, page, url, signatures } = await scenario()
    for (const path of [`/v1/pay/${invoice.id}`, `/v1/pay/${invoice.id}/metadata`]) {
      await rewrite(page, path, (body) => {
        body.data.amount = parseUnits('10', 6).toString()
      })
    }
    await page.goto(url)
    await expect.poll(() => heading(page)).toBe('Payment stopped for your safety')
    await expect.poll(() => widgetText(page)).toContain('Differs in: amount.')
    await expect.poll(() => widgetText(page)).toContain('You have not signed anything for this payment.')
    await screenshot(page, '20-unsafe-misstated-invoice')
    expect(await page.getByRole('button', { name: 'Test Wallet' }).count()).toBe(0)
    expect(signatures()).toEqual([])
    await page.close()
  })

  test('behavior: a service that says the invoice is Paid does not make it so: the chain says Issued and the page offers to pay', async () => {
    const { invoice, page, url } = await scenario()
    await rewrite(page, `/v1/pay/${invoice.id}`, (body) => {
      body.data.status = 'Paid'
      body.data.payer = devnetRoles.treasury.address
      body.data.txHash = `0x${'ee'.repeat(32)}`
    })
    await page.goto(url)
    await expect.poll(() => page.locator('.svc-badge').textContent()).toBe('Open')
    await expect.poll(() => heading(page)).toBe('Choose a wallet to pay with')
    expect(await page.getByText('This invoice is paid').count()).toBe(0)
    await page.close()
  })

  test('behavior: metadata that bills another amount than the chain is never marked verified, and says which fields differ', async () => {
    const seeded = checkout.devnet.file.invoices[0]!
    const page = await checkout.browser.newPage()
    await rewrite(page, `/v1/pay/${seeded.id}/metadata`, (body) => {
      body.metadata.amountRaw = parseUnits('10', 6).toString()
      body.metadata.amount = '10'
    })
    await page.goto(seeded.shareLink)
    await expect.poll(() => page.locator('.svc-document .svc-warning').textContent()).toMatch(/do not match the invoice recorded on-chain \(metaHash, amount, total shown\)/)
    expect(await page.getByText(/^Verified/).isVisible()).toBe(false)
    await expect.poll(() => page.locator('.svc-amount strong').textContent()).toBe('4,540.00 USDC')
    await screenshot(page, '21-metadata-differs')
    await page.close()
  })

  test("behavior: a server whose own page names another payee never shows that name as the payee: held unseen while checked, then the chain's address with the notice that no name is confirmed", async () => {
    const seeded = checkout.devnet.file.invoices[0]!
    const page = await checkout.browser.newPage()
    // the lie is in the server's HTML itself (its render and the data the page hydrates), not only in an API answer
    await page.route(`**/pay/${seeded.id}?**`, async (route) => {
      const response = await route.fetch()
      await route.fulfill({ response, body: (await response.text()).replaceAll('Northwind Studio Ltd', 'Evil Payee Ltd') })
    })
    // what the payer could read in the header and the payment's summary, at every change from the first paint on
    await page.addInitScript(() => {
      const seen: string[] = ((window as unknown as { __read: string[] }).__read = [])
      const read = () => {
        for (const element of document.querySelectorAll<HTMLElement>('header.svc-header, .svc-summary')) seen.push(element.innerText)
      }
      new MutationObserver(read).observe(document, { subtree: true, childList: true, characterData: true, attributes: true })
    })
    await page.goto(seeded.shareLink)
    await expect.poll(() => page.locator('.svc-payee-unnamed').isVisible()).toBe(true)
    expect(await page.locator('header.svc-header .svc-merchant').textContent()).toBe(getAddress((await onchain(BigInt(seeded.id))).merchant))
    const read = await page.evaluate(() => (window as unknown as { __read: string[] }).__read)
    expect(read.length).toBeGreaterThan(0)
    expect(read.filter((text) => text.includes('Evil Payee'))).toEqual([])
    await screenshot(page, '22-lying-page-payee')
    await page.close()
  })

  test('behavior: a re-signed sponsorship that never expires is refused; the payer is told what the permit already signed allows', async () => {
    const { invoice, page, url, wallet } = await scenario()
    await page.route(
      (u) => u.pathname === `/v1/pay/${invoice.id}/prepare`,
      async (route) => {
        const response = await route.fetch()
        const body = await response.json()
        await reSponsored(checkout.devnet.file, body, (op) => op, { validUntil: 0, validAfter: 0 })
        await route.fulfill({ response, json: body })
      },
    )
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await clickPay(page)
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Payment stopped for your safety')
    await expect.poll(() => widgetText(page)).toContain('The payment would stay valid forever')
    await expect.poll(() => widgetText(page)).toMatch(/Before this was found you had signed an authorisation.*5,000\.00 USDC.*Nothing was paid\./)
    await screenshot(page, '22-unsafe-unbounded-sponsorship')
    expect(wallet.requests).toContain('eth_signTypedData_v4')
    expect(wallet.typed.map((request) => request.primaryType)).not.toContain('Payment')
    expect((await onchain(invoice.id)).status).toBe(1)
    await page.close()
  })

  test('behavior: a payment the service reports as refused but that landed is shown as paid, with the chain\'s transaction', async () => {
    const { invoice, page, url, payer } = await scenario()
    await page.route(
      (u) => u.pathname === `/v1/pay/${invoice.id}`,
      async (route) => {
        if (route.request().method() !== 'POST') return route.continue()
        // the payment is sent for real, and the answer is a lie
        await route.fetch()
        await route.fulfill({ status: 400, json: { error: 'USEROP_SIGNATURE_INVALID', code: 'USEROP_SIGNATURE_INVALID', message: 'no' } })
      },
    )
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await clickPay(page)
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Payment received')
    const [paid] = await chain().getContractEvents({ address: checkout.devnet.file.contracts.registry, abi: invoiceRegistryAbi, eventName: 'InvoicePaid', args: { id: invoice.id }, fromBlock: 0n })
    await expect.poll(() => page.locator('.svc-detail', { hasText: 'Transaction' }).locator('dd').textContent()).toContain(paid!.transactionHash)
    expect(getAddress((await onchain(invoice.id)).payer)).toBe(payer.vault)
    await page.close()
  })

  test('behavior: an operation whose call gas limit is too low to pay is refused after the pinned RPC simulates it, before the wallet is asked to sign it', async () => {
    const { invoice, page, url, payer, wallet } = await scenario()
    // a dishonest service: a call gas limit too small for the payment, re-sponsored so the hash agrees
    await page.route(
      (u) => u.pathname === `/v1/pay/${invoice.id}/prepare`,
      async (route) => {
        const response = await route.fetch()
        const body = await response.json()
        await reSponsored(checkout.devnet.file, body, (op) => ({ ...op, callGasLimit: 25_000n }), { validUntil: Number(body.permitDeadline), validAfter: 0 })
        await route.fulfill({ response, json: body })
      },
    )
    const submissions: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === `/v1/pay/${invoice.id}`) submissions.push(request.url())
    })
    const simulations: string[] = []
    page.on('request', (request) => {
      if (request.url().startsWith(checkout.devnet.file.rpcUrl) && request.postData()?.includes('"eth_call"') && request.postData()?.includes('"code"')) simulations.push(request.url())
    })
    const before = await balanceOf(payer.vault)
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await clickPay(page)
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Payment stopped for your safety')
    await expect.poll(() => widgetText(page)).toContain('Tried on the blockchain first, the payment would run without paying the invoice.')
    await screenshot(page, '23-refused-after-simulation')
    expect(simulations.length).toBeGreaterThan(0)
    // the permit was signed; the operation never was, nor sent
    expect(wallet.typed.map((request) => request.primaryType)).toEqual(['Permit'])
    expect(submissions).toEqual([])
    expect((await onchain(invoice.id)).status).toBe(1)
    expect(await balanceOf(payer.vault)).toBe(before)
    await page.close()
  })

  test('behavior: before the payer signs, the page shows what the operation moves, as the pinned RPC simulated it', async () => {
    const { page, url, wallet } = await scenario(parseUnits('248', 6))
    const held = wallet.holdNext('Payment')
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await clickPay(page)
    const release = await held
    await expect.poll(() => page.locator('.svc-simulated').textContent(), { timeout: 20_000 }).toBe('Tried on the blockchain just now, before you sign: you pay exactly 248.00 USDC, with no network fee (it is sponsored); the payee receives 245.52 USDC, as its service fee of 2.48 USDC comes out of its share, not out of what you pay.')
    await screenshot(page, '25-simulated-effect-before-signing')
    release()
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Payment received')
    await page.close()
  })

  test('behavior: after a refused authorisation the payer is told and chooses; nothing is signed again until they do', async () => {
    const { invoice, page, url, wallet } = await scenario()
    let refuse = true
    await page.route(
      (u) => u.pathname === `/v1/pay/${invoice.id}/prepare`,
      async (route) => {
        if (!refuse) return route.continue()
        refuse = false
        await route.fulfill({ status: 400, json: { error: 'PERMIT_SIGNATURE_INVALID', code: 'PERMIT_SIGNATURE_INVALID', message: 'no' } })
      },
    )
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await clickPay(page)
    await expect.poll(() => page.getByRole('button', { name: 'Sign a new authorisation' }).count(), { timeout: 20_000 }).toBe(1)
    await expect.poll(() => widgetText(page)).toContain('Nothing was paid.')
    const permitsAsked = () => wallet.typed.filter((request) => request.primaryType === 'Permit').length
    expect(permitsAsked()).toBe(1)
    await page.getByRole('button', { name: 'Sign a new authorisation' }).click()
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Payment received')
    expect(permitsAsked()).toBe(2)
    await page.close()
  })

  test('behavior: a merchant\'s cancel between prepare and signing is told as the chain shows it, "canceled", not blamed on the payment service', async () => {
    const { invoice, page, url, wallet } = await scenario()
    const headings = await recordHeadings(page)
    await page.route(
      (u) => u.pathname === `/v1/pay/${invoice.id}/prepare`,
      async (route) => {
        const response = await route.fetch()
        // the service prepared the payment honestly; the merchant cancels before the payer signs it
        await cancelInvoice(checkout.devnet.file.rpcUrl, deployment(), checkout.devnet.file.merchant, invoice.id)
        await route.fulfill({ response })
      },
    )
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await clickPay(page)
    // a canceled invoice is a page of its own, with nothing to pay
    await expect.poll(() => page.getByRole('heading', { name: t.canceledTitle }).isVisible(), { timeout: 20_000 }).toBe(true)
    expect(await headings()).not.toContain(t.unsafeTitle)
    expect(await page.locator('#app').textContent()).not.toContain('The payment service answered with something other than')
    expect(await page.getByRole('button', { name: /^Pay / }).count()).toBe(0)
    await screenshot(page, '26-canceled-between-prepare-and-signing')
    // the permit was signed; the payment never was
    expect(wallet.typed.map((request) => request.primaryType)).toEqual(['Permit'])
    expect((await onchain(invoice.id)).status).toBe(3)
    await page.close()
  }, 60_000)

  test('behavior: a permit answer in a shape the page cannot use says the service answered wrongly, never that it could not be reached', async () => {
    const { invoice, page, url, signatures } = await scenario()
    await rewrite(
      page,
      `/v1/pay/${invoice.id}/permit`,
      (body) => {
        body.permitToSign = { sign: 'this' }
      },
      'POST',
    )
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await clickPay(page)
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 20_000 }).toContain(afterPayEn.errorInvalidAnswer)
    expect(await widgetText(page)).not.toContain(afterPayEn.errorNetwork)
    expect(await widgetText(page)).not.toMatch(/could not be reached/)
    expect(signatures()).toEqual([])
    await page.close()
  })

  test('behavior: the host hears the page\'s own PERMIT_REFUSED, never the service\'s PERMIT_EXPIRED, while the chain\'s clock has the signed permit an hour from its deadline', async () => {
    const { storefrontUrl, invoices, rpcUrl, chainId } = checkout.devnet.file
    const product = invoices[0]!
    const payer = await createPayer(clients(), deployment(), parseUnits('10000', 6))
    const page = await checkout.browser.newPage({ viewport: { width: 1100, height: 1100 } })
    const wallet = await injectTestWallet(page, { privateKey: payer.ownerPrivateKey, rpcUrl, chainId, topOnly: true })
    await page.route(
      (u) => u.pathname === `/v1/pay/${product.id}/prepare`,
      (route) => route.fulfill({ status: 409, json: { error: 'PERMIT_EXPIRED', code: 'PERMIT_EXPIRED', message: 'The permit expired' } }),
    )
    await page.goto(`${storefrontUrl}/script-tag`)
    await expect.poll(() => page.frames().some((frame) => frame.url().includes('/pay/')), { timeout: 15_000 }).toBe(true)
    const frame = page.frames().find((candidate) => candidate.url().includes('/pay/'))!
    const bridged = frame.getByRole('button', { name: /Test Wallet · via 127\.0\.0\.1/ })
    await expect.poll(() => bridged.count(), { timeout: 15_000 }).toBe(1)
    await bridged.click()
    await frame.getByRole('button', { name: /^Pay / }).click()
    await expect.poll(() => frame.locator('.svc-widget').textContent(), { timeout: 20_000 }).toContain(afterPayEn.errorPermitRenew)
    const heard = async () => (await page.locator('[data-event="error"]').allTextContents()).map((line) => JSON.parse(line.replace(/^error /, '')))
    await expect.poll(heard).toEqual([{ invoiceId: product.id, code: 'PERMIT_REFUSED' }])
    expect(await page.locator('[data-event="expired"]').count()).toBe(0)
    expect(await frame.locator('#svc-widget-heading').textContent()).not.toBe(t.permitExpiredTitle)
    expect(wallet.typed.map((request) => request.primaryType)).toEqual(['Permit'])
    await page.close()
  })

  // it moves the chain's clock past the operation's window, and puts it back after
  test('behavior: after a 202 for an operation never sent, the page says only what the chain shows: the service\'s word while it waits, "not sent" once the window has closed, and a new try', async () => {
    const { invoice, page, url, wallet } = await scenario()
    let lies = 1
    await page.route(
      (u) => u.pathname === `/v1/pay/${invoice.id}`,
      async (route) => {
        if (route.request().method() !== 'POST' || lies === 0) return route.fallback()
        lies--
        // pending, says the service; nothing was sent
        await route.fulfill({ status: 202, json: { status: 'pending', userOpHash: `0x${'ab'.repeat(32)}`, message: 'submitted, not yet included' } })
      },
    )
    const checks = chainChecks(page)
    // the page reads the chain every 3 s while it waits (pendingPollMs): its clock is moved on instead
    await page.clock.install()
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await clickPay(page)
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe(t.pendingTitle)
    await expect.poll(() => widgetText(page)).toContain(afterPayEn.pendingServiceSays)
    expect(await widgetText(page)).not.toMatch(/on its way/)
    // and it keeps following the chain
    const seen = checks()
    await expect.poll(movingClock(page, checks), { timeout: 20_000 }).toBeGreaterThanOrEqual(seen + 2)
    await screenshot(page, '27-pending-by-the-service-word')

    const test = createTestClient({ mode: 'anvil', transport: http(checkout.devnet.file.rpcUrl) })
    const beforeTheClockMoved = await test.snapshot()
    onTestFinished(() => test.revert({ id: beforeTheClockMoved }))
    await test.increaseTime({ seconds: 2 * 3600 })
    await test.mine({ blocks: 1 })
    await expect.poll(movingClock(page, () => heading(page)), { timeout: 20_000 }).toBe(t.failedOnChainTitle)
    await expect.poll(() => widgetText(page)).toContain(afterPayEn.notSentBody)
    expect(await widgetText(page)).not.toContain(t.permitExpiredTitle)
    await screenshot(page, '28-not-sent-after-the-window')
    expect((await onchain(invoice.id)).status).toBe(1)
    // another try is a new authorisation, asked of the payer
    const permits = () => wallet.typed.filter((request) => request.primaryType === 'Permit').length
    expect(permits()).toBe(1)
    await page.getByRole('button', { name: t.retry }).click()
    await expect.poll(() => permits(), { timeout: 20_000 }).toBe(2)
    await page.close()
  })

  // last: it moves the chain's clock past every permit the service has handed out
  test('behavior: a fake "confirmed" is not a payment: the page follows the chain, and says it was not sent, nothing paid, only once the chain\'s clock ends the operation\'s window', async () => {
    const { invoice, page, url } = await scenario()
    await rewrite(page, `/v1/pay/${invoice.id}`, (body) => {
      // and every read of the service says Paid
      body.data.status = 'Paid'
    })
    await page.route(
      (u) => u.pathname === `/v1/pay/${invoice.id}`,
      async (route) => {
        if (route.request().method() !== 'POST') return route.fallback()
        // never sent: a confirmation with an invented transaction
        await route.fulfill({ json: { status: 'confirmed', userOpHash: `0x${'ab'.repeat(32)}`, txHash: `0x${'ef'.repeat(32)}` } })
      },
    )
    const checks = chainChecks(page)
    // the page reads the chain every 3 s while it waits (pendingPollMs): its clock is moved on instead
    await page.clock.install()
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await clickPay(page)
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Payment submitted')
    const seen = checks()
    await expect.poll(movingClock(page, checks), { timeout: 20_000 }).toBeGreaterThanOrEqual(seen + 2)
    await expect.poll(() => heading(page)).toBe('Payment submitted')
    expect(await page.getByText(`0x${'ef'.repeat(32)}`).count()).toBe(0)
    await screenshot(page, '24-fake-confirmed-followed-on-chain')
    expect((await onchain(invoice.id)).status).toBe(1)

    const test = createTestClient({ mode: 'anvil', transport: http(checkout.devnet.file.rpcUrl) })
    // the chain is the worker's: after this test its clock is back where it was, or every later
    // payment on it would be signed for a window the chain had already left
    const beforeTheClockMoved = await test.snapshot()
    onTestFinished(() => test.revert({ id: beforeTheClockMoved }))
    await test.increaseTime({ seconds: 2 * 3600 })
    await test.mine({ blocks: 1 })
    await expect.poll(movingClock(page, () => heading(page)), { timeout: 20_000 }).toBe(t.failedOnChainTitle)
    await expect.poll(() => widgetText(page)).toContain(afterPayEn.notSentBody)
    expect((await onchain(invoice.id)).status).toBe(1)
    await page.close()
  })
})
