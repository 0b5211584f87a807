import type { HandedOverPermit } from '../../flow/paymentState'
import type { WireInvoice } from '../../../shared/wire'
import type { UnsafeProblem } from '../../verify/unsafeProblem'
import { formatMoment, formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'
import { afterPayStrings } from '../strings.afterPay'

type UnsafeProps = { problems: UnsafeProblem[]; handedOver: HandedOverPermit | null; token: WireInvoice['token'] }

/** Terminal by design: says what differed, what the payer had already signed and what that allows,
 * and offers nothing to sign. */
export function UnsafeView({ problems, handedOver, token }: UnsafeProps) {
  const { strings: t, tag } = useLocale()
  const a = afterPayStrings(t)
  return (
    <div class="svc-danger" role="alert">
      <p>{a.unsafeBody}</p>
      <ul class="svc-problems">
        {problems.map((problem) => (
          <li key={problem.code}>
            {a.unsafe[problem.code]}
            {problem.fields ? ` ${a.differsIn(problem.fields.join(', '))}` : null}
          </li>
        ))}
      </ul>
      <p class="svc-handed-over">
        {handedOver
          ? a.unsafeHandedOver(formatTokenAmount(handedOver.amount, token, tag), formatMoment(Number(handedOver.deadline) * 1000, tag))
          : a.unsafeNothingSigned}
        {handedOver?.funding
          ? ` ${a.unsafeHandedOverFunding(formatTokenAmount(handedOver.funding.amount, token, tag), formatMoment(Number(handedOver.funding.deadline) * 1000, tag))}`
          : null}
      </p>
      <details>
        <summary>{a.unsafeDetails}</summary>
        <ul class="svc-mono">
          {problems.map((problem) => (
            <li key={problem.code}>
              {problem.code}: {problem.message}
            </li>
          ))}
        </ul>
      </details>
    </div>
  )
}
