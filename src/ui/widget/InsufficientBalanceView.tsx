import type { Payer } from '../../flow/paymentState'
import type { WireInvoice } from '../../shared/wire'
import { formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'
import { PayerSummary } from './PayerSummary'

export function InsufficientBalanceView(p: { invoice: WireInvoice; payer: Payer; missing: bigint; onCheckAgain(): void }) {
  const { strings: t, tag } = useLocale()
  const amount = (raw: bigint) => formatTokenAmount(raw, p.invoice.token, tag)
  return (
    <>
      <p class="svc-warning">{t.insufficientBody(amount(p.missing), amount(p.payer.balance))}</p>
      <PayerSummary payer={p.payer} token={p.invoice.token} />
      <p>{t.insufficientHint}</p>
      <button type="button" class="svc-primary" onClick={p.onCheckAgain}>
        {t.checkAgain}
      </button>
    </>
  )
}
