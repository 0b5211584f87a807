import type { PinnedDeployment } from '../../../shared/pinnedDeployment'
import type { InvoiceMetadata } from '../../../shared/metadata'
import type { ShownInvoice } from '../../verify/confirmInvoice'
import { formatDay } from '../format'
import { useLocale } from '../LocaleContext'
import type { DocumentLoad } from './documentLoad'
import { LineItems } from './LineItems'
import type { NameNotConfirmed } from './metadataVerdict'
import { PartyCard } from './PartyCard'
import { readableMetadata } from './readableMetadata'
import { useMetadataVerdict } from './useMetadataVerdict'

type InvoiceDocumentProps = { load: DocumentLoad; invoice: ShownInvoice; deployment: PinnedDeployment; pdfUrl: string | null; onReload(): void }

/** The invoice itself: parties, lines, totals and notes from the decrypted metadata, marked as
 * verified only when they hash to the metaHash read from the chain and bill what the chain says. */
export function InvoiceDocument({ load, invoice, deployment, pdfUrl, onReload }: InvoiceDocumentProps) {
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
  const { metadata } = load.document
  if (!metadata) {
    // a link with a token the service does not open says so above the payment (PayPage): nothing here
    return pdfUrl ? null : (
      <section class="svc-document">
        <p class="svc-note">{t.onchainOnly}</p>
      </section>
    )
  }
  return <FullDocument invoice={invoice} deployment={deployment} metadata={readableMetadata(metadata)} pdfUrl={pdfUrl} />
}

type FullDocumentProps = { invoice: ShownInvoice; deployment: PinnedDeployment; metadata: InvoiceMetadata; pdfUrl: string | null }

function FullDocument({ invoice, deployment, metadata, pdfUrl }: FullDocumentProps) {
  const { strings: t, tag } = useLocale()
  const verdict = useMetadataVerdict(metadata, invoice, deployment)!
  const day = (iso: string) => formatDay(new Date(iso), tag)
  const notConfirmed = ({ name, finding }: NameNotConfirmed) => ({ hidden: t.nameHidden, lookalike: t.nameLookalike, mixed: t.mixedScript })[finding](name)
  // what the merchant wrote in words: the chain binds the record, but not the truth of what it says
  const words = [[t.paymentTerms, metadata.paymentTerms], [t.notes, metadata.notes]].filter(([, text]) => text)
  if (verdict.kind === 'withdrawn') return <p class="svc-document svc-warning" role="alert">{t.documentWithdrawn}</p>
  return (
    <section class="svc-document" aria-label={t.invoiceTitle(metadata.invoiceNumber)}>
      {/* verified or still being checked, the header's one trust line says so; a mismatch is named here,
          over the details it concerns */}
      {verdict.kind !== 'differs' || verdict.fields.length === 0 ? null : (
        <p class="svc-warning" role="alert">
          <span aria-hidden="true">⚠ </span>
          {t.notVerifiedFields(verdict.fields.join(', '))}
        </p>
      )}
      {verdict.kind === 'differs' ? verdict.names.map((name) => <p class="svc-warning svc-name-warning">{notConfirmed(name)}</p>) : null}
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
        {metadata.purchaseOrder ? (
          <div>
            <dt>{t.purchaseOrder}</dt>
            <dd>
              <bdi>{metadata.purchaseOrder}</bdi>
            </dd>
          </div>
        ) : null}
      </dl>
      <LineItems metadata={metadata} />
      {/* apart from what was checked, under no ✓, and said to be the sender's: "pay to another
          account", "verified by your bank" would otherwise read as checked facts */}
      {metadata.description || words.length > 0 ? (
        <section class="svc-notes">
          <h3>{t.merchantWords}</h3>
          {metadata.description ? <p>{metadata.description}</p> : null}
          {words.length > 0 ? (
            <dl class="svc-details">
              {words.map(([label, text]) => (
                <div class="svc-detail">
                  <dt>{label}</dt>
                  <dd>{text}</dd>
                </div>
              ))}
            </dl>
          ) : null}
        </section>
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
