import type { Address } from 'viem'
import type { Authorisation } from '../../flow/paymentState'
import { formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'
import { afterPayStrings } from '../strings.afterPay'
import { AuthorisationView } from './AuthorisationView'
import { ShortHex } from './ShortHex'

/** Step 1 of paying from the wallet, in plain words before the wallet asks: the payer's own account
 * lets its vault take the missing amount, once. */
export function FundingView({ authorisation: a, account }: { authorisation: Authorisation; account: Address }) {
  const { strings: t, tag } = useLocale()
  const w = afterPayStrings(t)
  return (
    <AuthorisationView
      authorisation={a}
      step={w.stepFunding(formatTokenAmount(a.amount, a.token, tag))}
      summary={null}
      party={{ label: w.fundingFrom, children: <ShortHex value={account} label={t.labelAddress} /> }}
      spenderLabel={w.fundingSpender}
    />
  )
}
