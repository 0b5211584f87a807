import type { Page } from 'playwright-core'
import { parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { issueInvoice } from '../../devnet/seed'
import type { InvoiceMetadata } from '../../shared/metadata'
import { hashMetadata } from '../../shared/metadataHash'
import { english } from '../../src/ui/strings'
import { screenshot } from './support/browser'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { rewrite } from './support/rewrite'

/**
 * The merchant's own text, committed on-chain and so matching its record, as the payer reads it: a
 * look-alike name is not confirmed and says why, invisible characters are shown where they stand, a
 * line that does not multiply out is named, and free text sits apart from what was checked. Each
 * record here hashes to the invoice's metaHash and bills exactly what the chain says: whatever the
 * page does not call checked, it refuses for the text alone.
 */

const t = english.strings
const checkout = useCheckoutInBrowser()
const { deployment } = checkout

/** What the payer reads: the app's markup (the served data block beside it is no text on screen). */
const pageText = (page: Page) => page.locator('#app').textContent()
/** The header's one trust line, as shown. */
const trustLine = (page: Page) => page.locator('.svc-header .svc-chain-status p:not([hidden])').textContent()
/** An element's text, polled: a second's wait each time, so that one never shown fails the poll, not the test's time. */
const textOf = (page: Page, selector: string) => page.locator(selector).textContent({ timeout: 1_000 })

/** A record the merchant commits to for 10.00 USDC, due on the chain's due day, with everything else given. */
function record(dueDay: string, overrides: Partial<InvoiceMetadata> = {}): InvoiceMetadata {
  const { contracts, chainId, merchant } = checkout.devnet.file
  return {
    version: '1.0',
    invoiceNumber: 'NW-9101',
    issuedAt: '2026-11-02',
    dueAt: dueDay,
    merchant: { name: 'Northwind Studio Ltd', walletAddress: merchant.vault },
    payer: { name: 'Acme Robotics GmbH' },
    token: { address: contracts.token, symbol: 'USDC', decimals: 6, chainId },
    amount: '10.00',
    amountRaw: parseUnits('10', 6).toString(),
    lineItems: [{ description: 'Design review', quantity: 4, unitPrice: '2.50', amount: '10.00' }],
    createdBy: 'merchant',
    createdAt: '2026-11-02T10:00:00Z',
    ...overrides,
  }
}

/** The merchant issues an invoice committing to the record `edit` makes, and the payer opens its page
 * with the service serving that very record. */
async function committed(edit: (dueDay: string) => InvoiceMetadata, amount = parseUnits('10', 6)) {
  const { timestamp } = await checkout.chain().getBlock()
  const dueAt = timestamp + 86_400n * 30n
  const metadata = edit(new Date(Number(dueAt) * 1000).toISOString().slice(0, 10))
  const { rpcUrl, merchant, serverUrl } = checkout.devnet.file
  const invoice = await issueInvoice(rpcUrl, deployment(), merchant, { amount, dueAt, metaHash: hashMetadata(metadata) })
  const page = await checkout.browser.newPage({ viewport: { width: 1100, height: 1000 } })
  await rewrite(page, `/v1/pay/${invoice.id}/metadata`, (body) => {
    body.accessLevel = 'full'
    body.metadata = metadata
  })
  await page.goto(`${serverUrl}/pay/${invoice.id}`)
  return page
}

describe('the merchant\'s text, committed on-chain', () => {
  test.each([
    ['all Cyrillic', '\u0430\u0440\u0440\u04CF\u0435'],
    ['fullwidth', '\uFF2Eorthwind Studio Ltd'],
    ['mathematical', '\u{1D5AD}orthwind Studio Ltd'],
  ])('behavior: a look-alike merchant name (%s) is not confirmed, and says why; nothing on the page names the payee by it', async (_, name) => {
    const page = await committed((dueDay) => record(dueDay, { merchant: { name, walletAddress: checkout.devnet.file.merchant.vault } }))
    await expect.poll(() => trustLine(page)).toBe(t.trustCheckedNoDocument)
    await expect.poll(() => textOf(page, '.svc-name-warning')).toBe(t.nameLookalike(name))
    expect(await page.locator('.svc-header').textContent()).not.toContain(name)
    expect(await page.locator('.svc-summary').textContent()).toContain(checkout.devnet.file.merchant.vault)
    expect(await page.locator('.svc-summary').textContent()).not.toContain(name)
    await screenshot(page, `70-lookalike-name-${name.codePointAt(0)!.toString(16)}`)
    await page.close()
  })

  test('behavior: invisible and format characters are shown as their code points where they stand; the record, made visible, stays checked', async () => {
    const notes = 'Pay\u2028to\u2029us\u0085now. Ref\uFE0F 1\u03380 \u2800\u{1D17A}\uFFFC\u{E0100}\u180B\u{13437}end'
    const page = await committed((dueDay) => record(dueDay, { notes }))
    await expect.poll(() => trustLine(page)).toBe(`✓ ${t.trustChecked}`)
    const shown = 'Pay[U+2028]to[U+2029]us[U+0085]now. Ref[U+FE0F] 1[U+0338]0 [U+2800][U+1D17A][U+FFFC][U+E0100][U+180B][U+13437]end'
    await expect.poll(() => pageText(page)).toContain(shown)
    const text = (await pageText(page))!
    for (const char of ['\u2028', '\u2029', '\u0085', '\uFE0F', '\u0338', '\u2800', '\u{1D17A}', '\uFFFC', '\u{E0100}', '\u180B', '\u{13437}']) expect(text).not.toContain(char)
    await page.close()
  })

  test('behavior: a merchant name with an invisible character is shown with it made visible, and not confirmed', async () => {
    const page = await committed((dueDay) => record(dueDay, { merchant: { name: 'North\u200Bwind Studio Ltd', walletAddress: checkout.devnet.file.merchant.vault } }))
    await expect.poll(() => trustLine(page)).toBe(t.trustCheckedNoDocument)
    await expect.poll(() => textOf(page, '.svc-name-warning')).toBe(t.nameHidden('North[U+200B]wind Studio Ltd'))
    expect(await page.locator('.svc-header').textContent()).not.toContain('wind Studio')
    await page.close()
  })

  test('behavior: a line whose quantity times unit price is not its amount is named and not checked, though the lines add up to the chain\'s amount', async () => {
    // the audit's line: the chain bills 1,000.00 USDC and the line says so, but 100 × 0.10 is 10.00
    const amount = parseUnits('1000', 6)
    const line = { description: 'Stickers', quantity: 100, unitPrice: '0.10', amount: '1000.00' }
    const page = await committed((dueDay) => record(dueDay, { amount: '1000.00', amountRaw: amount.toString(), lineItems: [line] }), amount)
    await expect.poll(() => trustLine(page)).toBe(t.trustCheckedNoDocument)
    await expect.poll(() => textOf(page, '.svc-document .svc-warning[role="alert"]')).toContain('(quantity × unit price)')
    expect(await page.locator('.svc-lines tbody').textContent()).toBe('Stickers1000.10 USDC1,000.00 USDC')
    await screenshot(page, '71-line-does-not-multiply-out')
    await page.close()
  })

  test('behavior: description, payment terms and notes are the sender\'s own words, shown apart from what was checked, under no ✓', async () => {
    const page = await committed((dueDay) =>
      record(dueDay, { description: 'Verified by your bank', paymentTerms: 'Pay within 7 days to avoid a fee', notes: 'Our bank details changed: ask us for the new account' }),
    )
    await expect.poll(() => trustLine(page)).toBe(`✓ ${t.trustChecked}`)
    const words = page.locator('section.svc-notes')
    await expect.poll(() => textOf(page, 'section.svc-notes h3')).toBe(t.merchantWords)
    expect(await words.textContent()).toBe(`${t.merchantWords}Verified by your bank${t.paymentTerms}Pay within 7 days to avoid a fee${t.notes}Our bank details changed: ask us for the new account`)
    expect(await words.textContent()).not.toContain('✓')
    // none of it in the checked header or the facts beside the dates
    for (const where of ['.svc-header', '.svc-facts']) expect(await page.locator(where).textContent()).not.toMatch(/Verified by your bank|Pay within|bank details/)
    await screenshot(page, '72-merchant-words-apart')
    await page.close()
  })
})
