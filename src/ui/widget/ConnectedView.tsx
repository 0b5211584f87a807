import { useState } from 'preact/hooks'
import type { FlowNote as Note, Payer } from '../../flow/paymentState'
import type { WireInvoice } from '../../../shared/wire'
import { formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'
import { FlowNote } from './FlowNote'
import { PayerSummary } from './PayerSummary'

type ConnectedProps = {
  invoice: WireInvoice
  payer: Payer
  note: Note | null
  /** No verified record names the payee: paying asks a second time, with the address in view. */
  unnamed: boolean
  onPay(): void
}

export function ConnectedView({ invoice, payer, note, unnamed, onPay }: ConnectedProps) {
  const { strings: t, tag } = useLocale()
  const [asked, setAsked] = useState(false)
  const amount = formatTokenAmount(BigInt(invoice.amount), invoice.token, tag)
  return (
    <>
      <FlowNote note={note} />
      {asked ? (
        <p class="svc-warning" role="alert">
          {t.payUnnamedConfirm}
        </p>
      ) : null}
      <button type="button" class="svc-primary" onClick={unnamed && !asked ? () => setAsked(true) : onPay}>
        {asked ? t.payUnnamed(amount) : t.pay(amount)}
      </button>
      {/* who pays after the action, not before it: here the balance is known to cover the invoice (a
          shortfall is its own state), so the details confirm rather than decide, and on a phone Pay
          stays within the first screen */}
      <PayerSummary payer={payer} token={invoice.token} />
    </>
  )
}
