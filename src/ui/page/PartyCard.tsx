import type { InvoiceMetadata } from '../../../shared/metadata'
import { useLocale } from '../LocaleContext'

type Party = InvoiceMetadata['merchant']

/** A party as the record names it. Each line of the address, and each number, is isolated (`<bdi>`,
 * its own direction from its first letter): in right-to-left text "12 Harbour Row" would otherwise
 * read "Harbour Row 12", and a Latin name, street or number takes its neighbours' order. */
export function PartyCard({ title, party }: { title: string; party: Party }) {
  const { strings: t } = useLocale()
  const { address } = party
  // each line: what labels it, and the record's value
  const lines: [string, string | undefined][] = [
    ['', address?.street],
    ['', address && `${address.postal} ${address.city}, ${address.country}`],
    ['', party.email],
    [`${t.vatNumber} `, party.vatNumber],
    [`${t.registrationNumber} `, party.registrationNumber],
  ]
  return (
    <div class="svc-party">
      <h3>{title}</h3>
      <p>
        <strong>
          <bdi>{party.name}</bdi>
        </strong>
        {lines.map(([label, value]) =>
          value ? (
            <>
              <br />
              {label}
              <bdi>{value}</bdi>
            </>
          ) : null,
        )}
      </p>
    </div>
  )
}
