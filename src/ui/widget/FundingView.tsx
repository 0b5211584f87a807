import type { Authorisation } from '../../flow/paymentState'
import type { Address } from 'viem'
import { formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'
import { Detail } from './Detail'
import { PermitDeadline } from './PermitDeadline'
import { ProgressView } from './ProgressView'

/** Step 1 of paying from the wallet, in plain words before the wallet asks: the payer's own account
 * lets its vault take the missing amount, once. */
export function FundingView({ authorisation: a, account }: { authorisation: Authorisation; account: Address }) {
  const { strings: t, tag } = useLocale()
  const amount = formatTokenAmount(a.amount, a.token, tag)
  return (
    <>
      <p class="svc-step">{t.stepFunding(amount)}</p>
      <dl class="svc-details">
        <Detail label={t.permitAmount}>{amount}</Detail>
        <Detail label={t.permitToken}>
          {a.token.symbol} <span class="svc-mono">{a.token.address}</span>
        </Detail>
        <Detail label={t.fundingFrom} mono>
          {account}
        </Detail>
        <Detail label={t.fundingSpender} mono>
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
