import { useContext } from 'preact/hooks'
import type { PaymentState } from '../../flow/paymentState'
import type { ShownInvoice } from '../../verify/confirmInvoice'
import { formatDay } from '../format'
import { useLocale } from '../LocaleContext'
import { PaymentWidget, type PaymentWidgetProps } from '../widget/PaymentWidget'
import type { DocumentLoad } from './documentLoad'
import { InvoiceDocument } from './InvoiceDocument'
import { InvoiceHeader, type InvoiceStanding } from './InvoiceHeader'
import { PageLinkContext } from './PageLinkContext'
import type { PageLayout } from './pageParams'
import { readableMetadata } from './readableMetadata'
import { useMetadataVerdict } from './useMetadataVerdict'

export type PayPageProps = Omit<PaymentWidgetProps, 'merchantName' | 'invoiceNumber'> & {
  document: DocumentLoad
  pdfUrl: string | null
  onReloadDocument(): void
  /** ms since the epoch: decides whether the invoice is overdue. */
  now: number
  /** `compact` for a storefront that shows its own order: one column, the invoice document behind a
   * disclosure. The header (payee, amount, the chain's confirmation) and the payment stay in view. */
  layout?: PageLayout
  /** In a storefront's frame or shadow root: on a narrow screen the payment comes after the document
   * (theme.css), so that its growing states push nothing down inside the storefront's page. */
  embedded?: boolean
}

/** The share link's page. Unknown, canceled and paid invoices each get their own page; an open one,
 * overdue or not, gets the invoice and the payment widget. Every figure in the header is the flow's
 * invoice: the chain's once read, the service's marked unconfirmed until then. */
export function PayPage(p: PayPageProps) {
  const { strings: t, tag } = useLocale()
  const { state, document } = p
  const invoice = invoiceOf(state)
  const received = document.status === 'loaded' ? document.document.metadata : null
  const metadata = received ? readableMetadata(received) : null
  const verdict = useMetadataVerdict(metadata, invoice, p.deployment)?.kind ?? null
  const link = useContext(PageLinkContext)
  // a token came with the link (there is a PDF to ask for) but the service opened no record with it
  const deadLink = document.status === 'loaded' && !received && p.pdfUrl
  // only from the flow, which says it once the chain has no such invoice either (a service's 404 is not enough)
  if (state.name === 'notFound') {
    return <NotFoundPage />
  }
  if (!invoice) {
    // nothing to show but the flow's own progress or error (with its retry)
    return (
      <main class="svc-page svc-page-narrow">
        <PaymentWidget {...p} merchantName={null} invoiceNumber={null} />
      </main>
    )
  }
  const verified = verdict === 'verified' ? metadata : null
  // the name may still come while the chain or the record is being read: no finding about it yet
  const namePending = document.status === 'loading' || verdict === 'unconfirmed'
  const merchantName = verified?.merchant.name ?? null
  // While the record is checked, the words it gives (the payee's name, the merchant's invoice number)
  // hold their places unseen, and the chain's bare figures for them are not painted either: the check
  // then shows the words where they stood, and no word painted first is taken back. A record the
  // check refuses leaves the chain's address and number, said to be the chain's.
  const toCome = namePending ? metadata : null
  const invoiceNumber = verified?.invoiceNumber ?? invoice.invoiceNumber
  const standing = standingOf(state, invoice, p.now)
  const compact = p.layout === 'compact'
  const invoiceDocument = <InvoiceDocument load={document} invoice={invoice} deployment={p.deployment} pdfUrl={p.pdfUrl} onReload={p.onReloadDocument} />
  return (
    <main class={compact ? `svc-page svc-page-narrow svc-page-compact svc-page-${standing}` : `svc-page${p.embedded ? ' svc-page-embedded' : ''} svc-page-${standing}`}>
      <InvoiceHeader
        invoice={invoice}
        invoiceNumber={invoiceNumber}
        merchantName={merchantName}
        toCome={toCome && { merchantName: toCome.merchant.name, invoiceNumber: toCome.invoiceNumber }}
        standing={standing}
        documentChecked={verified !== null}
        documentPending={namePending}
      />
      {/* which of revoked, expired, mistyped or another invoice's is not known here, so none is named;
          what to do, and that what the page shows is the on-chain record alone, which stays payable */}
      {deadLink ? (
        <div class="svc-banner svc-note">
          <h2>{t.deadLinkTitle}</h2>
          <p>{t.deadLinkBody}</p>
        </div>
      ) : null}
      {standing === 'overdue' ? (
        <p class="svc-banner svc-warning">
          <strong>{t.overdueTitle}.</strong> {t.overdueBody(formatDay(new Date(Number(invoice.dueAt) * 1000), tag))}
        </p>
      ) : null}
      {/* compact: the document is above the payment, behind its disclosure, so that nothing sits under
          the widget for its next state to push down (a frame's layout shift); opening it is the payer's act */}
      {compact ? (
        <details class="svc-disclosure">
          <summary>{t.showInvoiceDocument}</summary>
          {invoiceDocument}
        </details>
      ) : null}
      {standing === 'canceled' ? (
        <div class="svc-banner svc-note">
          <h2>{t.canceledTitle}</h2>
          <p>{t.canceledBody}</p>
        </div>
      ) : (
        <div class="svc-pay-column">
          {/* a link whose token opens nothing is not carried to a phone (a QR code, a wallet app's
              browser): it would open the same dead end there */}
          <PageLinkContext.Provider value={deadLink ? null : link}>
            <PaymentWidget
              {...p}
              merchantName={merchantName}
              merchantNamePending={namePending}
              merchantNameToCome={toCome?.merchant.name ?? null}
              invoiceNumber={verified ? invoiceNumber : null}
            />
          </PageLinkContext.Provider>
        </div>
      )}
      {compact ? null : invoiceDocument}
    </main>
  )
}

export function NotFoundPage() {
  const { strings: t } = useLocale()
  return (
    <main class="svc-page svc-page-narrow">
      <section class="svc-banner">
        <h1>{t.notFoundTitle}</h1>
        <p>{t.notFoundBody}</p>
      </section>
    </main>
  )
}

function invoiceOf(state: PaymentState): ShownInvoice | null {
  if ('invoice' in state) return state.invoice
  return state.name === 'error' ? invoiceOf(state.resume) : null
}

/** Paid and canceled only as the chain says: the service's word for it is not shown as a status. */
function standingOf(state: PaymentState, invoice: ShownInvoice, now: number): InvoiceStanding {
  if (state.name === 'paid') return 'paid'
  if (state.name === 'canceled') return 'canceled'
  if (!invoice.confirmed) return 'unconfirmed'
  return Number(invoice.dueAt) * 1000 < now ? 'overdue' : 'open'
}
