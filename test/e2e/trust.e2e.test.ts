import type { Page } from 'playwright-core'
import { createTestClient, getAddress, http, parseUnits } from 'viem'
import { describe, expect, onTestFinished, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { devnetClients, devnetRoles } from '../../devnet/deploy'
import { createPayer } from '../../devnet/seed'
import { screenshot } from './support/browser'
import { clickPay } from './support/clickPay'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { reSponsored } from './support/reSponsored'
import { rewrite } from './support/rewrite'
import { injectTestWallet } from './support/testWallet'

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
    await expect.poll(() => page.locator('.svc-simulated').textContent(), { timeout: 20_000 }).toMatch(/^Tried on the blockchain just now, before you sign: your account −248\.00 USDC · the payee \+[\d,.]+ USDC · fee [\d,.]+ USDC$/)
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

  // last: it moves the chain's clock past every permit the service has handed out
  test('behavior: a fake "confirmed" is not a payment: the page follows the chain, and says nothing was paid only once the chain\'s clock ends the operation\'s window', async () => {
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
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await clickPay(page)
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Payment submitted')
    const seen = checks()
    await expect.poll(() => checks(), { timeout: 20_000 }).toBeGreaterThanOrEqual(seen + 2)
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
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('The authorisation expired')
    await expect.poll(() => widgetText(page)).toContain('Nothing was paid.')
    expect((await onchain(invoice.id)).status).toBe(1)
    await page.close()
  })
})
