import type { Authorisation } from '../../flow/paymentState'
import { useLocale } from '../LocaleContext'
import { afterPayStrings } from '../strings.afterPay'
import { AuthorisationView } from './AuthorisationView'
import { PaymentStepRoom } from './PaymentStepRoom'
import { ShortHex } from './ShortHex'

/** The vault's permit to the invoice registry; `step` says which of several signatures it is, when
 * there are several. */
export function PermitView({
  authorisation: a,
  merchantName,
  invoiceLabel = null,
  step = null,
}: {
  authorisation: Authorisation
  merchantName: string | null
  /** The checked record's label for the invoice, which the payment step shows beside its number. */
  invoiceLabel?: string | null
  step?: string | null
}) {
  const { strings: t } = useLocale()
  const w = afterPayStrings(t)
  const merchant = (
    <>
      {merchantName ? `${merchantName} ` : ''}
      <ShortHex value={a.merchant} label={t.labelAddress} />
    </>
  )
  return (
    <PaymentStepRoom authorisation={a} merchantName={merchantName} invoiceLabel={invoiceLabel} funded={step !== null}>
      <AuthorisationView
        authorisation={a}
        step={step}
        summary={(amount) => w.permitSummary(amount, merchantName ?? a.merchant)}
        party={{ label: w.permitMerchant, children: merchant }}
        spenderLabel={w.permitSpender}
      />
    </PaymentStepRoom>
  )
}
