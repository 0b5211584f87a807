import type { SimulatedEffect as Effect } from '../../chain/simulatePayment'
import { feeShares } from '../feeShares'
import { formatTokenAmount, type Token } from '../format'
import { useLocale } from '../LocaleContext'
import { afterPayStrings } from '../strings.afterPay'

type SimulatedEffectProps = { effect: Effect; token: Token; /** From the verified metadata; null when no record named the payee. */ merchantName: string | null }

/** What the operation about to be signed moves, as the pinned RPC ran it just now (not as the service
 * says), in one sentence that says who pays which fee: "you pay exactly 248.00 USDC, with no network
 * fee (it is sponsored); Northwind Studio Ltd receives 245.52 USDC, as its service fee of 2.48 USDC
 * comes out of its share, not out of what you pay". A bare "fee 2.48 USDC" beside "network fee: none"
 * read as a contradiction, and as a charge on the payer. */
export function SimulatedEffect({ effect, token, merchantName }: SimulatedEffectProps) {
  const { strings: t, tag } = useLocale()
  const a = afterPayStrings(t)
  const amount = (value: bigint) => formatTokenAmount(value, token, tag)
  const shown = feeShares(effect, token.decimals)
  return (
    <p class="svc-simulated">
      {a.simulatedEffect} <strong>{a.simulatedShares(amount(effect.paid), merchantName ?? a.simulatedPayee, amount(shown.merchantReceives), amount(shown.fee))}</strong>
    </p>
  )
}
