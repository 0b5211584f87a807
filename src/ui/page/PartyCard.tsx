import type { InvoiceMetadata } from '../../../shared/metadata'
import { useLocale } from '../LocaleContext'

type Party = InvoiceMetadata['merchant']

export function PartyCard({ title, party }: { title: string; party: Party }) {
  const { strings: t } = useLocale()
  const { address } = party
  return (
    <div class="svc-party">
      <h3>{title}</h3>
      <p>
        <strong>{party.name}</strong>
        {address ? (
          <>
            <br />
            {address.street}
            <br />
            {address.postal} {address.city}, {address.country}
          </>
        ) : null}
        {party.email ? (
          <>
            <br />
            {party.email}
          </>
        ) : null}
        {party.vatNumber ? (
          <>
            <br />
            {t.vatNumber} {party.vatNumber}
          </>
        ) : null}
        {party.registrationNumber ? (
          <>
            <br />
            {t.registrationNumber} {party.registrationNumber}
          </>
        ) : null}
      </p>
    </div>
  )
}
