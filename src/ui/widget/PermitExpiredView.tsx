import { useLocale } from '../LocaleContext'
import { afterPayStrings } from '../strings.afterPay'

/** Nothing was paid, as the chain shows: the permit lapsed, the operation ran without paying, or the
 * service said it sent the operation and the chain never showed it before its window closed. */
export function PermitExpiredView({ reason, onRenew }: { reason: 'expired' | 'failed' | 'notSent'; onRenew(): void }) {
  const { strings: t } = useLocale()
  const a = afterPayStrings(t)
  return (
    <>
      <p>{reason === 'notSent' ? a.notSentBody : reason === 'failed' ? a.failedOnChainBody : a.permitExpiredBody}</p>
      <button type="button" class="svc-primary" onClick={onRenew}>
        {reason === 'notSent' ? t.retry : a.getNewPermit}
      </button>
    </>
  )
}
