import type { PaymentStateName } from '../../flow/paymentState'
import { useLocale } from '../LocaleContext'

/** Which of the three steps a state belongs to: checking what is paid (and finding the funds for it),
 * signing in the wallet, the network confirming. Null: no payment under way. */
export function paymentStep(name: PaymentStateName): 0 | 1 | 2 | 3 | null {
  switch (name) {
    // from the payer's pick of a wallet on: the list appears with their click, not after the wallet answers
    case 'connecting':
    case 'connected':
    case 'insufficientBalance':
    case 'sendingToVault':
    case 'permitExpired':
      return 0
    case 'requestingPermit':
    case 'signingFunding':
    case 'signingPermit':
    case 'preparing':
    case 'verifying':
    case 'signingOperation':
      return 1
    case 'submitting':
    case 'pending':
      return 2
    case 'paid':
      return 3
    default:
      return null
  }
}

/** The steps of a payment, the current one marked, the ones before it done. */
export function PaymentSteps({ current }: { current: 0 | 1 | 2 | 3 }) {
  const { strings: t } = useLocale()
  const steps = [t.stepReview, t.stepSign, t.stepNetwork]
  return (
    <ol class="svc-steps" aria-label={t.stepsLabel}>
      {steps.map((step, i) => (
        <li key={step} class={i < current ? 'svc-step-done' : i === current ? 'svc-step-current' : undefined} aria-current={i === current ? 'step' : undefined}>
          <span class="svc-step-number" aria-hidden="true">
            {i < current ? '✓' : i + 1}
          </span>
          <span>
            {step}
            {i < current ? <span class="svc-visually-hidden"> {t.stepDone}</span> : null}
          </span>
        </li>
      ))}
    </ol>
  )
}
