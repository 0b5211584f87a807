import { useLocale } from '../LocaleContext'
import { Detail } from './Detail'
import { PermitDeadline } from './PermitDeadline'
import { ProgressView } from './ProgressView'

type SigningOperationProps = {
  /** The operation's real window (its sponsorship's), not a figure the service states. */
  validUntil: number
  /** When paying from the wallet: what the operation moves from the wallet into the vault, formatted. */
  funded?: string | null
}

export function SigningOperationView({ validUntil, funded = null }: SigningOperationProps) {
  const { strings: t } = useLocale()
  return (
    <>
      {funded ? <p class="svc-step">{t.stepConfirm}</p> : null}
      <p class="svc-ok">{funded ? t.signingBodyFunded(funded) : t.signingBody}</p>
      <dl class="svc-details">
        <Detail label={t.operationValidUntil}>
          <PermitDeadline deadline={BigInt(validUntil)} />
        </Detail>
      </dl>
      <ProgressView>{t.connecting}</ProgressView>
    </>
  )
}
