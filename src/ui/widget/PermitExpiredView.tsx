import { useLocale } from '../LocaleContext'

export function PermitExpiredView({ onRenew }: { onRenew(): void }) {
  const { strings: t } = useLocale()
  return (
    <>
      <p>{t.permitExpiredBody}</p>
      <button type="button" class="svc-primary" onClick={onRenew}>
        {t.getNewPermit}
      </button>
    </>
  )
}
