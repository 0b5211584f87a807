import type { ComponentChildren } from 'preact'
import type { WireInvoice } from '../../../shared/wire'
import { formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'

type PaymentSummaryProps = {
  invoice: Pick<WireInvoice, 'amount' | 'token' | 'merchant'>
  /** From the verified metadata; null: no record names the payee, so its address is shown whole. */
  merchantName: string | null
  /** The record is still being checked: the name may yet come, so no warning about it now. */
  namePending: boolean
  /** The name the record gives, not yet checked: it holds its place, invisible, so that the checked
   * name taking it moves nothing. Never shown or read out. */
  nameToCome?: string | null
}

/** The one line a payer reads first: what they pay, to whom, and what it costs on top (nothing: the
 * network fee is sponsored). Without a confirmed name the whole address stands in for it, with a
 * notice that no name could be confirmed. */
export function PaymentSummary({ invoice, merchantName, namePending, nameToCome = null }: PaymentSummaryProps) {
  const { strings: t, tag } = useLocale()
  const filled: Record<string, ComponentChildren> = {
    '{amount}': <strong class="svc-summary-amount">{formatTokenAmount(BigInt(invoice.amount), invoice.token, tag)}</strong>,
    // while the record is checked, the address in short (the name, about as long, replaces it); with
    // no name to come, the whole address
    '{payee}': merchantName ? (
      <strong>{merchantName}</strong>
    ) : namePending && nameToCome ? (
      <strong class="svc-name-to-come" aria-hidden="true">
        {nameToCome}
      </strong>
    ) : namePending ? (
      <strong class="svc-hex-short">{`${invoice.merchant.slice(0, 6)}…${invoice.merchant.slice(-4)}`}</strong>
    ) : (
      <strong class="svc-address">{invoice.merchant}</strong>
    ),
  }
  return (
    <div class="svc-summary">
      <p class="svc-summary-line">
        {t.summaryLine.split(/(\{amount\}|\{payee\})/).map((part) => filled[part] ?? part)}
        <span class="svc-summary-fee"> · {t.networkFeeNone}</span>
      </p>
      {merchantName || namePending ? null : <p class="svc-warning svc-payee-unnamed">{t.payeeNameUnconfirmed}</p>}
    </div>
  )
}
