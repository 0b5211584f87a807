import { useLocale } from '../LocaleContext'

/** Nothing was paid, as the chain shows: the permit lapsed, or the operation ran without paying. */
export function PermitExpiredView({ reason, onRenew }: { reason: 'expired' | 'failed'; onRenew(): void }) {
  const { strings: t } = useLocale()
  return (
    <>
      <p>{reason === 'failed' ? t.failedOnChainBody : t.permitExpiredBody}</p>
      <button type="button" class="svc-primary" onClick={onRenew}>
        {t.getNewPermit}
      </button>
    </>
  )
}
