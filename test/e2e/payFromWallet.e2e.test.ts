import type { Page } from 'playwright-core'
import { createTestClient, encodeFunctionData, http, parseAbi, parseEther, parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { devnetClients, devnetRoles } from '../../devnet/deploy'
import { createPayer, mintTo } from '../../devnet/seed'
import { decodeFundedPayCallData } from '../../shared/fundedPayCall'
import { tokenTransferFromAbi } from '../../shared/tokenAbi'
import { screenshot } from './support/browser'
import { clickPay } from './support/clickPay'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { reSponsored } from './support/reSponsored'
import { rewrite } from './support/rewrite'
import { injectTestWallet } from './support/testWallet'

/**
 * A payer whose USDC sits in the wallet they already have, not in their vault, pays without ETH: the
 * page offers one action, the wallet signs three times, and one sponsored operation funds the vault
 * and pays. The chain (anvil) says what moved.
 */

const checkout = useCheckoutInBrowser()
const { balanceOf, invoiceOnChain: onchain, chain, deployment } = checkout
const clients = () => devnetClients(checkout.devnet.file.rpcUrl, checkout.devnet.file.chainId)
const usdc = (amount: string) => parseUnits(amount, 6)
/** SimpleAccount's batch, which the vault still has for its owner's own use. */
const vaultExecuteBatchAbi = parseAbi(['function executeBatch(address[] dest, uint256[] value, bytes[] func)'])

/** A fresh invoice, a payer whose vault holds `vaultFunds` and whose own account holds `accountFunds`
 * (and no ETH), and the page with that payer's wallet. */
async function scenario({ amount = usdc('248'), vaultFunds = 0n, accountFunds = usdc('500') } = {}) {
  const invoice = await checkout.freshInvoice(amount)
  const payer = await createPayer(clients(), deployment(), vaultFunds)
  await mintTo(clients(), deployment(), payer.owner, accountFunds)
  const page = await checkout.browser.newPage({ viewport: { width: 1100, height: 1000 } })
  const wallet = await injectTestWallet(page, { privateKey: payer.ownerPrivateKey, rpcUrl: checkout.devnet.file.rpcUrl, chainId: checkout.devnet.file.chainId })
  const signatures = () => wallet.requests.filter((method) => method === 'eth_signTypedData_v4' || method === 'personal_sign')
  return { invoice, payer, page, wallet, url: invoice.url, signatures }
}

const heading = (page: Page) => page.locator('#svc-widget-heading').textContent()
const widgetText = (page: Page) => page.locator('.svc-widget').textContent()

/** What the merchant's vault receives of `amount`: the gross less the registry's fee for it now. */
async function merchantNet(amount: bigint) {
  const { registry } = checkout.devnet.file.contracts
  const bps = await chain().readContract({ address: registry, abi: invoiceRegistryAbi, functionName: 'feeBpsFor', args: [checkout.devnet.file.merchant.vault] })
  return amount - (amount * BigInt(bps)) / 10_000n
}

describe('paying from the wallet the payer already has', () => {
  test('behavior: an empty vault and USDC in the wallet, no ETH: one action, three signatures in plain words, paid; the balances move exactly', async () => {
    const { invoice, payer, page, url, wallet } = await scenario()
    const merchant = checkout.devnet.file.merchant.vault
    const merchantBefore = await balanceOf(merchant)
    expect(await chain().getBalance({ address: payer.owner })).toBe(0n)
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await expect.poll(() => heading(page)).toBe('Not enough funds')
    await screenshot(page, '40-pay-from-wallet-offer')
    const step1 = wallet.holdNext('eth_signTypedData_v4')
    await page.getByRole('button', { name: 'Pay 248.00 USDC from your wallet' }).click()
    const releaseFunding = await step1
    await expect.poll(() => widgetText(page)).toContain('1 of 3: allow your payment account to take 248.00 USDC from your wallet, once')
    await screenshot(page, '41-pay-from-wallet-step-1')
    const step2 = wallet.holdNext('eth_signTypedData_v4')
    releaseFunding()
    const releasePermit = await step2
    await expect.poll(() => widgetText(page)).toContain('2 of 3: allow the invoice to be paid from your payment account')
    const step3 = wallet.holdNext('Payment')
    releasePermit()
    const releaseOperation = await step3
    await expect.poll(() => widgetText(page)).toContain('3 of 3: confirm the payment')
    releaseOperation()
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Payment received')
    expect((await onchain(invoice.id)).status).toBe(2)
    expect(await balanceOf(payer.owner)).toBe(usdc('500') - usdc('248'))
    expect(await balanceOf(payer.vault)).toBe(0n)
    expect((await balanceOf(merchant)) - merchantBefore).toBe(await merchantNet(usdc('248')))
    expect(await chain().getBalance({ address: payer.owner })).toBe(0n)
    // three prompts a person can read, the last naming what leaves the wallet, never a bare hash
    expect(wallet.requests.filter((method) => method === 'personal_sign' || method === 'eth_sign')).toEqual([])
    expect(wallet.typed.map((request) => request.primaryType)).toEqual(['Permit', 'Permit', 'Payment'])
    const onChain = await onchain(invoice.id)
    expect(wallet.typed[2]!.message).toMatchObject({
      invoice: invoice.id.toString(),
      merchant: onChain.merchant,
      token: onChain.token,
      amount: onChain.amount.toString(),
      fromWallet: usdc('248').toString(),
      vault: payer.vault,
    })
    await page.close()
  })

  test('behavior: a split payment: the vault pays what it holds, the wallet only the rest', async () => {
    const { payer, page, url } = await scenario({ vaultFunds: usdc('47') })
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await expect.poll(() => widgetText(page)).toContain('47.00 from your payment account, 201.00 from your wallet')
    await page.getByRole('button', { name: 'Pay 248.00 USDC from your wallet' }).click()
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Payment received')
    expect(await balanceOf(payer.owner)).toBe(usdc('500') - usdc('201'))
    expect(await balanceOf(payer.vault)).toBe(0n)
    await page.close()
  })

  test('behavior: the plain alternative: the wallet sends the missing amount to the vault (the payer pays its fee), then the payment goes on as today', async () => {
    const { invoice, payer, page, url, wallet } = await scenario({ vaultFunds: usdc('47') })
    await createTestClient({ mode: 'anvil', transport: http(checkout.devnet.file.rpcUrl) }).setBalance({ address: payer.owner, value: parseEther('1') })
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    const sent = wallet.holdNext('eth_sendTransaction')
    await page.getByRole('button', { name: 'Send 201.00 USDC to your payment account (you pay the network fee)' }).click()
    const release = await sent
    await expect.poll(() => heading(page)).toBe('Sending to your payment account')
    release()
    // an invoice issued without metadata: no name for the payee, so paying asks a second time
    await page.getByRole('button', { name: 'Pay 248.00 USDC' }).waitFor({ timeout: 20_000 })
    await clickPay(page)
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Payment received')
    expect((await onchain(invoice.id)).status).toBe(2)
    expect(await balanceOf(payer.owner)).toBe(usdc('500') - usdc('201'))
    expect(await balanceOf(payer.vault)).toBe(0n)
    // the transfer was the payer's own transaction: its fee came from the account
    expect(await chain().getBalance({ address: payer.owner })).toBeLessThan(parseEther('1'))
    await page.close()
  })

  test.each([
    ['spender', (message: Record<string, string>) => (message.spender = devnetRoles.treasury.address), 'The funding would let someone other than your payment account take from your wallet.'],
    ['value', (message: Record<string, string>) => (message.value = usdc('500').toString()), 'The funding would take a different amount than your payment account lacks.'],
    ['owner', (message: Record<string, string>) => (message.owner = devnetRoles.treasury.address), 'The funding would take from an account that is not yours.'],
  ] as const)('behavior: a funding permit with another %s from the service is unsafe before any signature', async (_, tamper, said) => {
    const { invoice, page, url, signatures, payer } = await scenario()
    await rewrite(page, `/v1/pay/${invoice.id}/permit`, (body) => tamper(body.fundingPermitToSign.message), 'POST')
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await page.getByRole('button', { name: 'Pay 248.00 USDC from your wallet' }).click()
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Payment stopped for your safety')
    await expect.poll(() => widgetText(page)).toContain(said)
    await expect.poll(() => widgetText(page)).toContain('You have not signed anything for this payment.')
    expect(signatures()).toEqual([])
    expect(await balanceOf(payer.owner)).toBe(usdc('500'))
    await page.close()
  })

  test('behavior: a funded batch with an extra call, re-sponsored and re-hashed by the service, is unsafe before the operation is signed', async () => {
    const { invoice, page, url, wallet, payer } = await scenario()
    await page.route(
      (u) => u.pathname === `/v1/pay/${invoice.id}/prepare`,
      async (route) => {
        const response = await route.fetch()
        const body = await response.json()
        await reSponsored(
          checkout.devnet.file,
          body,
          (op) => {
            // the payment as prepared, inside a batch of the vault's with a second transfer from the
            // payer's wallet, to the service
            const { token } = decodeFundedPayCallData(op.callData)
            const drain = encodeFunctionData({ abi: tokenTransferFromAbi, functionName: 'transferFrom', args: [payer.owner, devnetRoles.treasury.address, 1n] })
            return { ...op, callData: encodeFunctionData({ abi: vaultExecuteBatchAbi, functionName: 'executeBatch', args: [[payer.vault, token], [0n, 0n], [op.callData, drain]] }) }
          },
          { validUntil: Number(body.permitDeadline), validAfter: 0 },
        )
        await route.fulfill({ response, json: body })
      },
    )
    await page.goto(url)
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await page.getByRole('button', { name: 'Pay 248.00 USDC from your wallet' }).click()
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Payment stopped for your safety')
    await expect.poll(() => widgetText(page)).toContain('The payment contains an action this checkout cannot read.')
    await screenshot(page, '42-unsafe-funded-extra-call')
    expect(wallet.typed.map((request) => request.primaryType)).not.toContain('Payment')
    expect((await onchain(invoice.id)).status).toBe(1)
    expect(await balanceOf(payer.owner)).toBe(usdc('500'))
    await page.close()
  })
})
