import { useState } from 'preact/hooks'
import type { Api } from '../dashboardApi'
import type { DashboardStrings } from '../strings'
import { errorText, Field, Problem } from './Field'

/** First run: the business profile (SPEC 2.2) the merchant's invoices carry, sent whole with PUT. */
export function ProfileView({ api, t, onSaved }: { api: Api; t: DashboardStrings; onSaved: () => void }) {
  const [type, setType] = useState<'entity' | 'person'>('entity')
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  async function save(event: SubmitEvent) {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const text = (name: string) => String(form.get(name) ?? '').trim()
    setBusy(true)
    setProblem(null)
    try {
      await api.json('PUT', '/v1/studios/me/profile', {
        type,
        legalName: text('legalName'),
        email: text('email'),
        address: { street: text('street'), city: text('city'), postal: text('postal'), country: text('country') },
        ...(type === 'entity' ? { registrationNumber: text('registrationNumber') || null } : { taxId: text('taxId') || null }),
      })
      onSaved()
    } catch (error) {
      setProblem(errorText(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      <h1>{t.profileHeading}</h1>
      <p>{t.profileIntro}</p>
      <form onSubmit={save}>
        <label for="type">{t.type}</label>
        <select id="type" value={type} onChange={(event) => setType((event.currentTarget as HTMLSelectElement).value as 'entity' | 'person')}>
          <option value="entity">{t.entity}</option>
          <option value="person">{t.person}</option>
        </select>
        <Field id="legalName" label={t.legalName} required autoComplete="organization" />
        <Field id="email" label={t.email} type="email" required autoComplete="email" />
        <Field id="street" label={t.street} required autoComplete="street-address" />
        <Field id="city" label={t.city} required autoComplete="address-level2" />
        <Field id="postal" label={t.postal} required autoComplete="postal-code" />
        <Field id="country" label={t.country} required autoComplete="country" maxLength={2} />
        {type === 'entity' ? <Field id="registrationNumber" label={t.registrationNumber} /> : <Field id="taxId" label={t.taxId} />}
        <Problem message={problem} />
        <div class="actions">
          <button type="submit" disabled={busy}>{t.saveProfile}</button>
        </div>
      </form>
    </>
  )
}
