import type { ComponentChildren } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import type { DashboardStrings } from '../strings'

/**
 * A secret the API answers this once (an API key's, a webhook endpoint's): shown with Copy and the
 * plain warning that it is not shown again. Focus moves to it, so a keyboard or screen-reader user
 * lands on what they must copy before anything else.
 */
export function SecretOnce({ heading, secret, t, onDone, children }: { heading: string; secret: string; t: DashboardStrings; onDone: () => void; children?: ComponentChildren }) {
  const [copied, setCopied] = useState(false)
  const region = useRef<HTMLElement>(null)
  useEffect(() => region.current?.focus(), [secret])
  return (
    <section class="secret" aria-labelledby="secret-heading" tabIndex={-1} ref={region}>
      <h2 id="secret-heading">{heading}</h2>
      <p>
        <strong>{t.settings.secretOnce}</strong>
      </p>
      {children}
      <p class="share">
        <code data-secret>{secret}</code>
      </p>
      <div class="actions">
        <button type="button" onClick={() => void navigator.clipboard.writeText(secret).then(() => setCopied(true))}>
          {t.settings.copySecret}
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          {t.settings.secretKept}
        </button>
      </div>
      <p class="note" role="status">{copied ? t.settings.secretCopied : ''}</p>
    </section>
  )
}
