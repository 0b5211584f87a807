import { useEffect, useState } from 'preact/hooks'
// the pay page's QR code: drawn in the page, so no image service sees the link and its token
import { QrCode } from '../../src/ui/QrCode'
import { baseUnitsOf, displayAmount, saveFile, type Api } from '../dashboardApi'
import type { DashboardStrings } from '../strings'
import type { Customer } from './CustomersView'
import { errorText, Field, Notice, Problem } from './Field'

type InvoiceItem = { id: string; invoiceNumber: string; documentNumber: string | null; amount: string; status: string; dueAt: string; customerId: string | null; token: { symbol: string; decimals: number } }
type Issued = { status: 'Issued'; invoiceNumber: string; shareLink: string } | { status: 'pending'; message: string }

const dateOf = (seconds: string, lang: string) => new Date(Number(seconds) * 1000).toLocaleDateString(lang)

/** The studio's invoices (SPEC 4.8) with what can be done to each, and a new one issued by the
 * server's signer (4.9): the share link is what the merchant sends to the customer. */
export function InvoicesView({ api, t }: { api: Api; t: DashboardStrings }) {
  const [invoices, setInvoices] = useState<InvoiceItem[] | null>(null)
  const [customers, setCustomers] = useState<Customer[]>([])
  const [problem, setProblem] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [issued, setIssued] = useState<Issued | null>(null)
  const [busy, setBusy] = useState(false)
  const load = () =>
    api
      .json<{ data: { items: InvoiceItem[] } }>('GET', '/v1/invoices?limit=50')
      .then((answer) => setInvoices(answer.data.items))
      .catch((error: unknown) => setProblem(errorText(error)))
  useEffect(() => {
    void load()
    api
      .json<{ data: Customer[] }>('GET', '/v1/customers?limit=100')
      .then((answer) => setCustomers(answer.data))
      .catch((error: unknown) => setProblem(errorText(error)))
  }, [])

  async function act(work: () => Promise<string>) {
    setBusy(true)
    setProblem(null)
    setNotice(null)
    try {
      setNotice(await work())
      await load()
    } catch (error) {
      setProblem(errorText(error))
    } finally {
      setBusy(false)
    }
  }

  function issue(event: SubmitEvent) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const amount = baseUnitsOf(String(form.get('amount') ?? ''))
    const description = String(form.get('description') ?? '').trim()
    setIssued(null)
    void act(async () => {
      const answer = await api.json<Issued>(
        'POST',
        '/v1/invoices/issue',
        {
          customerId: String(form.get('customerId') ?? '') || undefined,
          // a malformed amount goes as typed: the API's message says what an amount is
          amount: amount ?? String(form.get('amount') ?? ''),
          dueDays: Number(form.get('dueDays')),
          ...(description ? { description } : {}),
        },
        // one key per press of the button: a retried request is not a second invoice
        { 'Idempotency-Key': crypto.randomUUID() },
      )
      setIssued(answer)
      return answer.status === 'Issued' ? '' : t.pending
    })
  }

  const label = (invoice: InvoiceItem) => invoice.documentNumber ?? invoice.invoiceNumber
  return (
    <>
      <h1>{t.invoices}</h1>
      <h2>{t.newInvoice}</h2>
      <form onSubmit={issue}>
        <label for="customerId">{t.customer}</label>
        <select id="customerId" name="customerId" required>
          <option value="">{t.chooseCustomer}</option>
          {customers.map((customer) => (
            <option key={customer.id} value={customer.id}>
              {customer.legalName} ({customer.email})
            </option>
          ))}
        </select>
        <Field id="amount" label={t.amount} required inputMode="decimal" autoComplete="off" />
        <Field id="dueDays" label={t.dueDays} required type="number" min={0} max={3650} defaultValue="30" />
        <Field id="description" label={t.description} autoComplete="off" />
        <div class="actions">
          <button type="submit" disabled={busy}>{busy ? t.issuing : t.issueInvoice}</button>
        </div>
      </form>
      {issued?.status === 'Issued' ? <ShareLink t={t} number={issued.invoiceNumber} link={issued.shareLink} /> : null}
      <Problem message={problem} />
      <Notice message={notice} />
      <h2>{t.invoices}</h2>
      <div class="actions">
        <button type="button" class="secondary" onClick={() => void load()}>{t.refresh}</button>
      </div>
      {invoices === null ? (
        <p>{t.loading}</p>
      ) : invoices.length === 0 ? (
        <p>{t.noInvoices}</p>
      ) : (
        <div class="table" role="region" aria-label={t.table(t.invoices)} tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t.number}</th>
                <th scope="col">{t.amountColumn}</th>
                <th scope="col">{t.status}</th>
                <th scope="col">{t.due}</th>
                <th scope="col">{t.actions}</th>
              </tr>
            </thead>
            <tbody>
              {invoices.map((invoice) => (
                <tr key={invoice.id}>
                  <td>{label(invoice)}</td>
                  <td>
                    {displayAmount(invoice.amount, invoice.token.decimals)} {invoice.token.symbol}
                  </td>
                  <td>{t.statuses[invoice.status] ?? invoice.status}</td>
                  <td>{dateOf(invoice.dueAt, t.lang)}</td>
                  <td>
                    <div class="actions">
                      <button type="button" class="secondary" disabled={busy} onClick={() => void act(async () => (saveFile(await api.file(`/v1/invoices/${invoice.id}/pdf`), `invoice-${label(invoice)}.pdf`), ''))}>
                        {t.pdf(label(invoice))}
                      </button>
                      {invoice.status === 'Issued' ? (
                        <>
                          <button type="button" class="secondary" disabled={busy} onClick={() => void act(async () => (await api.json('POST', `/v1/invoices/${invoice.id}/send-email`, {}), t.resent(label(invoice))))}>
                            {t.resend(label(invoice))}
                          </button>
                          <button type="button" class="secondary" disabled={busy} onClick={() => void act(async () => (await api.json('POST', `/v1/invoices/${invoice.id}/cancel/submit`, {}), t.canceled(label(invoice))))}>
                            {t.cancel(label(invoice))}
                          </button>
                        </>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  )
}

function ShareLink({ t, number, link }: { t: DashboardStrings; number: string; link: string }) {
  const [copied, setCopied] = useState(false)
  return (
    <section aria-labelledby="share-heading">
      <h2 id="share-heading">{t.issued(number)}</h2>
      <p class="share">
        <a href={link} target="_blank" rel="noopener noreferrer" aria-label={t.shareLink}>
          {link}
        </a>
      </p>
      <div class="qr">
        <QrCode value={link} label={t.qrLabel(number)} />
      </div>
      <div class="actions">
        <button type="button" onClick={() => void navigator.clipboard.writeText(link).then(() => setCopied(true))}>
          {t.copy}
        </button>
      </div>
      <Notice message={copied ? t.copied : null} />
    </section>
  )
}
