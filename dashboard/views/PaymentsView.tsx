import { useEffect, useState } from 'preact/hooks'
import { saveFile, type Api } from '../dashboardApi'
import { localAmount, localMoment } from '../localFormat'
import type { DashboardStrings } from '../strings'
import { errorText, Problem } from './Field'
import { Pager, usePages } from './Pager'

type Payment = { id: string; invoiceNumber: string; documentNumber: string | null; payer: string; grossAmount: string; netAmount: string; paidAt: string }

const yearSeconds = 365 * 24 * 60 * 60
const paymentPageSize = 25

/** Received payments (SPEC 4.15), latest first a page at a time, and the last year's export (4.16) as CSV. */
export function PaymentsView({ api, t }: { api: Api; t: DashboardStrings }) {
  const [problem, setProblem] = useState<string | null>(null)
  const list = usePages(async (cursor) => {
    const answer = await api.json<{ data: { payments: Payment[]; page: { cursor: string | null; hasNextPage: boolean } } }>(
      'GET',
      `/v1/payments?limit=${paymentPageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    )
    return { items: answer.data.payments, next: answer.data.page.hasNextPage ? answer.data.page.cursor : null }
  })
  const payments = list.items
  const showProblem = (error: unknown) => setProblem(errorText(error))
  useEffect(() => void list.show().catch(showProblem), [])
  async function exportCsv() {
    setProblem(null)
    try {
      // the year up to the newest payment the chain recorded, or now if that is later: block times
      // are the chain's clock, which may run ahead of the browser's (a devnet whose time was moved,
      // a sequencer's drift), and a payment made a moment ago must not fall after the range
      const newest = await api.json<{ data: { payments: Payment[] } }>('GET', '/v1/payments?limit=1')
      const newestPaid = newest.data.payments[0] ? Number(newest.data.payments[0].paidAt) : 0
      const endDate = Math.max(Math.floor(Date.now() / 1000), newestPaid) + 60
      saveFile(await api.file(`/v1/payments/export?format=csv&startDate=${endDate - yearSeconds}&endDate=${endDate}`), 'payments.csv')
    } catch (error) {
      setProblem(errorText(error))
    }
  }
  return (
    <>
      <h1>{t.payments}</h1>
      <div class="actions">
        <button type="button" onClick={() => void exportCsv()}>{t.exportCsv}</button>
      </div>
      <Problem message={problem} />
      {payments === null ? (
        <p>{t.loading}</p>
      ) : payments.length === 0 ? (
        <p>{t.noPayments}</p>
      ) : (
        <div class="table" role="region" aria-label={t.table(t.payments)} tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t.number}</th>
                <th scope="col">{t.paidAt}</th>
                <th scope="col">{t.payer}</th>
                <th scope="col">{t.gross}</th>
                <th scope="col">{t.net}</th>
              </tr>
            </thead>
            <tbody>
              {payments.map((payment) => (
                <tr key={payment.id}>
                  <td>{payment.documentNumber ?? payment.invoiceNumber}</td>
                  <td>{localMoment(payment.paidAt, t.lang)}</td>
                  <td class="share">{payment.payer}</td>
                  <td>
                    <bdi>{localAmount(payment.grossAmount, t.lang)}</bdi>
                  </td>
                  <td>
                    <bdi>{localAmount(payment.netAmount, t.lang)}</bdi>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager label={t.payments} pager={list.pager} onProblem={showProblem} t={t} />
    </>
  )
}
