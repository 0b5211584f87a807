import { useLocale } from '../LocaleContext'
import { afterPayStrings } from '../strings.afterPay'

/** Nothing was paid, as the chain shows: the permit lapsed, the operation ran without paying, or the
 * service said it sent the operation and the chain never showed it before its window closed. */
export function PermitExpiredView({ reason, onRenew }: { reason: 'expired' | 'failed' | 'notSent'; onRenew(): void }) {
  const { strings: t } = useLocale()
  return (
    <>
      <p>{reason === 'notSent' ? afterPayStrings(t).notSentBody : reason === 'failed' ? t.failedOnChainBody : t.permitExpiredBody}</p>
      <button type="button" class="svc-primary" onClick={onRenew}>
        {reason === 'notSent' ? t.retry : t.getNewPermit}
      </button>
    </>
  )
}
