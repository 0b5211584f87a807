import type { Page } from 'playwright-core'
import { createTestClient, decodeFunctionData, http, parseAbi, parseEther, parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { devnetClients } from '../../devnet/deploy'
import { cancelInvoice, mintTo } from '../../devnet/seed'
import { generatePrivateKey } from 'viem/accounts'
import { accessibilityViolations } from './support/accessibilityViolations'
import { screenshot } from './support/browser'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { injectSmartTestWallet, type EntryPointVersion } from './support/smartTestWallet'
import { movingClock } from './support/pageClock'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { paymentCalls } from '../../src/flow/smartWallet/paymentCalls'
import { vaultFactoryAbi, vaultSalt } from '../../shared/vaultFactoryAbi'
import { english } from '../../src/ui/strings'
import { afterPayEn } from '../../src/ui/strings.afterPay'

/**
 * A payer whose wallet is itself a smart account (eth-infinitism's SimpleAccount v0.7 behind an
 * EIP-5792 wallet) pays from it in one prompt: the page builds the approve and pay calls itself, the
 * wallet asks the checkout's ERC-7677 paymaster service to sponsor them and runs them on the real
 * EntryPoint, and the page says Paid only once the chain does.
 */

const checkout = useCheckoutInBrowser()
const { balanceOf, invoiceOnChain: onchain, chain, deployment } = checkout
const usdc = (amount: string) => parseUnits(amount, 6)

/** A fresh invoice and a page whose wallet is a smart account holding `accountFunds` (and no ETH). */
async function scenario({
  amount = usdc('248'),
  accountFunds = usdc('500'),
  capabilities,
  entryPointVersion = '0.7',
  paysOwnFees = false,
}: { amount?: bigint; accountFunds?: bigint; capabilities?: Record<string, unknown>; entryPointVersion?: EntryPointVersion; paysOwnFees?: boolean } = {}) {
  const invoice = await checkout.freshInvoice(amount)
  // a context of its own: axe finishes its run in a second page of the same context
  const page = await (await checkout.browser.newContext({ viewport: { width: 1100, height: 1000 } })).newPage()
  const { rpcUrl, chainId } = checkout.devnet.file
  const entryPoint = entryPointVersion === '0.6' ? checkout.devnet.file.contracts.entryPointV06 : undefined
  if (entryPointVersion === '0.6' && !entryPoint) throw new Error('the devnet serves no EntryPoint v0.6')
  const wallet = await injectSmartTestWallet(page, { ownerKey: generatePrivateKey(), rpcUrl, chainId, entryPointVersion, paysOwnFees, ...(entryPoint ? { entryPoint } : {}), ...(capabilities ? { capabilities } : {}) })
  if (accountFunds > 0n) await mintTo(devnetClients(rpcUrl, chainId), deployment(), wallet.account, accountFunds)
  // every heading the payer was shown, in order: "never Paid" is about all of them, not the last
  await page.addInitScript(() => {
    const seen: string[] = ((window as unknown as { __headings: string[] }).__headings = [])
    new MutationObserver(() => {
      const text = document.getElementById('svc-widget-heading')?.textContent ?? ''
      if (text && seen.at(-1) !== text) seen.push(text)
    }).observe(document, { subtree: true, childList: true, characterData: true })
  })
  return { invoice, page, wallet }
}

const heading = (page: Page) => page.locator('#svc-widget-heading').textContent()
const widgetText = (page: Page) => page.locator('.svc-widget').textContent()
const headingsSeen = (page: Page) => page.evaluate(() => (window as unknown as { __headings: string[] }).__headings)

const t = english.strings

/** The payer vault the pinned factory derives from `owner`: where the vault flow would have had a smart
 * account send its funds. */
const vaultOf = (owner: `0x${string}`) =>
  chain().readContract({ address: checkout.devnet.file.contracts.vaultFactory, abi: vaultFactoryAbi, functionName: 'getAddress', args: [owner, vaultSalt] })

/**
 * The heading, read as the page follows a sent batch: it asks the wallet and the chain at once, then
 * again 2 s later (callsPollMs), and a batch is seldom on the chain by the first look. The page's
 * clock (installed before it loads) is moved on a quarter second at each of the test's looks, so the
 * page's next look comes after eight of them rather than 2 s later; at that pace the page's own limits
 * (5 s for the wallet's answer, 10 s for the chain's, 90 s to follow the batch) still last seconds.
 */
const followingTheBatch = (page: Page) => movingClock(page, () => heading(page), 250)

async function connect(page: Page, url: string) {
  await page.goto(url)
  await page.getByRole('button', { name: 'Smart Test Wallet' }).click()
}

describe('paying from a smart wallet in one prompt', () => {
  test('behavior: one prompt, sponsored by the checkout\'s paymaster service; the account is debited exactly the amount, holds no ETH before or after, and the invoice is Paid', async () => {
    const amount = usdc('248')
    const { invoice, page, wallet } = await scenario({ amount })
    const { serverUrl, contracts } = checkout.devnet.file
    const before = await balanceOf(wallet.account)
    expect(await chain().getBalance({ address: wallet.account })).toBe(0n)
    await page.clock.install()
    await connect(page, invoice.url)
    await expect.poll(() => heading(page)).toBe('Pay this invoice')
    expect(await widgetText(page)).toContain('One step: the invoice registry may take 248.00 USDC from this account, once, to pay this invoice.')
    expect(await accessibilityViolations(page)).toEqual([])
    await screenshot(page, '60-smart-wallet-offer')

    const release = await Promise.all([wallet.holdNext(), page.getByRole('button', { name: 'Pay 248.00 USDC' }).click()]).then(([release]) => release)
    await expect.poll(() => heading(page)).toBe('Confirm the payment in your wallet')
    expect(await accessibilityViolations(page)).toEqual([])
    release()
    await expect.poll(followingTheBatch(page), { timeout: 30_000 }).toBe('Payment received')
    expect(await accessibilityViolations(page)).toEqual([])
    await screenshot(page, '61-smart-wallet-paid')

    // one prompt, built by the page: approve exactly the amount to the registry, then pay this invoice
    expect(wallet.sent).toHaveLength(1)
    const [request] = wallet.sent
    expect(request).toMatchObject({
      version: '2.0.0',
      from: wallet.account,
      chainId: `0x${checkout.devnet.file.chainId.toString(16)}`,
      atomicRequired: true,
      capabilities: { paymasterService: { url: `${serverUrl}/v1/paymaster`, optional: false } },
    })
    expect(request!.calls.map((call) => call.to.toLowerCase())).toEqual([contracts.token.toLowerCase(), contracts.registry.toLowerCase()])
    expect(decodeFunctionData({ abi: parseAbi(['function approve(address,uint256)']), data: request!.calls[0]!.data }).args).toEqual([contracts.registry, amount])
    expect(decodeFunctionData({ abi: parseAbi(['function pay(uint256,uint256,uint8,bytes32,bytes32)']), data: request!.calls[1]!.data }).args[0]).toBe(invoice.id)
    expect(wallet.paymasterRequests).toEqual([
      { url: `${serverUrl}/v1/paymaster`, method: 'pm_getPaymasterStubData' },
      { url: `${serverUrl}/v1/paymaster`, method: 'pm_getPaymasterData' },
    ])
    expect(wallet.requests.filter((method) => method === 'eth_signTypedData_v4' || method === 'personal_sign')).toEqual([])

    const record = await onchain(invoice.id)
    expect(record.status).toBe(2)
    expect(record.payer).toBe(wallet.account)
    expect(await balanceOf(wallet.account)).toBe(before - amount)
    expect(await chain().getBalance({ address: wallet.account })).toBe(0n)
    expect(await chain().readContract({ address: contracts.token, abi: parseAbi(['function allowance(address,address) view returns (uint256)']), functionName: 'allowance', args: [wallet.account, contracts.registry] })).toBe(0n)
    await page.context().close()
  }, 90_000)

  test('behavior: a Coinbase-style account on EntryPoint v0.6 (SimpleAccount v0.6) pays the same way: one prompt, sponsored, debited exactly the amount, no ETH, Paid', async () => {
    const amount = usdc('17.5')
    const { invoice, page, wallet } = await scenario({ amount, entryPointVersion: '0.6' })
    const before = await balanceOf(wallet.account)
    await page.clock.install()
    await connect(page, invoice.url)
    await page.getByRole('button', { name: 'Pay 17.50 USDC' }).click()
    await expect.poll(followingTheBatch(page), { timeout: 30_000 }).toBe('Payment received')
    expect(wallet.sent).toHaveLength(1)
    expect(wallet.paymasterRequests.map(({ method }) => method)).toEqual(['pm_getPaymasterStubData', 'pm_getPaymasterData'])
    const record = await onchain(invoice.id)
    expect({ status: record.status, payer: record.payer }).toEqual({ status: 2, payer: wallet.account })
    expect(await balanceOf(wallet.account)).toBe(before - amount)
    expect(await chain().getBalance({ address: wallet.account })).toBe(0n)
    await page.context().close()
  }, 90_000)

  test('behavior: a wallet reporting the batch confirmed (200) while the chain says Issued never shows Paid; the payer is told nothing was paid', async () => {
    const { invoice, page, wallet } = await scenario()
    // the wallet's word must stand 6 s against the chain's (finalWordGraceMs), read every 2 s: the
    // page's clock is moved on instead, by half seconds, so that a wallet's answer still on its way is
    // not cut short by the page's 5 s wait for it (which would start the 6 s again)
    await page.clock.install()
    await connect(page, invoice.url)
    await page.getByRole('button', { name: 'Pay 248.00 USDC' }).waitFor()
    wallet.lieNext()
    await page.getByRole('button', { name: 'Pay 248.00 USDC' }).click()
    await expect.poll(() => heading(page)).toBe('Payment submitted')
    expect(await accessibilityViolations(page)).toEqual([])
    await expect.poll(movingClock(page, () => widgetText(page), 500), { timeout: 30_000 }).toContain('Your wallet reports the payment done, but the blockchain shows the invoice open. Nothing was paid.')
    expect(await heading(page)).toBe('Pay this invoice')
    expect(await accessibilityViolations(page)).toEqual([])
    await screenshot(page, '62-smart-wallet-lied')
    const seen = await headingsSeen(page)
    expect(seen).not.toContain('Payment received')
    expect(seen).not.toContain('This invoice is paid')
    expect((await onchain(invoice.id)).status).toBe(1)
    expect(wallet.requests).toContain('wallet_getCallsStatus')
    await page.context().close()
  }, 90_000)

  test('behavior: a batch the wallet reports failed is read from the chain before the page says anything: canceled meanwhile, the page says canceled and nothing moved', async () => {
    const { invoice, page, wallet } = await scenario()
    const before = await balanceOf(wallet.account)
    await connect(page, invoice.url)
    await page.getByRole('button', { name: 'Pay 248.00 USDC' }).waitFor()
    // the merchant cancels while the payer looks at the button: the paymaster service refuses the
    // batch, and the wallet reports it failed
    await cancelInvoice(checkout.devnet.file.rpcUrl, deployment(), checkout.devnet.file.merchant, invoice.id)
    await page.getByRole('button', { name: 'Pay 248.00 USDC' }).click()
    // a canceled invoice gets its own page, with nothing to pay
    await expect.poll(() => page.getByRole('heading', { name: 'This invoice was canceled' }).isVisible(), { timeout: 30_000 }).toBe(true)
    expect(await page.getByRole('button', { name: /^Pay / }).count()).toBe(0)
    expect(wallet.paymasterRequests.map(({ method }) => method)).toEqual(['pm_getPaymasterStubData'])
    expect((await onchain(invoice.id)).status).toBe(3)
    expect(await balanceOf(wallet.account)).toBe(before)
    await page.context().close()
  }, 60_000)

  test('behavior: a batch the payer rejects in the wallet (4001) returns to the payment, nothing paid', async () => {
    const { invoice, page, wallet } = await scenario()
    await connect(page, invoice.url)
    await page.getByRole('button', { name: 'Pay 248.00 USDC' }).waitFor()
    wallet.rejectNext()
    await page.getByRole('button', { name: 'Pay 248.00 USDC' }).click()
    await expect.poll(() => widgetText(page)).toContain('You declined the payment. Nothing was paid.')
    expect(await heading(page)).toBe('Pay this invoice')
    expect(await page.getByRole('button', { name: 'Pay 248.00 USDC' }).isEnabled()).toBe(true)
    expect(await accessibilityViolations(page)).toEqual([])
    expect((await onchain(invoice.id)).status).toBe(1)
    expect(wallet.sent).toHaveLength(1)
    await page.context().close()
  }, 60_000)

  test('behavior: a payer who picks another account before paying is followed: the page starts again for it, and that account pays', async () => {
    const { invoice, page, wallet } = await scenario()
    const first = wallet.account
    await connect(page, invoice.url)
    await page.getByRole('button', { name: 'Pay 248.00 USDC', exact: true }).waitFor()
    expect(await widgetText(page)).toContain(first)
    const second = await wallet.switchAccount(generatePrivateKey(), (account) => mintTo(devnetClients(checkout.devnet.file.rpcUrl, checkout.devnet.file.chainId), deployment(), account, usdc('300')))
    await expect.poll(() => widgetText(page)).toContain(second)
    await page.getByRole('button', { name: 'Pay 248.00 USDC', exact: true }).click()
    await expect.poll(() => heading(page), { timeout: 30_000 }).toBe('Payment received')
    expect(wallet.sent.map((request) => request.from)).toEqual([second])
    expect((await onchain(invoice.id)).payer).toBe(second)
    expect(await balanceOf(second)).toBe(usdc('52'))
    expect(await balanceOf(first)).toBe(usdc('500'))
    await page.context().close()
  }, 90_000)

  test('behavior: a payer who moves the wallet to another chain before paying is asked to switch back, as in the vault flow', async () => {
    const { invoice, page, wallet } = await scenario()
    await connect(page, invoice.url)
    await page.getByRole('button', { name: 'Pay 248.00 USDC' }).waitFor()
    await wallet.switchChain(1)
    await expect.poll(() => heading(page)).toBe('Wrong network')
    await page.getByRole('button', { name: /^Switch to / }).click()
    await expect.poll(() => heading(page)).toBe('Pay this invoice')
    expect(wallet.sent).toEqual([])
    await page.context().close()
  }, 60_000)

  test('behavior: a smart account whose wallet offers no paymaster service is told plainly it cannot pay here: never the vault flow it could not sign for, never a gas prompt', async () => {
    const { invoice, page, wallet } = await scenario({ capabilities: { atomic: { status: 'supported' } } })
    await connect(page, invoice.url)
    await expect.poll(() => widgetText(page)).toContain(afterPayEn.smartCannotPay)
    expect(await widgetText(page)).not.toContain('Pay 248.00 USDC from your wallet')
    expect(await widgetText(page)).not.toContain(afterPayEn.insufficientHint)
    expect(await page.getByRole('button', { name: /^Pay / }).count()).toBe(0)
    expect(await accessibilityViolations(page)).toEqual([])
    expect(wallet.requests).toContain('wallet_getCapabilities')
    expect(wallet.requests).not.toContain('wallet_sendCalls')
    expect(wallet.requests).not.toContain('eth_sendTransaction')
    expect(wallet.requests).not.toContain('eth_signTypedData_v4')
    await page.context().close()
  }, 60_000)

  test('behavior: a smart account short of funds is told to top up itself, never its vault; the 200 USDC its vault already holds is taken back in one request it pays the fee of, and then it is offered the payment', async () => {
    const amount = usdc('248')
    const { invoice, page, wallet } = await scenario({ amount, accountFunds: usdc('48'), paysOwnFees: true })
    const { rpcUrl, chainId } = checkout.devnet.file
    // the vault derived from the account as its owner, funded as the page used to tell it to
    const vault = await vaultOf(wallet.account)
    await mintTo(devnetClients(rpcUrl, chainId), deployment(), vault, usdc('200'))
    // the account pays the network fee of taking it back: the checkout's paymaster sponsors payments only
    await createTestClient({ mode: 'anvil', transport: http(rpcUrl) }).setBalance({ address: wallet.account, value: parseEther('1') })
    await connect(page, invoice.url)
    await expect.poll(() => heading(page)).toBe(t.insufficientTitle)
    await expect.poll(() => widgetText(page)).toContain(afterPayEn.smartShort('200.00 USDC', '48.00 USDC'))
    // the address to send to is the account's own; the vault's is named only as holding what is stranded
    expect(await page.locator('.svc-fund > .svc-hex').getAttribute('title')).toBe(wallet.account)
    expect(await page.locator('.svc-stranded .svc-hex').getAttribute('title')).toBe(vault)
    expect(await widgetText(page)).not.toContain(afterPayEn.insufficientHint)
    expect(await widgetText(page)).toContain(afterPayEn.strandedBody('200.00 USDC'))
    expect(await page.getByRole('button', { name: /^Pay / }).count()).toBe(0)
    expect(await accessibilityViolations(page)).toEqual([])
    await screenshot(page, '64-smart-account-short-vault-stranded')

    await page.getByRole('button', { name: afterPayEn.moveBack('200.00 USDC') }).click()
    // once the chain shows the vault emptied, the account holds the amount: the one-prompt payment
    await expect.poll(() => heading(page), { timeout: 30_000 }).toBe(t.payTitle)
    expect(await balanceOf(vault)).toBe(0n)
    expect(await balanceOf(wallet.account)).toBe(usdc('248'))
    // the way back was the account's own request: the vault deployed and its execute called, no paymaster
    expect(wallet.sent).toHaveLength(1)
    expect(wallet.sent[0]!.capabilities).toEqual({})
    expect(wallet.sent[0]!.calls.map((call) => call.to.toLowerCase())).toEqual([checkout.devnet.file.contracts.vaultFactory.toLowerCase(), vault.toLowerCase()])
    expect(wallet.paymasterRequests).toEqual([])
    // the one-prompt payment from the account itself, as for any smart account holding the amount
    expect(await widgetText(page)).toContain(afterPayEn.smartWalletBody('248.00 USDC'))
    expect(await page.getByRole('button', { name: 'Pay 248.00 USDC' }).isEnabled()).toBe(true)
    expect((await onchain(invoice.id)).status).toBe(1)
    await page.context().close()
  }, 90_000)

  test('behavior: declining the way back in the wallet leaves the vault\'s funds where they are and says so; the address to top up stays the account\'s own', async () => {
    const { invoice, page, wallet } = await scenario({ accountFunds: 0n })
    const vault = await vaultOf(wallet.account)
    await mintTo(devnetClients(checkout.devnet.file.rpcUrl, checkout.devnet.file.chainId), deployment(), vault, usdc('200'))
    await connect(page, invoice.url)
    await expect.poll(() => widgetText(page)).toContain(afterPayEn.smartShort('248.00 USDC', '0.00 USDC'))
    wallet.rejectNext()
    await page.getByRole('button', { name: afterPayEn.moveBack('200.00 USDC') }).click()
    await expect.poll(() => widgetText(page)).toContain(t.noteTransferRejected)
    expect(await balanceOf(vault)).toBe(usdc('200'))
    expect(await page.locator('.svc-fund > .svc-hex').getAttribute('title')).toBe(wallet.account)
    await page.context().close()
  }, 60_000)
})

describe('paying from a smart wallet through the embed\'s wallet bridge', () => {
  // before the payment below, which pays the storefront's invoice
  test('behavior: a smart account short of funds on a host page, whose relayed wallet sends no calls of the page\'s own, is told to top up itself and, plainly, how to take its vault\'s funds back', async () => {
    const { storefrontUrl, rpcUrl, chainId } = checkout.devnet.file
    const page = await (await checkout.browser.newContext({ viewport: { width: 1100, height: 1100 } })).newPage()
    const wallet = await injectSmartTestWallet(page, { ownerKey: generatePrivateKey(), rpcUrl, chainId, topOnly: true })
    const vault = await vaultOf(wallet.account)
    await mintTo(devnetClients(rpcUrl, chainId), deployment(), vault, usdc('200'))
    await page.goto(`${storefrontUrl}/script-tag`)
    await expect.poll(() => page.frames().some((frame) => frame.url().includes('/pay/')), { timeout: 15_000 }).toBe(true)
    const frame = page.frames().find((candidate) => candidate.url().includes('/pay/'))!
    const bridged = frame.getByRole('button', { name: /Smart Test Wallet · via 127\.0\.0\.1/ })
    await expect.poll(() => bridged.count(), { timeout: 15_000 }).toBe(1)
    await bridged.click()
    await expect.poll(() => frame.locator('.svc-widget').textContent(), { timeout: 15_000 }).toContain(afterPayEn.strandedHow('USDC'))
    expect(await frame.locator('.svc-widget').textContent()).toContain(afterPayEn.strandedBody('200.00 USDC'))
    expect(await frame.locator('.svc-fund > .svc-hex').getAttribute('title')).toBe(wallet.account)
    expect(await frame.locator('.svc-stranded .svc-hex').getAttribute('title')).toBe(vault)
    expect(await frame.getByRole('button', { name: afterPayEn.moveBack('200.00 USDC') }).count()).toBe(0)
    expect(await frame.getByRole('button', { name: /^Pay / }).count()).toBe(0)
    expect(wallet.sent).toEqual([])
    await screenshot(page, '65-smart-account-stranded-through-the-bridge')
    await page.context().close()
  }, 60_000)

  test('behavior: a smart wallet only on the host page pays in one prompt through the bridge, which sent the batch it rebuilt itself; the host hears it pending, then paid with the chain\'s txHash', async () => {
    const { storefrontUrl, serverUrl, rpcUrl, chainId, contracts, invoices } = checkout.devnet.file
    const product = invoices[0]!
    const page = await (await checkout.browser.newContext({ viewport: { width: 1100, height: 1100 } })).newPage()
    const wallet = await injectSmartTestWallet(page, { ownerKey: generatePrivateKey(), rpcUrl, chainId, topOnly: true })
    const amount = (await onchain(BigInt(product.id))).amount
    await mintTo(devnetClients(rpcUrl, chainId), deployment(), wallet.account, amount)
    await page.goto(`${storefrontUrl}/script-tag`)
    await expect.poll(() => page.frames().some((frame) => frame.url().includes('/pay/')), { timeout: 15_000 }).toBe(true)
    const frame = page.frames().find((candidate) => candidate.url().includes('/pay/'))!
    const bridged = frame.getByRole('button', { name: /Smart Test Wallet · via 127\.0\.0\.1/ })
    await expect.poll(() => bridged.count(), { timeout: 15_000 }).toBe(1)
    await bridged.click()
    await frame.getByRole('button', { name: /^Pay / }).click()
    await expect.poll(() => frame.locator('#svc-widget-heading').textContent(), { timeout: 30_000 }).toBe('Payment received')
    await expect.poll(() => page.locator('[data-event="paid"]').count(), { timeout: 10_000 }).toBe(1)
    // the host heard the batch go out before it heard it paid
    expect(await page.locator('[data-event="pending"], [data-event="paid"]').allTextContents()).toEqual([`pending ${JSON.stringify({ invoiceId: product.id, userOpHash: '' })}`, expect.stringMatching(/^paid /)])
    const detail = JSON.parse((await page.locator('[data-event="paid"]').textContent())!.replace(/^paid /, ''))
    const [settlement] = await chain().getContractEvents({ address: contracts.registry, abi: invoiceRegistryAbi, eventName: 'InvoicePaid', args: { id: BigInt(product.id) }, fromBlock: 0n })
    // no operation hash: the wallet built that operation, and its hash would be only the wallet's word
    expect(detail).toEqual({ invoiceId: product.id, userOpHash: '', txHash: settlement!.transactionHash })
    expect(wallet.sent).toEqual([
      {
        version: '2.0.0',
        from: wallet.account,
        chainId: `0x${chainId.toString(16)}`,
        atomicRequired: true,
        calls: paymentCalls({ deployment: { ...checkout.devnet.file.contracts, chainId } as never, invoiceId: BigInt(product.id), amount }),
        capabilities: { paymasterService: { url: `${serverUrl}/v1/paymaster`, optional: false } },
      },
    ])
    expect(wallet.requests).toContain('wallet_getCallsStatus')
    const record = await onchain(BigInt(product.id))
    expect({ status: record.status, payer: record.payer }).toEqual({ status: 2, payer: wallet.account })
    expect(await balanceOf(wallet.account)).toBe(0n)
    expect(await chain().getBalance({ address: wallet.account })).toBe(0n)
    await screenshot(page, '63-smart-wallet-storefront-paid')
    await page.context().close()
  }, 90_000)
})
