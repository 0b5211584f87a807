import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { merchantVaultAbi } from '../../contracts/artifacts/MerchantVault'
import { devnetClients } from '../../devnet/deploy'
import { createPayer } from '../../devnet/seed'
import { readSession } from '../../server/merchant/signer/readSession'
import { registryStatusOf } from '../../shared/invoiceStatus'
import { signedRequest } from '../support/signedRequest'
import { accessibleAtEveryWidth } from './support/accessibleAtEveryWidth'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { clickPay } from './support/clickPay'
import { injectTestWallet } from './support/testWallet'
import { throughSignIn } from './support/throughSignIn'

/**
 * The merchant's money in the dashboard, every owner operation signed in the owner's own wallet (an
 * injected EIP-6963 wallet holding the demo owner's key, its signatures real and checked by the vault):
 * an invoice issued, paid by a customer in a second page, seen Paid and exported, half of it refunded
 * to the payer and some of the vault withdrawn to the withdrawal address. Each prompt is read in words
 * before the wallet is asked, and the chain holds each result.
 */

const checkout = useCheckoutInBrowser()

/** Signs in through the provider's own forms, as the merchant does, and lands on `landing`. */
async function signIn(page: Page, login = checkout.devnet.file.merchant.login!, landing = 'Invoices') {
  await page.goto(checkout.devnet.file.dashboardUrl!)
  await page.getByRole('button', { name: 'Sign in' }).click()
  const landed = page.getByRole('heading', { level: 1, name: landing })
  await throughSignIn(page, login, () => landed.isVisible())
}

/** A customer of the test's own, made by the merchant's backend (the browser part is the wallet):
 * its name, unique to the run. */
async function newCustomer(kind: string): Promise<string> {
  const { merchant, serverUrl } = checkout.devnet.file
  const customerName = `${kind} ${randomUUID().slice(0, 8)}`
  const created = await signedRequest(serverUrl, merchant.apiKey, {
    method: 'POST',
    path: '/v1/customers',
    body: JSON.stringify({ type: 'person', legalName: customerName, email: `payer@${kind.toLowerCase().replace(/ /g, '-')}.example`, address: { street: 'Kaiserstraße 5', city: 'Frankfurt', postal: '60311', country: 'DE' }, taxId: '12345678901' }),
  })
  expect(created.status).toBe(201)
  return customerName
}

