import { useEffect, useState } from 'preact/hooks'
// the pay page's QR code: drawn in the page, so no image service sees the link and its token
import { QrCode } from '../../src/ui/QrCode'
import { baseUnitsOf, saveFile, type Api } from '../dashboardApi'
import { localAmount, localDate, localMoney } from '../localFormat'
import type { DashboardStrings } from '../strings'
import { invoiceRecord, type CustomerWire } from '../wallet/invoiceRecord'
import { loadOwnerWallet } from '../wallet/loadOwnerWallet'
import type { PreparedOperation } from '../wallet/ownerWallet'
import { Field, Notice, Outcome } from './Field'
import { ListTable, RowAction } from './ListTable'
import { OwnerSignature, useStudio, type OwnerOperation } from './OwnerSignature'
import { Pager, usePages } from './Pager'
import { untilSettled } from './untilSettled'
import { useAction } from './useAction'

type InvoiceItem = { id: string; invoiceNumber: string; documentNumber: string | null; amount: string; status: string; dueAt: string; customerId: string | null; token: { symbol: string; decimals: number } }
type Issued = { status: 'Issued'; invoiceNumber: string; shareLink: string }
type Submitted = { status: string; shareLink?: string; invoiceId?: string }

/** The studio's invoices (SPEC 4.8) with what can be done to each, and a new one issued, canceled or
 * refunded by the owner's own wallet (4.10, 4.11): the dashboard holds a signed-in user's token, which
 * makes the server's key sign nothing. The share link is what the merchant sends to the customer. */
