import type { Address } from 'viem'
import type { Authorisation } from '../../flow/paymentState'
import { formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'
import { AuthorisationView } from './AuthorisationView'
import { ShortHex } from './ShortHex'

/** Step 1 of paying from the wallet, in plain words before the wallet asks: the payer's own account
 * lets its vault take the missing amount, once. */
export function FundingView({ authorisation: a, account }: { authorisation: Authorisation; account: Address }) {
  const { strings: t, tag } = useLocale()
  return (
    <AuthorisationView
      authorisation={a}
      step={t.stepFunding(formatTokenAmount(a.amount, a.token, tag))}
      summary={null}
      party={{ label: t.fundingFrom, children: <ShortHex value={account} label={t.labelAddress} /> }}
      spenderLabel={t.fundingSpender}
    />
  )
}
