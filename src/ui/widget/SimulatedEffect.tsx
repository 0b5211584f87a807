import type { SimulatedEffect as Effect } from '../../chain/simulatePayment'
import { formatTokenAmount, type Token } from '../format'
import { useLocale } from '../LocaleContext'

type SimulatedEffectProps = { effect: Effect; token: Token; /** From the verified metadata; null when no record named the payee. */ merchantName: string | null }

/** What the operation about to be signed moves, as the pinned RPC ran it just now (not as the service
 * says): "your account −248.00 USDC · Northwind Studio Ltd +245.52 USDC · fee 2.48 USDC". */
export function SimulatedEffect({ effect, token, merchantName }: SimulatedEffectProps) {
  const { strings: t, tag } = useLocale()
  const amount = (value: bigint) => formatTokenAmount(value, token, tag)
  return (
    <p class="svc-simulated">
      {t.simulatedEffect}{' '}
      <strong>{[t.simulatedYourAccount(amount(effect.paid)), t.simulatedReceives(merchantName ?? t.simulatedPayee, amount(effect.merchantReceives)), t.simulatedFee(amount(effect.fee))].join(' · ')}</strong>
    </p>
  )
}
