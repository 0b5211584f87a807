import type { FlowNote as Note } from '../../flow/paymentState'
import { useLocale } from '../LocaleContext'

/** Why the payer is back at this step. */
export function FlowNote({ note }: { note: Note | null }) {
  const { strings: t } = useLocale()
  if (!note) return null
  const text = {
    connectRejected: t.noteConnectRejected,
    switchRejected: t.noteSwitchRejected,
    switchFailed: t.noteSwitchFailed,
    permitRejected: t.notePermitRejected,
    operationRejected: t.noteOperationRejected,
    transferRejected: t.noteTransferRejected,
  }[note]
  return <p class="svc-note">{text}</p>
}
