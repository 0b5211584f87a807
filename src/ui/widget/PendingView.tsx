import type { Hex } from 'viem'
import { formatCountdown } from '../format'
import { useLocale } from '../LocaleContext'
import { useNow } from '../useNow'
import { Detail } from './Detail'
import { ProgressView } from './ProgressView'

/** Submitted, not yet Paid: the flow keeps reading the invoice; the payer sees it doing so. */
export function PendingView({ userOpHash, nextCheckAt }: { userOpHash: Hex; nextCheckAt: number }) {
  const { strings: t } = useLocale()
  const now = useNow()
  return (
    <>
      <p>{t.pendingBody}</p>
      <dl class="svc-details">
        <Detail label={t.userOpHash} mono>
          {userOpHash}
        </Detail>
      </dl>
      <ProgressView>{t.nextCheck(formatCountdown((nextCheckAt - now) / 1000))}</ProgressView>
    </>
  )
}