export function InvoicesView({ api, t }: { api: Api; t: DashboardStrings }) {
  const [customers, setCustomers] = useState<CustomerWire[]>([])
  const studio = useStudio(api)
  const [operation, setOperation] = useState<OwnerOperation | null>(null)
  const [refunding, setRefunding] = useState<InvoiceItem | null>(null)
  const [issued, setIssued] = useState<Issued | null>(null)
  // latest first, a page at a time by the list's cursor; a reload stays on the page shown
  const list = usePages(async (cursor) => {
    const answer = await api.json<{ data: { items: InvoiceItem[]; page: { cursor: string | null; hasNextPage: boolean } } }>(
      'GET',
      `/v1/invoices?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    )
    return { items: answer.data.items, next: answer.data.page.hasNextPage ? answer.data.page.cursor : null }
  })
  const invoices = list.items
  const load = () => list.show().catch(showProblem)
  const action = useAction(load)
  const { act, busy, setBusy, setProblem, setNotice, showProblem } = action
  useEffect(() => {
    void load()
    api
      .json<{ data: CustomerWire[] }>('GET', '/v1/customers?limit=100')
      .then((answer) => setCustomers(answer.data))
      .catch(showProblem)
  }, [])

  /** Starts an owner operation: the signing panel takes over until it is signed and sent, or not. */
  function ownerSigns(work: OwnerOperation) {
    setBusy(true)
    setProblem(null)
    setNotice(null)
    setOperation(work)
  }
  async function signed({ notice: said, problem: failed }: { notice?: string; problem?: string }) {
    setOperation(null)
    setBusy(false)
    setProblem(failed ?? null)
    setNotice(said ?? null)
    if (said) await load().catch(() => {})
  }

  function issue(event: SubmitEvent) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const typed = String(form.get('amount') ?? '')
    const amount = baseUnitsOf(typed)
    const customer = customers.find((candidate) => candidate.id === String(form.get('customerId') ?? ''))
    const dueDays = Number(form.get('dueDays'))
    const description = String(form.get('description') ?? '')
    setIssued(null)
    if (!amount) return setProblem(t.wallet.amountInvalid(typed))
    if (!customer) return setProblem(t.chooseCustomer)
    if (!studio?.profile) return setProblem(t.wallet.noStudio)
    // one key per press of the button: a retried request is not a second invoice
    const prepareKey = crypto.randomUUID()
    const submitKey = crypto.randomUUID()
    let invoiceNumber = ''
    ownerSigns({
      async prepare(owner) {
        const wallet = await loadOwnerWallet()
        const facts = await wallet.nextInvoiceFacts(studio.vaultAddress)
        invoiceNumber = facts.invoiceNumber
        const record = invoiceRecord({ owner, vault: studio.vaultAddress, profile: studio.profile!, customer, token: wallet.tokenOfDeployment, amount: BigInt(amount), dueDays, description, invoiceNumber, chainSeconds: facts.chainSeconds, now: new Date() })
        return api.json<PreparedOperation>('POST', '/v1/invoices/prepare', record, { 'Idempotency-Key': prepareKey })
      },
      async submit(userOp, prepared) {
        const pendingInvoiceId = (prepared as PreparedOperation & { encryption?: { pendingInvoiceId: string } }).encryption?.pendingInvoiceId
        const answer = await untilSettled(() => api.json<Submitted>('POST', '/v1/invoices', { userOp, pendingInvoiceId, customerId: customer.id }, { 'Idempotency-Key': submitKey }))
        if (answer.status !== 'confirmed' || !answer.shareLink) return t.pending
        setIssued({ status: 'Issued', invoiceNumber, shareLink: answer.shareLink })
        return ''
      },
    })
  }

  function cancel(invoice: InvoiceItem) {
    let sent: Record<string, unknown> | null = null
    ownerSigns({
      prepare: (owner) => api.json<PreparedOperation>('POST', `/v1/invoices/${invoice.id}/cancel/prepare`, { ownerAddress: owner }),
      async submit(userOp) {
        sent = userOp
        // the same signed operation again follows a 202
        const answer = await untilSettled(() => api.json<Submitted>('POST', `/v1/invoices/${invoice.id}/cancel`, { userOp: sent }))
        return answer.status === 'confirmed' ? t.canceled(label(invoice)) : t.pending
      },
    })
  }

  function refund(event: SubmitEvent, invoice: InvoiceItem) {
    event.preventDefault()
    const typed = String(new FormData(event.currentTarget as HTMLFormElement).get('refundAmount') ?? '')
    const amount = baseUnitsOf(typed, invoice.token.decimals)
    if (!amount) return setProblem(t.wallet.amountInvalid(typed))
    ownerSigns({
      prepare: (owner) => api.json<PreparedOperation>('POST', `/v1/invoices/${invoice.id}/refund/prepare`, { ownerAddress: owner, amount }),
      async submit(userOp) {
        const answer = await untilSettled(() => api.json<Submitted>('POST', `/v1/invoices/${invoice.id}/refund`, { userOp }))
        setRefunding(null)
        return answer.status === 'confirmed' ? t.wallet.refunded(localMoney(amount, t.lang, invoice.token), label(invoice)) : t.pending
      },
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
          <button type="submit" disabled={busy}>{t.issueInvoice}</button>
        </div>
      </form>
      <OwnerSignature t={t} studio={studio} operation={operation} onFinished={(outcome) => void signed(outcome)} />
      {issued?.status === 'Issued' ? <ShareLink t={t} number={issued.invoiceNumber} link={issued.shareLink} /> : null}
      <Outcome action={action} />
      <h2>{t.invoices}</h2>
      <div class="actions">
        <button type="button" class="secondary" onClick={() => void load()}>{t.refresh}</button>
      </div>
      <ListTable
        items={invoices}
        empty={t.noInvoices}
        label={t.invoices}
        columns={[t.number, t.amountColumn, t.status, t.due, t.actions]}
        t={t}
        row={(invoice) => (
          <tr key={invoice.id}>
            <td>{label(invoice)}</td>
            <td>
              <bdi>
                {localAmount(invoice.amount, t.lang, invoice.token.decimals)} {invoice.token.symbol}
              </bdi>
            </td>
            <td>{t.statuses[invoice.status] ?? invoice.status}</td>
            <td>{localDate(invoice.dueAt, t.lang)}</td>
            <td>
              <div class="actions">
                <RowAction busy={busy} onClick={() => act(async () => (saveFile(await api.file(`/v1/invoices/${invoice.id}/pdf`), `invoice-${label(invoice)}.pdf`), ''))}>
                  {t.pdf(label(invoice))}
                </RowAction>
                {invoice.status === 'Issued' ? (
                  <>
                    <RowAction busy={busy} onClick={() => act(async () => (await api.json('POST', `/v1/invoices/${invoice.id}/send-email`, {}), t.resent(label(invoice))))}>
                      {t.resend(label(invoice))}
                    </RowAction>
                    <RowAction busy={busy} onClick={() => cancel(invoice)}>
                      {t.cancel(label(invoice))}
                    </RowAction>
                  </>
                ) : null}
                {invoice.status === 'Paid' ? (
                  <RowAction busy={busy} onClick={() => setRefunding(invoice)}>
                    {t.wallet.refund(label(invoice))}
                  </RowAction>
                ) : null}
              </div>
            </td>
          </tr>
        )}
      />
      <Pager label={t.invoices} pager={list.pager} onProblem={showProblem} t={t} />
      {refunding ? (
        <form onSubmit={(event) => refund(event, refunding)} aria-labelledby="refund-heading">
          <h2 id="refund-heading">{t.wallet.refundHeading(label(refunding))}</h2>
          <p>{t.wallet.refundIntro}</p>
          <Field id="refundAmount" label={t.wallet.refundAmount(refunding.token.symbol)} required inputMode="decimal" autoComplete="off" />
          <div class="actions">
            <button type="submit" disabled={busy}>{t.wallet.refundSubmit}</button>
            <button type="button" class="secondary" disabled={busy} onClick={() => setRefunding(null)}>{t.wallet.dontSign}</button>
          </div>
        </form>
      ) : null}
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
