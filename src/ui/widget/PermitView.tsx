import type { Authorisation } from '../../flow/paymentState'
import { formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'
import { Detail } from './Detail'
import { PermitDeadline } from './PermitDeadline'
import { ProgressView } from './ProgressView'

/** What the wallet is about to ask for, in plain words, before it asks. */
export function PermitView({ authorisation: a, merchantName }: { authorisation: Authorisation; merchantName: string | null }) {
  const { strings: t, tag } = useLocale()
  const amount = formatTokenAmount(a.amount, a.token, tag)
  return (
    <>
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
