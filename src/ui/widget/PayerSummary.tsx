import type { Payer } from '../../flow/paymentState'
import type { WireInvoice } from '../../../shared/wire'
import { formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'
import { Detail } from './Detail'

/** Who pays: the wallet the payer connected, and the vault it controls (new or not) with its balance. */
export function PayerSummary({ payer, token }: { payer: Payer; token: WireInvoice['token'] }) {
  const { strings: t, tag } = useLocale()
  return (
    <dl class="svc-details">
      <Detail label={t.walletAccount} mono>
        {payer.owner}
      </Detail>
      <Detail label={t.vault} mono>
        {payer.vault}
        {payer.deployed ? null : <span class="svc-hint"> ({t.vaultNew})</span>}
      </Detail>
      <Detail label={t.balance}>{formatTokenAmount(payer.balance, token, tag)}</Detail>
    </dl>
  )
}
