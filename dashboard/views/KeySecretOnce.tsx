import type { DashboardStrings } from '../strings'
import { SecretOnce } from './SecretOnce'

/** A new API key (a studio's or an agent's) as the API answers it this once. */
export type ShownKey = { heading: string; keyId: string; secret: string; activationRequired: boolean }

/** A key's secret shown once, with the id it is used with and, while the server's signer waits for
 * the owner's activation, the warning that the key cannot write yet. */
export function KeySecretOnce({ shown, t, onDone }: { shown: ShownKey; t: DashboardStrings; onDone: () => void }) {
  return (
    <SecretOnce heading={shown.heading} secret={shown.secret} t={t} onDone={onDone}>
      <p>
        {t.settings.keyId}: <code data-key-id>{shown.keyId}</code>
      </p>
      {shown.activationRequired ? <p class="alert">{t.settings.activationRequired}</p> : null}
    </SecretOnce>
  )
}
