import type { Authorisation } from '../../flow/paymentState'
import { formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'
import { Detail } from './Detail'
import { PermitDeadline } from './PermitDeadline'
import { ProgressView } from './ProgressView'

/** What the wallet is about to ask for, in plain words, before it asks; `step` says which of several
 * signatures it is, when there are several. */
export function PermitView({ authorisation: a, merchantName, step = null }: { authorisation: Authorisation; merchantName: string | null; step?: string | null }) {
  const { strings: t, tag } = useLocale()
  const amount = formatTokenAmount(a.amount, a.token, tag)
  return (
    <>
      {step ? <p class="svc-step">{step}</p> : null}
      <p>{t.permitSummary(amount, merchantName ?? a.merchant)}</p>
      <dl class="svc-details">
        <Detail label={t.permitAmount}>{amount}</Detail>
        <Detail label={t.permitToken}>
          {a.token.symbol} <span class="svc-mono">{a.token.address}</span>
        </Detail>
        <Detail label={t.permitMerchant}>
          {merchantName ? `${merchantName} ` : ''}
          <span class="svc-mono">{a.merchant}</span>
        </Detail>
        <Detail label={t.permitSpender} mono>
          {a.spender}
        </Detail>
        <Detail label={t.permitDeadline}>
          <PermitDeadline deadline={a.deadline} />
        </Detail>
      </dl>
      <ProgressView>{t.connecting}</ProgressView>
    </>
  )
}
