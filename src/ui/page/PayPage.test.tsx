// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/preact'
import { renderToString } from 'preact-render-to-string'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import type { PaymentState } from '../../flow/paymentState'
import type { ShownInvoice } from '../../verify/confirmInvoice'
import { testDeployment } from '../../verify/preparedPayment.fixture'
import { english } from '../strings'
import { shown } from '../shown.fixture'
import { LocaleContext } from '../LocaleContext'
import type { DocumentLoad } from './documentLoad'
import { hashMetadata } from '../../../shared/metadataHash'
import { testDocument } from './invoiceDocument.fixture'
import { PayPage } from './PayPage'
import { loadMetadataVerdict } from './useMetadataVerdict'
import { loadAfterPayViews } from '../widget/lazyViews'

const deployment = testDeployment()
const now = Date.parse('2026-11-10T12:00:00Z')
const { metadata, invoice } = testDocument(deployment, { dueAt: String(Date.parse('2026-11-16T00:00:00Z') / 1000) })

function show(state: PaymentState, document: DocumentLoad, at = now, pdfUrl: string | null = '/v1/pay/3/pdf?token=svc_tk_x', layout: 'full' | 'compact' = 'full') {
  render(
    <LocaleContext.Provider value={english}>
      <PayPage
        state={state}
        actions={{ choose: vi.fn(), switchNetwork: vi.fn(), pay: vi.fn(), payFromWallet: vi.fn(), sendToVault: vi.fn(), moveBack: vi.fn(), renewPermit: vi.fn(), retry: vi.fn() }}
        wallets={[]}
        deployment={deployment}
        document={document}
        pdfUrl={pdfUrl}
        onReloadDocument={vi.fn()}
        now={at}
        layout={layout}
      />
    </LocaleContext.Provider>,
  )
}

const loaded = (data: ShownInvoice = invoice, meta = metadata): DocumentLoad => ({ status: 'loaded', document: { accessLevel: 'full', invoice: data, metadata: meta } })

afterEach(cleanup)
// the states after Pay are a chunk of their own (lazyViews.tsx), and so is the record's check
// (useMetadataVerdict.ts): as on the page, there before Pay and once the chain is read
beforeAll(() => Promise.all([loadAfterPayViews(), loadMetadataVerdict()]))

