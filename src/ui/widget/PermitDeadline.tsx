import { formatCountdown, formatMoment } from '../format'
import { useLocale } from '../LocaleContext'
import { useNow } from '../useNow'

/** When the signed permit stops being usable, and a live countdown to it. */
export function PermitDeadline({ deadline }: { deadline: bigint }) {
  const { strings: t, tag } = useLocale()
  const now = useNow()
  const ms = Number(deadline) * 1000
  return (
    <>
      <time dateTime={new Date(ms).toISOString()}>{formatMoment(ms, tag)}</time>{' '}
      <span class="svc-countdown">({t.timeLeft(formatCountdown((ms - now) / 1000))})</span>
    </>
  )
}
