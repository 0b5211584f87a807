import { useLocale } from '../LocaleContext'
import { Detail } from './Detail'
import { PermitDeadline } from './PermitDeadline'
import { ProgressView } from './ProgressView'

/** `validUntil` is the operation's real window (its sponsorship's), not a figure the service states. */
export function SigningOperationView({ validUntil }: { validUntil: number }) {
  const { strings: t } = useLocale()
  return (
    <>
      <p class="svc-ok">{t.signingBody}</p>
      <dl class="svc-details">
        <Detail label={t.operationValidUntil}>
          <PermitDeadline deadline={BigInt(validUntil)} />
        </Detail>
      </dl>
      <ProgressView>{t.connecting}</ProgressView>
    </>
  )
}