describe('PayPage', () => {
  test('default: shows the parties, line items, totals, due date, notes and a PDF link, marked verified', () => {
    show({ name: 'ready', invoice, note: null, rechecks: 0 }, loaded())
    expect(screen.queryByRole('heading', { level: 1, name: 'Invoice NW-0007' })).not.toBeNull()
    // one trust line, in plain words; what was checked against what is in the disclosure under it
    expect(shown('Checked: the amount, recipient and due date match the payment record.')).toBe(true)
    expect(shown(/^Checking this invoice/)).toBe(false)
    expect(screen.getByText('What was checked').closest('details')?.textContent).toContain('their fingerprint matches the one recorded on the blockchain')
    expect(screen.getAllByText('Northwind Studio Ltd').length).toBeGreaterThan(0)
    expect(shown('Acme Robotics GmbH')).toBe(true)
    expect(shown('UX research and wireframes')).toBe(true)
    expect(shown('1,360.00 USDC')).toBe(true)
    expect(screen.getAllByText('4,540.00 USDC').length).toBeGreaterThan(0)
    expect(shown('Due November 16, 2026')).toBe(true)
    expect(shown('Thank you for your business. Phase 2 starts on receipt of payment.')).toBe(true)
    expect(screen.getByRole('link', { name: 'Download PDF' }).getAttribute('href')).toBe('/v1/pay/3/pdf?token=svc_tk_x')
    expect(screen.queryByRole('heading', { name: 'Choose a wallet to pay with' })).not.toBeNull()
  })

  test('behavior: the compact layout shows the payee, the amount, its on-chain confirmation and the payment, with the document behind a disclosure', () => {
    show({ name: 'ready', invoice, note: null, rechecks: 0 }, loaded(), now, undefined, 'compact')
    const main = document.querySelector('main')!
    expect(main.className).toBe('svc-page svc-page-narrow svc-page-compact svc-page-open')
    const header = document.querySelector('header.svc-header')!
    expect(header.textContent).toContain('Northwind Studio Ltd')
    expect(header.textContent).toContain('4,540.00 USDC')
    expect(shown('Checked: the amount, recipient and due date match the payment record.')).toBe(true)
    expect(screen.queryByRole('heading', { name: 'Choose a wallet to pay with' })).not.toBeNull()
    const disclosure = main.querySelector<HTMLDetailsElement>('details.svc-disclosure')!
    expect(disclosure.open).toBe(false)
    expect(disclosure.querySelector('summary')!.textContent).toBe('Show the invoice')
    // the whole document is in it, one click away: the billed party and the lines
    expect(disclosure.textContent).toContain('Acme Robotics GmbH')
    expect(disclosure.textContent).toContain('UX research and wireframes')
    expect(main.querySelectorAll(':scope > .svc-document')).toHaveLength(0)
  })

  test('behavior: metadata that does not hash to the on-chain metaHash is flagged, and its names are not used', () => {
    const forged = { ...metadata, merchant: { ...metadata.merchant, name: 'Evil Corp' } }
    show({ name: 'ready', invoice, note: null, rechecks: 0 }, loaded(invoice, forged))
    expect(screen.getByRole('alert').textContent).toContain('do not match the invoice recorded on-chain')
    expect(shown('Checked: the amount, recipient and due date match the payment record.')).toBe(false)
    // the header falls back to on-chain facts
    expect(screen.queryByRole('heading', { level: 1, name: `Invoice ${invoice.invoiceNumber}` })).not.toBeNull()
  })

  test('behavior: metadata that bills another amount or payee than the chain is a warning naming them, never Verified', () => {
    // hashes to the metaHash the service reports, but the chain's invoice is for 1,000 USDC to another merchant
    const onChain = { ...invoice, amount: '1000000000', merchant: '0x3333333333333333333333333333333333333333' as const }
    show({ name: 'ready', invoice: onChain, note: null, rechecks: 0 }, loaded(onChain))
    expect(screen.getByRole('alert').textContent).toContain('do not match the invoice recorded on-chain (amount, total shown, line items, merchant)')
    expect(shown('Checked: the amount, recipient and due date match the payment record.')).toBe(false)
    expect(screen.queryByRole('heading', { level: 1, name: `Invoice ${invoice.invoiceNumber}` })).not.toBeNull()
  })

  test('behavior: before the chain is read, the service figures are marked unconfirmed and nothing is verified', () => {
    const unconfirmed = { ...invoice, confirmed: false }
    show({ name: 'ready', invoice: unconfirmed, note: null, rechecks: 0 }, loaded(unconfirmed))
    expect(shown('Unconfirmed', { selector: '.svc-badge' })).toBe(true)
    expect(shown('Checking this invoice with the payment record…')).toBe(true)
    expect(shown('Checked: the amount, recipient and due date match the payment record.')).toBe(false)
    expect(shown("From the blockchain: the amount, recipient and due date. The recipient\'s name is not confirmed.")).toBe(false)
    expect(screen.getByText('What was checked').closest('details')?.textContent).toContain('Not yet confirmed on-chain: the amount, payee, status and due date above come from the payment service')
  })

  test('behavior: once the chain has answered but the record is still on its way, the header still says it is checking, never that the name is not confirmed', () => {
    show({ name: 'ready', invoice, note: null, rechecks: 0 }, { status: 'loading' })
    expect(shown('Checking this invoice with the payment record…')).toBe(true)
    expect(shown("From the blockchain: the amount, recipient and due date. The recipient\'s name is not confirmed.")).toBe(false)
    expect(shown('Checked: the amount, recipient and due date match the payment record.')).toBe(false)
  })

  test('behavior: without a token only the on-chain record is shown, and payment is still offered', () => {
    show({ name: 'ready', invoice, note: null, rechecks: 0 }, { status: 'loaded', document: { accessLevel: 'onchain_only', invoice, metadata: null } }, now, null)
    expect(shown(/Only the on-chain record is shown/)).toBe(true)
    expect(screen.queryByRole('heading', { name: 'Choose a wallet to pay with' })).not.toBeNull()
  })

  test('behavior: with a token the service does not open, the page says the link does not open the details, names no cause it cannot know, and the on-chain invoice stays payable', () => {
    show({ name: 'ready', invoice, note: null, rechecks: 0 }, { status: 'loaded', document: { accessLevel: 'onchain_only', invoice, metadata: null } })
    expect(screen.queryByRole('heading', { name: 'This link does not open this invoice\'s details' })).not.toBeNull()
    expect(shown('It may have expired or been mistyped. Only the on-chain record is shown: ask the sender for a new one.')).toBe(true)
    expect(shown(/withdrew/)).toBe(false)
    expect(shown("From the blockchain: the amount, recipient and due date. The recipient\'s name is not confirmed.")).toBe(true)
    expect(document.querySelector('.svc-chain-status > :not([hidden])')!.textContent).not.toContain('✓')
    // no record names the payee: the whole address, with the notice
    expect(screen.getByText(/^You pay/).textContent).toBe(`You pay 4,540.00 USDC to ${invoice.merchant} · network fee: none (sponsored)`)
    expect(shown(/^The recipient's name could not be confirmed/)).toBe(true)
    expect(screen.queryByRole('heading', { name: 'Choose a wallet to pay with' })).not.toBeNull()
  })

  test('behavior: while the record is checked, the summary names no one: the unchecked name only holds its place, hidden', () => {
    const unconfirmed = { ...invoice, confirmed: false }
    show({ name: 'checking', invoice: unconfirmed }, loaded(unconfirmed))
    const placeholder = screen.getByText('Northwind Studio Ltd', { selector: '.svc-summary strong' })
    expect(placeholder.getAttribute('aria-hidden')).toBe('true')
    expect(placeholder.className).toBe('svc-name-to-come')
    expect(shown(/could not be confirmed/)).toBe(false)
  })

  test("behavior: while the record is checked, the header paints neither the chain's bare number and address nor the record's unchecked words, which hold their places unseen; once checked, the record's words stand there", () => {
    const unconfirmed = { ...invoice, confirmed: false }
    show({ name: 'checking', invoice: unconfirmed }, loaded(unconfirmed))
    const header = document.querySelector('header.svc-header')!
    const title = screen.getByRole('heading', { level: 1 })
    expect(title.textContent).toBe('Invoice NW-0007')
    expect(title.querySelector('.svc-name-to-come')?.textContent).toBe('NW-0007')
    expect(header.querySelector('.svc-merchant .svc-name-to-come')?.textContent).toBe('Northwind Studio Ltd')
    expect(header.textContent).not.toContain(invoice.merchant)
    expect(header.textContent).not.toContain(`Invoice ${invoice.invoiceNumber}`)
    cleanup()
    show({ name: 'ready', invoice, note: null, rechecks: 0 }, loaded())
    expect(screen.getByRole('heading', { level: 1 }).querySelector('.svc-name-to-come')).toBeNull()
    expect(screen.queryByRole('heading', { level: 1, name: 'Invoice NW-0007' })).not.toBeNull()
    expect(document.querySelector('header.svc-header .svc-merchant')!.textContent).toBe('Northwind Studio Ltd')
  })

  test("behavior: a record the check refuses leaves the chain's own number and the payee's address in the header", () => {
    show({ name: 'ready', invoice, note: null, rechecks: 0 }, loaded(invoice, { ...metadata, invoiceNumber: 'NW-9999', merchant: { ...metadata.merchant, name: 'Someone Else Ltd' } }))
    expect(screen.queryByRole('heading', { level: 1, name: `Invoice ${invoice.invoiceNumber}` })).not.toBeNull()
    expect(document.querySelector('header.svc-header .svc-merchant')!.textContent).toBe(invoice.merchant)
    expect(document.querySelector('header.svc-header')!.textContent).not.toContain('Someone Else Ltd')
  })

  test('behavior: a past-due invoice says it is overdue and can still be paid', () => {
    show({ name: 'ready', invoice, note: null, rechecks: 0 }, loaded(), Date.parse('2026-12-01T00:00:00Z'))
    expect(shown('Overdue', { selector: '.svc-badge' })).toBe(true)
    expect(shown(/Payment was due on November 16, 2026\. You can still pay it now\./)).toBe(true)
    expect(screen.queryByRole('heading', { name: 'Choose a wallet to pay with' })).not.toBeNull()
  })

  test('behavior: a canceled invoice gets its own page with nothing to pay', () => {
    const canceled = { ...invoice, status: 'Canceled' as const }
    show({ name: 'canceled', invoice: canceled }, loaded(canceled))
    expect(screen.queryByRole('heading', { name: 'This invoice was canceled' })).not.toBeNull()
    expect(shown('The sender canceled it. There is nothing to pay.')).toBe(true)
    expect(screen.queryAllByRole('button')).toEqual([])
  })

  test('behavior: a paid invoice gets the paid page', () => {
    const paid = { ...invoice, status: 'Paid' as const, txHash: `0x${'cd'.repeat(32)}` as const }
    show({ name: 'paid', invoice: paid, receipt: null }, loaded(paid))
    expect(shown('Paid', { selector: '.svc-badge' })).toBe(true)
    expect(screen.queryByRole('heading', { name: 'This invoice is paid' })).not.toBeNull()
    // nothing to pay: the receipt to keep, and its addresses to copy
    expect(screen.queryAllByRole('button').filter((button) => !button.classList.contains('svc-copy')).map((button) => button.textContent)).toEqual(['Save receipt'])
  })

  test('behavior: the sender\'s own words (description, payment terms, notes) are shown apart from what was checked, said to be unchecked', () => {
    show({ name: 'ready', invoice, note: null, rechecks: 0 }, loaded())
    expect(shown('Checked: the amount, recipient and due date match the payment record.')).toBe(true)
    const words = screen.getByRole('heading', { name: 'The sender\'s own words (not checked)' }).closest('section')!
    expect(words.textContent).toBe('The sender\'s own words (not checked)Website redesign, phase 1Payment termsNet 14NotesThank you for your business. Phase 2 starts on receipt of payment.')
    expect(words.textContent).not.toContain('✓')
    // the checked facts hold none of them
    expect(document.querySelector('.svc-facts')!.textContent).not.toMatch(/Net 14|Thank you|Website redesign/)
    expect(screen.getByText('What was checked').closest('details')?.textContent).toContain('Invoice details (names and lines)')
  })

  test.each([
    ['\u0430\u0440\u0440\u04CF\u0435', '"\u0430\u0440\u0440\u04CF\u0435" uses letters that look like Latin ones but are not, so it may imitate another name. It is not confirmed.'],
    ['\uFF2Eorthwind Studio Ltd', '"\uFF2Eorthwind Studio Ltd" uses letters that look like Latin ones but are not, so it may imitate another name. It is not confirmed.'],
    ['North\u200Bwind Studio Ltd', '"North[U+200B]wind Studio Ltd" contains invisible or formatting characters, shown as [U+…], so it may imitate another name. It is not confirmed.'],
  ])('behavior: a committed merchant name that may pass for another (%s) is not confirmed: the reason is said, and nothing names the payee', (name, reason) => {
    const record = { ...metadata, merchant: { ...metadata.merchant, name } }
    const committed = { ...invoice, metaHash: hashMetadata(record) }
    show({ name: 'ready', invoice: committed, note: null, rechecks: 0 }, loaded(committed, record))
    expect(shown(reason)).toBe(true)
    expect(shown('Checked: the amount, recipient and due date match the payment record.')).toBe(false)
    // the chain's facts, said to be the chain's, and under no ✓ beside a name not confirmed
    expect(shown("From the blockchain: the amount, recipient and due date. The recipient\'s name is not confirmed.")).toBe(true)
    expect(document.querySelector('.svc-chain-status > :not([hidden])')!.textContent).not.toContain('✓')
    expect(document.querySelector('.svc-header')!.textContent).not.toContain('orthwind')
    expect(screen.getByText(/^You pay/).textContent).toBe(`You pay 4,540.00 USDC to ${invoice.merchant} · network fee: none (sponsored)`)
  })

  test('behavior: as the server renders it, before the chain is read, the record\'s hidden characters are already shown as code points', () => {
    const record = { ...metadata, notes: 'you pay \u202E10.00 USDC only\u2028' }
    const unconfirmed = { ...invoice, confirmed: false }
    const html = renderToString(
      <LocaleContext.Provider value={english}>
        <PayPage state={{ name: 'checking', invoice: unconfirmed }} actions={{ choose: vi.fn(), switchNetwork: vi.fn(), pay: vi.fn(), payFromWallet: vi.fn(), sendToVault: vi.fn(), moveBack: vi.fn(), renewPermit: vi.fn(), retry: vi.fn() }} wallets={[]} deployment={deployment} document={loaded(unconfirmed, record)} pdfUrl={null} onReloadDocument={vi.fn()} now={now} />
      </LocaleContext.Provider>,
    )
    expect(html).toContain('you pay [U+202E]10.00 USDC only[U+2028]')
    expect(html).not.toMatch(/[\u202E\u2028]/)
  })

  test('behavior: an unknown invoice gets the not-found page', () => {
    show({ name: 'notFound' }, { status: 'failed', notFound: true })
    expect(screen.queryByRole('heading', { level: 1, name: 'Invoice not found' })).not.toBeNull()
  })
})
