import type { UnsafeProblem } from '../../verify/unsafeProblem'
import { useLocale } from '../LocaleContext'

/** Terminal by design: says what differed and offers nothing to sign. */
export function UnsafeView({ problems }: { problems: UnsafeProblem[] }) {
  const { strings: t } = useLocale()
  return (
    <div class="svc-danger" role="alert">
      <p>{t.unsafeBody}</p>
      <ul class="svc-problems">
        {problems.map((problem) => (
          <li key={problem.code}>{t.unsafe[problem.code]}</li>
        ))}
      </ul>
      <details>
        <summary>{t.unsafeDetails}</summary>
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
