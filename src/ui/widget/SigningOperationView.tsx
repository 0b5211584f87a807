import { useLocale } from '../LocaleContext'
import { Detail } from './Detail'
import { PermitDeadline } from './PermitDeadline'
import { ProgressView } from './ProgressView'

export function SigningOperationView({ deadline }: { deadline: bigint }) {
  const { strings: t } = useLocale()
  return (
    <>
      <p class="svc-ok">{t.signingBody}</p>
      <dl class="svc-details">
        <Detail label={t.permitDeadline}>
          <PermitDeadline deadline={deadline} />
        </Detail>
      </dl>
      <ProgressView>{t.connecting}</ProgressView>
    </>
  )
}