describe("the owner's wallet in the dashboard", () => {
  test('behavior: the owner issues in the wallet, the customer pays from the share link, the owner sees it Paid, exports it, refunds half to the payer and withdraws, each message read in words first and each result on the chain', async () => {
    const { merchant, rpcUrl, chainId, contracts } = checkout.devnet.file
    const customerName = await newCustomer('Wallet Customer')

    const context = await checkout.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })
    const page = await context.newPage()
    const wallet = await injectTestWallet(page, { privateKey: merchant.ownerPrivateKey, rpcUrl, chainId, name: 'Owner Wallet' })
    await signIn(page)

    // issued in the owner's wallet: 10 USDC to the new customer
    await page.getByLabel('Customer', { exact: true }).selectOption({ label: `${customerName} (payer@wallet-customer.example)` })
    await page.getByLabel('Amount (USDC)').fill('10')
    await page.getByLabel('Due in (days)').fill('7')
    await page.getByRole('button', { name: 'Issue invoice' }).click()
    await page.getByRole('button', { name: 'Connect Owner Wallet' }).click()
    const review = page.getByRole('region', { name: 'Check what you sign' })
    await review.waitFor({ timeout: 30_000 })
    expect(await review.locator('.intent').textContent()).toMatch(/^Issue an invoice for 10 USDC, due /)
    await review.getByRole('button', { name: 'Sign in my wallet' }).click()
    const shareLink = page.getByRole('link', { name: 'Share link' })
    await shareLink.waitFor({ timeout: 30_000 })
    const link = (await shareLink.getAttribute('href'))!
    const invoiceId = new URL(link).pathname.split('/').pop()!
    expect((await checkout.invoiceOnChain(BigInt(invoiceId))).status).toBe(registryStatusOf.Issued)

    // the customer pays it from the link, in a page of their own with a wallet of their own
    const payer = await createPayer(devnetClients(rpcUrl, chainId), { chainId, ...contracts }, parseUnits('100', 6))
    const payerContext = await checkout.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })
    const payerPage = await payerContext.newPage()
    await injectTestWallet(payerPage, { privateKey: payer.ownerPrivateKey, rpcUrl, chainId })
    await payerPage.goto(link)
    await payerPage.getByRole('heading', { name: 'Choose a wallet to pay with' }).waitFor({ timeout: 20_000 })
    await payerPage.getByRole('button', { name: 'Test Wallet' }).click()
    await payerPage.getByRole('button', { name: /^Pay / }).waitFor({ timeout: 20_000 })
    await clickPay(payerPage)
    await payerPage.getByRole('heading', { name: 'Payment received' }).waitFor({ timeout: 30_000 })
    await payerContext.close()

    // the owner sees it Paid, once the index has the payment
    const row = page.getByRole('row').filter({ hasText: '10.00 USDC' }).filter({ has: page.getByRole('button', { name: /^Refund invoice / }) })
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click()
        return row.count()
      }, { timeout: 30_000 })
      .toBe(1)
    expect(await row.getByRole('cell', { name: 'Paid' }).count()).toBe(1)

    // the export carries the payment
    await page.getByRole('link', { name: 'Payments' }).click()
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor()
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export the last year as CSV' }).click()
    const csv = readFileSync((await (await download).path())!, 'utf8').toLowerCase()
    const exported = csv.split('\n').find((line) => line.includes(`,${invoiceId},`))
    expect(exported, csv).toBeDefined()
    expect([exported!.includes(payer.vault.toLowerCase()), exported!.includes(',10000000,')]).toEqual([true, true])

    // half refunded to the payer: the amount, the payer and the invoice read before signing
    await page.getByRole('link', { name: 'Invoices' }).click()
    await row.getByRole('button', { name: /^Refund invoice / }).click()
    await page.getByLabel('Amount to refund (USDC)').fill('5')
    const payerBefore = await checkout.balanceOf(payer.vault)
    // a prepare answer naming another contract than the studio's vault is refused before any words or wallet
    const stranger = privateKeyToAccount(generatePrivateKey()).address
    await page.route('**/v1/invoices/*/refund/prepare', async (route) => {
      const answer = await (await route.fetch()).json()
      await route.fulfill({ json: { ...answer, typedDataToSign: { ...answer.typedDataToSign, domain: { ...answer.typedDataToSign.domain, verifyingContract: stranger } } } })
    }, { times: 1 })
    await page.getByRole('button', { name: 'Prepare the refund' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(`The message is for ${stranger}, not your studio's vault ${merchant.vault}. Nothing was signed.`)
    expect(wallet.typed.map((typed) => typed.primaryType)).toEqual(['Issue'])
    await page.getByRole('button', { name: 'Prepare the refund' }).click()
    await review.waitFor({ timeout: 30_000 })
    expect(await review.locator('.intent').textContent()).toBe(`Refund 5 USDC of invoice ${invoiceId} to ${payer.vault}`)
    await accessibleAtEveryWidth(page, 'sign-refund', 'dashboard-wallet-')
    await review.getByRole('button', { name: 'Sign in my wallet' }).click()
    await page.getByRole('status').filter({ hasText: /^5\.00 USDC of invoice .+ refunded to the payer\.$/ }).waitFor({ timeout: 30_000 })
    expect(await checkout.balanceOf(payer.vault)).toBe(payerBefore + parseUnits('5', 6))

    // withdrawn to the withdrawal address the owner sets here; the balance is shown first
    await page.getByRole('link', { name: 'Withdrawals' }).click()
    await page.getByRole('heading', { level: 1, name: 'Withdrawals' }).waitFor()
    await expect.poll(() => page.getByText(/^Your vault holds [\d.]+ USDC\.$/).count()).toBe(1)
    const destination = privateKeyToAccount(generatePrivateKey()).address
    await page.getByLabel('New withdrawal address (0x…)').fill(destination)
    await page.getByRole('button', { name: 'Save address' }).click()
    await page.getByRole('status').filter({ hasText: 'Withdrawal address saved.' }).waitFor()
    await accessibleAtEveryWidth(page, 'withdrawals', 'dashboard-wallet-')
    await page.getByLabel('Amount to withdraw (USDC)').fill('1.5')
    await page.getByRole('button', { name: 'Prepare the withdrawal' }).click()
    await review.waitFor({ timeout: 30_000 })
    expect(await review.locator('.intent').textContent()).toBe(`Withdraw 1.5 USDC to ${destination}`)
    // the owner rejects it in the wallet first: nothing is sent, and the page says so
    wallet.rejectNext('eth_signTypedData_v4')
    await review.getByRole('button', { name: 'Sign in my wallet' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Nothing was signed and nothing was sent.')
    expect(await checkout.balanceOf(destination)).toBe(0n)
    await page.getByRole('button', { name: 'Prepare the withdrawal' }).click()
    await review.waitFor({ timeout: 30_000 })
    await review.getByRole('button', { name: 'Sign in my wallet' }).click()
    await page.getByRole('status').filter({ hasText: '1.5 USDC withdrawn to your withdrawal address.' }).waitFor({ timeout: 30_000 })
    expect(await checkout.balanceOf(destination)).toBe(parseUnits('1.5', 6))
    await page.getByRole('cell', { name: destination }).waitFor()

    // every message the wallet signed named the studio's vault on the devnet, and came after its words
    expect(wallet.typed.map((typed) => typed.primaryType)).toEqual(['Issue', 'Refund', 'Withdrawal', 'Withdrawal'])
    for (const typed of wallet.typed) expect([String(typed.domain.verifyingContract).toLowerCase(), typed.domain.chainId]).toEqual([merchant.vault.toLowerCase(), chainId])
    await context.close()
  }, 240_000)

  test("behavior: a merchant without a studio creates its vault in their wallet, then lets the server's signer issue for it, reading each message first; the chain holds the vault owned by that wallet and the signer's session, and the business profile comes next", async () => {
    const { merchant, rpcUrl, chainId } = checkout.devnet.file
    const { newLogin } = merchant
    expect(newLogin).toBeDefined()
    const ownerKey = generatePrivateKey()
    const owner = privateKeyToAccount(ownerKey).address
    const context = await checkout.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })
    const page = await context.newPage()
    const wallet = await injectTestWallet(page, { privateKey: ownerKey, rpcUrl, chainId, name: 'Owner Wallet' })
    await signIn(page, newLogin!, 'Create your studio')
    await accessibleAtEveryWidth(page, 'setup', 'dashboard-wallet-')

    await page.getByLabel('Studio name (optional)').fill('Wallet-made studio')
    await page.getByRole('button', { name: 'Create my vault with my wallet' }).click()
    await page.getByRole('button', { name: 'Connect Owner Wallet' }).click()
    const review = page.getByRole('region', { name: 'Check what you sign' })
    await review.waitFor({ timeout: 30_000 })
    // the vault's first operation withdraws nothing to its owner: the words say so before the wallet is asked
    expect(await review.locator('.intent').textContent()).toBe(`Withdraw 0 USDC to ${owner}`)
    expect(wallet.typed).toEqual([])
    await accessibleAtEveryWidth(page, 'sign-setup', 'dashboard-wallet-')
    await review.getByRole('button', { name: 'Sign in my wallet' }).click()

    // created, owned by the wallet that signed; then the server's signer, let issue by the same wallet
    await page.getByRole('heading', { level: 1, name: 'Let the service issue invoices for you' }).waitFor({ timeout: 60_000 })
    const vault = String(wallet.typed[0]!.domain.verifyingContract) as `0x${string}`
    expect(await checkout.chain().getCode({ address: vault })).toMatch(/^0x[0-9a-f]+$/)
    expect(await checkout.chain().readContract({ address: vault, abi: merchantVaultAbi, functionName: 'owner' })).toBe(owner)
    await accessibleAtEveryWidth(page, 'setup-signer', 'dashboard-wallet-')
    await page.getByRole('button', { name: 'Allow it with my wallet' }).click()
    await review.waitFor({ timeout: 30_000 })
    expect(await review.locator('.intent').textContent()).toMatch(/^Let 0x[0-9a-fA-F]{40} issue and cancel invoices until \d{4}-/)
    expect(wallet.typed).toHaveLength(1)
    await review.getByRole('button', { name: 'Sign in my wallet' }).click()
    await page.getByRole('status').filter({ hasText: "The service's signer may now issue and cancel your invoices." }).waitFor({ timeout: 60_000 })
    expect(wallet.typed.map((typed) => typed.primaryType)).toEqual(['Withdrawal', 'StartSession'])
    // the session module the vault itself names, as the server reads it
    const sessionValidator = await checkout.chain().readContract({ address: vault, abi: merchantVaultAbi, functionName: 'sessionValidator' })
    const session = await readSession(checkout.chain() as never, { ...checkout.deployment(), sessionValidator } as never, vault)
    expect(session?.signer.toLowerCase()).toBe(String(wallet.typed[1]!.message.signer).toLowerCase())
    expect(BigInt(session!.validUntil)).toBeGreaterThan((await checkout.chain().getBlock()).timestamp)

    // the studio's first run goes on with the business profile
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('heading', { level: 1, name: 'Your business profile' }).waitFor()
    await context.close()
  }, 180_000)

  test("behavior: the owner switches accounts and networks in their wallet after connecting, or locks it: the prompt prepared for the first account goes and the page names the account the wallet is on, a switch the wallet never announced is refused at 'Sign in my wallet' with nothing signed, and the invoice is issued only once signed as the owner", async () => {
    const { merchant, rpcUrl, chainId } = checkout.devnet.file
    const customerName = await newCustomer('Switching Customer')
    const otherKey = generatePrivateKey()
    const other = privateKeyToAccount(otherKey).address
    const context = await checkout.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })
    const page = await context.newPage()
    const wallet = await injectTestWallet(page, { privateKey: merchant.ownerPrivateKey, rpcUrl, chainId, name: 'Owner Wallet' })
    await signIn(page)
    const review = page.getByRole('region', { name: 'Check what you sign' })
    const alert = page.getByRole('alert')
    /** Issues 3 USDC to this test's customer: the prompt appears once the wallet is connected. */
    async function issue() {
      await page.getByLabel('Customer', { exact: true }).selectOption({ label: `${customerName} (payer@switching-customer.example)` })
      await page.getByLabel('Amount (USDC)').fill('3')
      await page.getByLabel('Due in (days)').fill('7')
      await page.getByRole('button', { name: 'Issue invoice' }).click()
    }
    const signer = async () => {
      await review.waitFor({ timeout: 30_000 })
      return review.locator('.signer').textContent()
    }

    // connected as the owner: the prompt names the account that signs it
    await issue()
    await page.getByRole('button', { name: 'Connect Owner Wallet' }).click()
    expect(await signer()).toBe(`Your wallet signs this as ${merchant.owner}.`)

    // the owner picks another account in the wallet: the words prepared for the first one go
    await wallet.switchAccount(otherKey)
    await expect.poll(() => alert.textContent()).toBe(`Your wallet switched to ${other}. Nothing was signed: start again to prepare the message for that account.`)
    expect(await review.count()).toBe(0)

    // back on the owner's account, then another network: the prompt goes again, and starting again asks the wallet back
    await wallet.switchAccount(merchant.ownerPrivateKey)
    await issue()
    expect(await signer()).toBe(`Your wallet signs this as ${merchant.owner}.`)
    expect(wallet.requests.filter((method) => method === 'wallet_switchEthereumChain')).toEqual([])
    await wallet.switchChain(chainId + 1)
    await expect.poll(() => alert.textContent()).toBe("Your wallet moved to another network. Nothing was signed: start again, and your wallet will be asked to move back to your vault's network.")
    expect(await review.count()).toBe(0)
    await issue()
    expect(await signer()).toBe(`Your wallet signs this as ${merchant.owner}.`)
    expect(wallet.requests.filter((method) => method === 'wallet_switchEthereumChain')).toEqual(['wallet_switchEthereumChain'])

    // the wallet locks: the prompt goes, and starting again asks for the wallet to be connected again
    await wallet.lock()
    await expect.poll(() => alert.textContent()).toBe('Your wallet disconnected. Nothing was signed: start again to connect it.')
    expect(await review.count()).toBe(0)
    // unlocked without a word to the page: it is connected again only when the owner asks
    await wallet.switchAccount(merchant.ownerPrivateKey, { unannounced: true })
    await issue()
    await page.getByRole('button', { name: 'Connect Owner Wallet' }).click()
    expect(await signer()).toBe(`Your wallet signs this as ${merchant.owner}.`)

    // a wallet that switches without a word: found out when the owner presses sign, and nothing is signed
    await wallet.switchAccount(otherKey, { unannounced: true })
    await review.getByRole('button', { name: 'Sign in my wallet' }).click()
    await expect.poll(() => alert.textContent()).toBe(`Your wallet switched to ${other}. Nothing was signed: start again to prepare the message for that account.`)
    expect(wallet.requests).not.toContain('eth_signTypedData_v4')

    // on the owner's account once more: signed as the owner, and the chain holds the invoice
    await wallet.switchAccount(merchant.ownerPrivateKey)
    await issue()
    expect(await signer()).toBe(`Your wallet signs this as ${merchant.owner}.`)
    await review.getByRole('button', { name: 'Sign in my wallet' }).click()
    const shareLink = page.getByRole('link', { name: 'Share link' })
    await shareLink.waitFor({ timeout: 30_000 })
    const invoiceId = new URL((await shareLink.getAttribute('href'))!).pathname.split('/').pop()!
    expect((await checkout.invoiceOnChain(BigInt(invoiceId))).status).toBe(registryStatusOf.Issued)
    expect(wallet.typed.map((typed) => typed.primaryType)).toEqual(['Issue'])
    await context.close()
  }, 180_000)
})
