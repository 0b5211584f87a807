import type { Payer } from '../../flow/paymentState'
import type { WireInvoice } from '../../../shared/wire'
import { formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'
import { Detail } from './Detail'
import { ShortHex } from './ShortHex'

/** Who pays: the wallet the payer connected, and the payment account (the vault) it controls, new or
 * not, with its balance. */
export function PayerSummary({ payer, token }: { payer: Payer; token: WireInvoice['token'] }) {
  const { strings: t, tag } = useLocale()
  return (
    <dl class="svc-details">
      <Detail label={t.walletAccount}>
        <ShortHex value={payer.owner} label={t.labelAddress} />
      </Detail>
      <Detail label={t.payingAccount}>
        <ShortHex value={payer.vault} label={t.labelAddress} />
        {payer.deployed ? null : <span class="svc-hint"> ({t.vaultNew})</span>}
        {/* the one place the payment account is explained: every later step names it, never again in other words */}
        <span class="svc-hint svc-account-explained">{t.paymentAccountExplained}</span>
      </Detail>
      <Detail label={t.balance}>{formatTokenAmount(payer.balance, token, tag)}</Detail>
    </dl>
  )
}
