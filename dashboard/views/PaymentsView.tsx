import { useEffect, useState } from 'preact/hooks'
import { displayAmount, saveFile, type Api } from '../dashboardApi'
import type { DashboardStrings } from '../strings'
import { errorText, Problem } from './Field'

type Payment = { id: string; invoiceNumber: string; documentNumber: string | null; payer: string; grossAmount: string; netAmount: string; paidAt: string }

const yearSeconds = 365 * 24 * 60 * 60

/** Received payments (SPEC 4.15), latest first, and the last year's export (4.16) as CSV. */
export function PaymentsView({ api, t }: { api: Api; t: DashboardStrings }) {
  const [payments, setPayments] = useState<Payment[] | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  useEffect(() => {
    api
      .json<{ data: { payments: Payment[] } }>('GET', '/v1/payments?limit=50')
      .then((answer) => setPayments(answer.data.payments))
      .catch((error: unknown) => setProblem(errorText(error)))
  }, [])
  async function exportCsv() {
    setProblem(null)
    const endDate = Math.floor(Date.now() / 1000)
    try {
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
                  <td>{new Date(Number(payment.paidAt) * 1000).toLocaleString(t.lang)}</td>
                  <td class="share">{payment.payer}</td>
                  <td>{displayAmount(payment.grossAmount)}</td>
                  <td>{displayAmount(payment.netAmount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  )
}
