import { useEffect, useState } from 'preact/hooks'
import type { Api } from '../dashboardApi'
import type { DashboardStrings } from '../strings'
import { errorText, Field, Notice, Problem } from './Field'
import { Pager, usePages } from './Pager'

const customerPageSize = 20

export type Customer = { id: string; type: 'entity' | 'person'; legalName: string; email: string; address: { city: string; country: string } }

/** The studio's customers (SPEC 4.13): the list a page at a time, and a new one. */
export function CustomersView({ api, t }: { api: Api; t: DashboardStrings }) {
  const [type, setType] = useState<'entity' | 'person'>('entity')
  const [problem, setProblem] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // the cursor is the offset of the next page (SPEC 4.13)
  const list = usePages(async (cursor) => {
    const answer = await api.json<{ data: Customer[]; meta: { offset: number; hasMore: boolean } }>('GET', `/v1/customers?limit=${customerPageSize}${cursor ? `&cursor=${cursor}` : ''}`)
    return { items: answer.data, next: answer.meta.hasMore ? String(answer.meta.offset + answer.data.length) : null }
  })
  const customers = list.items
  const showProblem = (error: unknown) => setProblem(errorText(error))
  const load = () => list.show().catch(showProblem)
  useEffect(() => void load(), [])
  async function create(event: SubmitEvent) {
    event.preventDefault()
    const formElement = event.currentTarget as HTMLFormElement
    const form = new FormData(formElement)
    const text = (name: string) => String(form.get(name) ?? '').trim()
    setBusy(true)
    setProblem(null)
    setNotice(null)
    try {
      const { data } = await api.json<{ data: Customer }>('POST', '/v1/customers', {
        type,
        legalName: text('legalName'),
        email: text('email'),
        address: { street: text('street'), city: text('city'), postal: text('postal'), country: text('country') },
        ...(type === 'entity' ? { registrationNumber: text('registrationNumber') } : text('taxId') ? { taxId: text('taxId') } : {}),
      })
      formElement.reset()
      setNotice(t.customerCreated(data.legalName))
      // the new customer is listed last (oldest first): open the last page, the offsets before it kept for Previous
      const { meta } = await api.json<{ meta: { total: number } }>('GET', '/v1/customers?limit=1')
      const offsets = Array.from({ length: Math.max(1, Math.ceil(meta.total / customerPageSize)) }, (_, page) => (page === 0 ? undefined : String(page * customerPageSize)))
      await list.openAt(offsets)
    } catch (error) {
      setProblem(errorText(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      <h1>{t.customers}</h1>
      {customers === null ? (
        <p>{t.loading}</p>
      ) : customers.length === 0 ? (
        <p>{t.noCustomers}</p>
      ) : (
        <div class="table" role="region" aria-label={t.table(t.customers)} tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t.name}</th>
                <th scope="col">{t.email}</th>
                <th scope="col">{t.city}</th>
              </tr>
            </thead>
            <tbody>
              {customers.map((customer) => (
                <tr key={customer.id}>
                  <td>{customer.legalName}</td>
                  <td>{customer.email}</td>
                  <td>
                    {customer.address.city}, {customer.address.country}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager label={t.customers} pager={list.pager} onProblem={showProblem} t={t} />
      <h2>{t.newCustomer}</h2>
      <form onSubmit={create}>
        <label for="customer-type">{t.type}</label>
        <select id="customer-type" value={type} onChange={(event) => setType((event.currentTarget as HTMLSelectElement).value as 'entity' | 'person')}>
          <option value="entity">{t.entity}</option>
          <option value="person">{t.person}</option>
        </select>
        <Field id="legalName" label={t.legalName} required />
        <Field id="email" label={t.email} type="email" required />
        <Field id="street" label={t.street} required />
        <Field id="city" label={t.city} required />
        <Field id="postal" label={t.postal} required />
        <Field id="country" label={t.country} required maxLength={2} />
        {type === 'entity' ? <Field id="registrationNumber" label={t.registrationNumber} /> : <Field id="taxId" label={t.taxId} />}
        <Problem message={problem} />
        <Notice message={notice} />
        <div class="actions">
          <button type="submit" disabled={busy}>{t.createCustomer}</button>
        </div>
      </form>
    </>
  )
}
