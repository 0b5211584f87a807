import type { FlowNote as Note, Payer } from '../../flow/paymentState'
import type { WireInvoice } from '../../../shared/wire'
import { formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'
import { FlowNote } from './FlowNote'
import { PayerSummary } from './PayerSummary'

export function ConnectedView({ invoice, payer, note, onPay }: { invoice: WireInvoice; payer: Payer; note: Note | null; onPay(): void }) {
  const { strings: t, tag } = useLocale()
  return (
    <>
      <FlowNote note={note} />
      <PayerSummary payer={payer} token={invoice.token} />
      <button type="button" class="svc-primary" onClick={onPay}>
        {t.pay(formatTokenAmount(BigInt(invoice.amount), invoice.token, tag))}
      </button>
    </>
  )
}
