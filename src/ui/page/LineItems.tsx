import type { InvoiceMetadata } from '../../../shared/metadata'
import { formatCount, formatDecimal, formatMoney } from '../format'
import { useLocale } from '../LocaleContext'
import { documentTotals } from './documentTotals'

/** The lines and totals of the decrypted invoice. Narrow screens stack each line (see theme.css). */
export function LineItems({ metadata }: { metadata: InvoiceMetadata }) {
  const { strings: t, tag } = useLocale()
  const { symbol } = metadata.token
  const money = (decimal: string) => formatMoney(formatDecimal(decimal, tag), symbol, tag)
  const { subtotal, tax } = documentTotals(metadata)
  return (
    <table class="svc-lines">
      <thead>
        <tr>
          <th scope="col">{t.description}</th>
          <th scope="col" class="svc-num">{t.quantity}</th>
          <th scope="col" class="svc-num">{t.unitPrice}</th>
          <th scope="col" class="svc-num">{t.amount}</th>
        </tr>
      </thead>
      <tbody>
        {metadata.lineItems.map((item, index) => (
          <tr key={index}>
            <td>{item.description}</td>
            <td class="svc-num" data-label={t.quantity}>{formatCount(item.quantity, tag)}</td>
            <td class="svc-num" data-label={t.unitPrice}>{money(item.unitPrice)}</td>
            <td class="svc-num" data-label={t.amount}>{money(item.amount)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={3}>{t.subtotal}</th>
          <td class="svc-num">{money(subtotal)}</td>
        </tr>
        {tax === null ? null : (
          <tr>
            <th scope="row" colSpan={3}>{t.tax}</th>
            <td class="svc-num">{money(tax)}</td>
          </tr>
        )}
        <tr class="svc-total">
          <th scope="row" colSpan={3}>{t.total}</th>
          <td class="svc-num">{money(metadata.amount)}</td>
        </tr>
      </tfoot>
    </table>
  )
}
