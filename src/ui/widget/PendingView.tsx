import type { Hex } from 'viem'
import type { SubmissionAnswer } from '../../flow/paymentState'
import type { SponsorshipWindow } from '../../../shared/verifyingPaymaster'
import { formatCountdown, formatMoment } from '../format'
import { useLocale } from '../LocaleContext'
import { afterPayStrings } from '../strings.afterPay'
import { useNow } from '../useNow'
import { Detail } from './Detail'
import { ProgressView } from './ProgressView'
import { ShortHex } from './ShortHex'

type PendingProps = {
  userOpHash: Hex
  nextCheckAt: number
  submission: SubmissionAnswer
  window: SponsorshipWindow
  onSendAgain(): void
  onSignNew(): void
}

/** Signed and handed over, not yet settled on-chain: the flow keeps reading the chain, and the payer
 * sees what the service said meanwhile, as its word (never "on its way": only the chain can say so),
 * with what they can do about it. */
export function PendingView({ userOpHash, nextCheckAt, submission, window, onSendAgain, onSignNew }: PendingProps) {
  const { strings: t, tag } = useLocale()
  const a = afterPayStrings(t)
  const now = useNow()
  const body =
    submission.kind === 'refused'
      ? a.pendingRefused(submission.code, formatMoment(window.validUntil * 1000, tag))
      : submission.kind === 'unknown'
        ? submission.unreadable
          ? a.pendingUnreadable
          : a.pendingUnknown
        : a.pendingServiceSays
  return (
    <>
      <p class={submission.kind === 'refused' ? 'svc-warning' : undefined}>{body}</p>
      <details class="svc-technical">
        <summary>{a.unsafeDetails}</summary>
        <dl class="svc-details">
          <Detail label={t.userOpHash}>
            <ShortHex value={userOpHash} label={a.labelOperation} />
          </Detail>
        </dl>
      </details>
      <ProgressView>{a.nextCheck(formatCountdown((nextCheckAt - now) / 1000))}</ProgressView>
      {submission.kind === 'refused' ? (
        <button type="button" class="svc-primary" onClick={onSignNew}>
          {a.signNewPayment}
        </button>
      ) : submission.kind === 'unknown' ? (
        <button type="button" onClick={onSendAgain}>
          {a.sendAgain}
        </button>
      ) : null}
    </>
  )
}
