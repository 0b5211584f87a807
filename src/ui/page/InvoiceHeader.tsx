import type { ShownInvoice } from '../../verify/confirmInvoice'
import { formatDay, formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'

export type InvoiceStanding = 'open' | 'overdue' | 'paid' | 'canceled' | 'unconfirmed'

/** Who bills what, how much, by when: the on-chain facts, which are what a payment settles. Until the
 * chain has been read they are the service's, and the header says so. */
/** `documentChecked`: the invoice's details (names, lines) hash to the chain's record and bill what it says. */
/** `documentPending`: the record's check has not answered yet (its chunk, or the chain, still on the way). */
/** `toCome`: the record's words while it is checked, each holding its place unseen (see PayPage). */
export function InvoiceHeader(p: {
  invoice: ShownInvoice
  invoiceNumber: string
  merchantName: string | null
  toCome?: { merchantName: string; invoiceNumber: string } | null
  standing: InvoiceStanding
  documentChecked: boolean
  documentPending?: boolean
}) {
  const { invoice, merchantName, toCome = null, standing, documentChecked, documentPending = false } = p
  // still checking until both the chain and the record's check have answered: the chain answering
  // first must not paint "the recipient's name is not confirmed" for the moment the check takes (a
  // wrong word, and the largest text painted late, where Lighthouse put the page's LCP)
  const checking = !invoice.confirmed || (documentPending && !documentChecked)
  const { strings: t, tag } = useLocale()
  const badges = { open: t.statusIssued, overdue: t.statusOverdue, paid: t.statusPaid, canceled: t.statusCanceled, unconfirmed: t.unconfirmed }
  return (
    <header class="svc-header">
      <p class="svc-merchant">{merchantName ?? (toCome ? <ToCome words={toCome.merchantName} /> : <span class="svc-mono">{invoice.merchant}</span>)}</p>
      <div class="svc-title-row">
        <h1>{toCome ? <InvoiceTitleToCome number={toCome.invoiceNumber} /> : t.invoiceTitle(p.invoiceNumber)}</h1>
        {/* as wide as the widest word it can say (theme.css): its word changing as the chain answers
            never moves the title beside it, nor rewraps the row on a phone */}
        <span class={`svc-badge svc-badge-${standing}`} data-room={Object.values(badges).join('\n')}>
          {badges[standing]}
        </span>
      </div>
      <p class="svc-amount">
        <span>{standing === 'paid' || standing === 'canceled' ? t.amount : t.amountDue}</span>
        <strong>{formatTokenAmount(BigInt(invoice.amount), invoice.token, tag)}</strong>
      </p>
      <p>
        {t.due} {formatDay(new Date(Number(invoice.dueAt) * 1000), tag)}
      </p>
      {/* One trust line, in the payer's words; what was checked against what is one click away. All
          its wordings share one cell, the others invisible: the check finishing moves nothing. */}
      <div class="svc-chain-status">
        <p class="svc-note" hidden={!checking}>
          {t.trustChecking}
        </p>
        <p class="svc-ok" hidden={!invoice.confirmed || !documentChecked}>
          <span aria-hidden="true">✓ </span>
          {t.trustChecked}
        </p>
        {/* no checked record names the payee: the chain's facts, said to be the chain's, under no ✓
            (it would stand beside "The recipient's name could not be confirmed") */}
        <p class="svc-note" hidden={checking || documentChecked}>
          {t.trustCheckedNoDocument}
        </p>
      </div>
      <details class="svc-trust-details">
        <summary>{t.trustDetails}</summary>
        <ul>
          <li>{invoice.confirmed ? t.trustDetailsChain : t.unconfirmedNote}</li>
          <li>{invoice.confirmed && documentChecked ? t.trustDetailsDocument : t.trustDetailsNoDocument}</li>
        </ul>
      </details>
    </header>
  )
}

/** Words that will be shown once checked, holding their place: laid out, never painted or read out. */
function ToCome({ words }: { words: string }) {
  return (
    <span class="svc-name-to-come" aria-hidden="true">
      {words}
    </span>
  )
}

/** The title's own words around a number still to come ("Invoice …", "الفاتورة …"), in the
 * language's order, the number holding its place unseen. */
function InvoiceTitleToCome({ number }: { number: string }) {
  const { strings: t } = useLocale()
  const marker = '\u0000'
  const [before = '', after = ''] = t.invoiceTitle(marker).split(marker)
  return (
    <>
      {before}
      <ToCome words={number} />
      {after}
    </>
  )
}
