import type { InvoiceMetadata } from '../../shared/metadata'
import type { WireInvoice } from '../../shared/wire'
import { formatDay } from '../format'
import { useLocale } from '../LocaleContext'
import type { DocumentLoad } from './documentLoad'
import { LineItems } from './LineItems'
import { metadataMatches } from './metadataMatches'
import { PartyCard } from './PartyCard'

type InvoiceDocumentProps = { load: DocumentLoad; pdfUrl: string | null; onReload(): void }

/** The invoice itself: parties, lines, totals and notes from the decrypted metadata, marked as
 * verified only when they hash to the invoice's on-chain metaHash. */
export function InvoiceDocument({ load, pdfUrl, onReload }: InvoiceDocumentProps) {
  const { strings: t } = useLocale()
  if (load.status === 'loading') return null
  if (load.status === 'failed') {
    return (
      <section class="svc-document">
        <p class="svc-warning">{t.detailsFailed}</p>
        <button type="button" onClick={onReload}>
          {t.retry}
        </button>
      </section>
    )
  }
  const { invoice, metadata } = load.document
  if (!metadata) {
    return (
      <section class="svc-document">
        <p class="svc-note">{t.onchainOnly}</p>
      </section>
    )
  }
  return <FullDocument invoice={invoice} metadata={metadata} pdfUrl={pdfUrl} />
}

function FullDocument({ invoice, metadata, pdfUrl }: { invoice: WireInvoice; metadata: InvoiceMetadata; pdfUrl: string | null }) {
  const { strings: t, tag } = useLocale()
  const verified = metadataMatches(metadata, invoice)
  const day = (iso: string) => formatDay(new Date(iso), tag)
  return (
    <section class="svc-document" aria-label={t.invoiceTitle(metadata.invoiceNumber)}>
      <p class={verified ? 'svc-verified' : 'svc-warning'} role={verified ? undefined : 'alert'}>
        <span aria-hidden="true">{verified ? '✓ ' : '⚠ '}</span>
        {verified ? t.verified : t.notVerified}
      </p>
      {metadata.description ? <p class="svc-description">{metadata.description}</p> : null}
      <div class="svc-parties">
        <PartyCard title={t.from} party={metadata.merchant} />
        <PartyCard title={t.billedTo} party={metadata.payer} />
      </div>
      <dl class="svc-facts">
        <div>
          <dt>{t.issued}</dt>
          <dd>{day(metadata.issuedAt)}</dd>
        </div>
        <div>
          <dt>{t.due}</dt>
          <dd>{day(metadata.dueAt)}</dd>
        </div>
        {metadata.paymentTerms ? (
          <div>
            <dt>{t.paymentTerms}</dt>
            <dd>{metadata.paymentTerms}</dd>
          </div>
        ) : null}
        {metadata.purchaseOrder ? (
          <div>
            <dt>{t.purchaseOrder}</dt>
            <dd>{metadata.purchaseOrder}</dd>
          </div>
        ) : null}
      </dl>
      <LineItems metadata={metadata} />
      {metadata.notes ? (
        <div class="svc-notes">
          <h3>{t.notes}</h3>
          <p>{metadata.notes}</p>
        </div>
      ) : null}
      {pdfUrl ? (
        <p>
          <a class="svc-pdf" href={pdfUrl} download>
            {t.downloadPdf}
          </a>
        </p>
      ) : null}
    </section>
  )
}
