import type { Page } from 'playwright-core'
import { parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { devnetClients } from '../../devnet/deploy'
import { cancelInvoice, createPayer, mintTo } from '../../devnet/seed'
import { accessibilityViolations } from './support/accessibilityViolations'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { rewrite } from './support/rewrite'
import { injectTestWallet } from './support/testWallet'

/**
 * axe-core in the real browser on every state a payer can see, against the WCAG 2.0–2.2 A and AA
 * rules. Each state is reached the way a payer reaches it (a real wallet, the devnet's chain), or, where
 * only a failing or slow service leads there, with that one answer of the service replaced.
 */

const checkout = useCheckoutInBrowser()
const deployment = () => ({ chainId: checkout.devnet.file.chainId, ...checkout.devnet.file.contracts })

/** The invoice that is never paid here (every state on it stops short of paying), with full metadata. */
const unpaidInvoice = () => checkout.devnet.file.invoices[0]!

async function payerPage({ funds = parseUnits('10000', 6), accountFunds = 0n, startChainId }: { funds?: bigint; accountFunds?: bigint; startChainId?: number } = {}) {
  const clients = devnetClients(checkout.devnet.file.rpcUrl, checkout.devnet.file.chainId)
  const payer = await createPayer(clients, deployment(), funds)
  if (accountFunds > 0n) await mintTo(clients, deployment(), payer.owner, accountFunds)
  // a context of its own: axe finishes its run in a second page of the same context
  const page = await (await checkout.browser.newContext({ viewport: { width: 1100, height: 1000 } })).newPage()
  const wallet = await injectTestWallet(page, {
    privateKey: payer.ownerPrivateKey,
    rpcUrl: checkout.devnet.file.rpcUrl,
    chainId: checkout.devnet.file.chainId,
    ...(startChainId === undefined ? {} : { startChainId }),
  })
  return { page, wallet }
}

const heading = (page: Page) => page.locator('#svc-widget-heading').textContent()

async function connected(page: Page, invoice = unpaidInvoice()) {
  await page.goto(invoice.shareLink)
  await page.getByRole('button', { name: 'Test Wallet' }).click()
  await page.getByRole('button', { name: /^Pay / }).waitFor()
}

describe('the pay page for assistive technology', () => {
  test('behavior: the invoice as the server renders it, before any script runs, has no accessibility violations', async () => {
    const { page } = await payerPage()
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/assets/*.js', async (route) => {
      await held
      await route.continue()
    })
    await page.goto(unpaidInvoice().shareLink, { waitUntil: 'commit' })
    // the page's styles are inline in its head (build/inlineStylesheet.ts): applied once the heading is there
    await page.getByRole('heading', { level: 1 }).waitFor()
    expect(await page.getByText('Unconfirmed', { exact: true }).isVisible()).toBe(true)
    // measured against the page's own colours: its policy let the inline styles apply
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(244, 245, 247)')
    expect(await accessibilityViolations(page)).toEqual([])
    release()
    await page.context().close()
  })

  test('behavior: the choose-a-wallet state has no accessibility violations', async () => {
    const { page } = await payerPage()
    await page.goto(unpaidInvoice().shareLink)
    await expect.poll(() => heading(page)).toBe('Choose a wallet to pay with')
    await expect.poll(() => page.getByText('Checked: the amount, recipient and due date match the payment record.').isVisible()).toBe(true)
    expect(await accessibilityViolations(page)).toEqual([])
    await page.context().close()
  })

  test('behavior: the connected state, with the Pay button, has no accessibility violations', async () => {
    const { page } = await payerPage()
    await connected(page)
    await expect.poll(() => heading(page)).toBe('Pay this invoice')
    expect(await accessibilityViolations(page)).toEqual([])
    await page.context().close()
  })

  test('behavior: the signing state, the authorisation open in the wallet, has no accessibility violations', async () => {
    const { page, wallet } = await payerPage()
    await connected(page)
    const held = wallet.holdNext('eth_signTypedData_v4')
    await page.getByRole('button', { name: /^Pay / }).click()
    const release = await held
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Authorise the payment in your wallet')
    expect(await accessibilityViolations(page)).toEqual([])
    // closed first: the signature released afterwards reaches no page, and nothing is paid
    await page.context().close()
    release()
  })

  test('behavior: the pending state, a payment submitted the chain has not settled, has no accessibility violations', async () => {
    const invoice = unpaidInvoice()
    const { page } = await payerPage()
    await page.route(
      (url) => url.pathname === `/v1/pay/${invoice.id}`,
      async (route) => {
        if (route.request().method() !== 'POST') return route.fallback()
        // never sent: the page follows a chain on which the payment never lands
        await route.fulfill({ status: 202, json: { status: 'pending', userOpHash: `0x${'ab'.repeat(32)}`, message: 'submitted, not yet included' } })
      },
    )
    await connected(page, invoice)
    await page.getByRole('button', { name: /^Pay / }).click()
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Payment submitted')
    expect(await accessibilityViolations(page)).toEqual([])
    await page.context().close()
  })

  test('behavior: the paid state, after a real payment on the devnet, has no accessibility violations', async () => {
    const { page } = await payerPage()
    await connected(page, checkout.devnet.file.invoices[1]!)
    await page.getByRole('button', { name: /^Pay / }).click()
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Payment received')
    expect(await accessibilityViolations(page)).toEqual([])
    await page.context().close()
  })

  test('behavior: the unsafe state, an invoice the service misstates, has no accessibility violations', async () => {
    const invoice = unpaidInvoice()
    const { page } = await payerPage()
    for (const path of [`/v1/pay/${invoice.id}`, `/v1/pay/${invoice.id}/metadata`]) {
      await rewrite(page, path, (body) => {
        body.data.amount = parseUnits('10', 6).toString()
      })
    }
    await page.goto(invoice.shareLink)
    await expect.poll(() => heading(page)).toBe('Payment stopped for your safety')
    expect(await accessibilityViolations(page)).toEqual([])
    await page.context().close()
  })

  test('behavior: the re-ask after a service\'s PERMIT_EXPIRED (its word, not the clock\'s) has no accessibility violations', async () => {
    const invoice = unpaidInvoice()
    const { page } = await payerPage()
    await page.route(
      (url) => url.pathname === `/v1/pay/${invoice.id}/prepare`,
      (route) => route.fulfill({ status: 400, json: { error: 'PERMIT_EXPIRED', code: 'PERMIT_EXPIRED', message: 'the permit has less than two minutes left' } }),
    )
    await connected(page, invoice)
    await page.getByRole('button', { name: /^Pay / }).click()
    await expect.poll(() => page.locator('.svc-widget').textContent(), { timeout: 20_000 }).toContain('The payment service asked for a new authorisation.')
    expect(await accessibilityViolations(page)).toEqual([])
    await page.context().close()
  })

  test('behavior: the insufficient-balance state has no accessibility violations', async () => {
    const { page } = await payerPage({ funds: parseUnits('1', 6) })
    await page.goto(unpaidInvoice().shareLink)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await expect.poll(() => heading(page)).toBe('Not enough funds')
    // with the funding address's QR code and copy button in it
    await page.getByRole('img', { name: /^QR code of the address 0x/ }).waitFor()
    expect(await accessibilityViolations(page)).toEqual([])
    await page.context().close()
  })

  test('behavior: the devnet wallet\'s request, open over the signing step, has no accessibility violations', async () => {
    const { page } = await payerPage()
    await page.goto(unpaidInvoice().shareLink)
    await page.getByRole('button', { name: 'Devnet wallet (demo payer)' }).click()
    await page.getByRole('button', { name: /^Pay / }).click()
    const prompt = page.getByRole('group', { name: 'Devnet wallet' })
    await prompt.waitFor({ timeout: 20_000 })
    expect(await accessibilityViolations(page)).toEqual([])
    // rejected: nothing is signed, and the invoice stays unpaid for the other states here
    await prompt.getByRole('button', { name: 'Reject' }).click()
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Pay this invoice')
    await page.context().close()
  })

  test('behavior: a link whose token no longer opens, with the payee named by address and the second confirmation, has no accessibility violations', async () => {
    const { page } = await payerPage()
    const link = new URL(unpaidInvoice().shareLink)
    link.searchParams.set('token', `svc_tk_${'x'.repeat(43)}`)
    await page.goto(link.toString())
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await page.getByRole('button', { name: /^Pay / }).click()
    await page.getByRole('button', { name: /^Yes, pay / }).waitFor()
    expect(await accessibilityViolations(page)).toEqual([])
    await page.context().close()
  })

  test('behavior: the error page of a malformed link has no accessibility violations', async () => {
    const { page } = await payerPage()
    const response = await page.goto(`${checkout.devnet.file.serverUrl}/pay/abc`)
    expect(response?.status()).toBe(400)
    expect(await accessibilityViolations(page)).toEqual([])
    await page.context().close()
  })

  test('behavior: the offer to pay from the wallet, and its first signature open in the wallet, have no accessibility violations', async () => {
    const { page, wallet } = await payerPage({ funds: parseUnits('1', 6), accountFunds: parseUnits('100000', 6) })
    await page.goto(unpaidInvoice().shareLink)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    const offer = page.getByRole('button', { name: / from your wallet$/ })
    await offer.waitFor()
    expect(await accessibilityViolations(page)).toEqual([])
    const held = wallet.holdNext('eth_signTypedData_v4')
    await offer.click()
    const release = await held
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Allow your payment account to take the missing amount')
    expect(await accessibilityViolations(page)).toEqual([])
    // closed first: the signature released afterwards reaches no page, and nothing is paid
    await page.context().close()
    release()
  })

  test('behavior: the wrong-network state has no accessibility violations', async () => {
    const { page } = await payerPage({ startChainId: 1 })
    await page.goto(unpaidInvoice().shareLink)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await expect.poll(() => heading(page)).toBe('Wrong network')
    expect(await accessibilityViolations(page)).toEqual([])
    await page.context().close()
  })

  test('behavior: the canceled state, an invoice its merchant canceled on-chain, has no accessibility violations', async () => {
    const invoice = checkout.devnet.file.invoices[2]!
    await cancelInvoice(checkout.devnet.file.rpcUrl, deployment(), checkout.devnet.file.merchant, BigInt(invoice.id))
    const { page } = await payerPage()
    await page.goto(invoice.shareLink)
    await expect.poll(() => page.locator('.svc-badge').textContent()).toBe('Canceled')
    await expect.poll(() => page.getByRole('heading', { name: 'This invoice was canceled' }).isVisible()).toBe(true)
    expect(await accessibilityViolations(page)).toEqual([])
    await page.context().close()
  })

  test('behavior: the unknown-invoice state has no accessibility violations', async () => {
    const { page } = await payerPage()
    const response = await page.goto(`${checkout.devnet.file.serverUrl}/pay/424242`, { waitUntil: 'networkidle' })
    expect(response?.status()).toBe(404)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Invoice not found')
    expect(await accessibilityViolations(page)).toEqual([])
    await page.context().close()
  })
})
