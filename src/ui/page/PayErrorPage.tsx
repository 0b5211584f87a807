import { useLocale } from '../LocaleContext'

/** Why the server could not show an invoice at this address; `notFound` is the NotFoundPage's. */
export type PayErrorKind = 'badLink' | 'unavailable'

/** A page, never an API error, for a payer who followed a link that cannot show an invoice: what
 * happened in their words, and what to do next. Rendered by the server alone: it runs no script. */
export function PayErrorPage({ kind }: { kind: PayErrorKind }) {
  const { strings: t } = useLocale()
  const [title, body] = {
    badLink: [t.errorPageBadLinkTitle, t.errorPageBadLinkBody],
    unavailable: [t.errorPageUnavailableTitle, t.errorPageUnavailableBody],
  }[kind]
  return (
    <main class="svc-page svc-page-narrow">
      <section class="svc-banner">
        <h1>{title}</h1>
        <p>{body}</p>
        {kind === 'unavailable' ? (
          <p>
            <a href="">{t.errorPageRetry}</a>
          </p>
        ) : null}
      </section>
    </main>
  )
}
