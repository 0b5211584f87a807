import type { FlowNote as Note } from '../../flow/paymentState'
import { useLocale } from '../LocaleContext'
import { FlowNote } from './FlowNote'

export function WrongNetworkView(p: { chainId: number; wantedChainId: number; chainName: string | undefined; note: Note | null; onSwitch(): void }) {
  const { strings: t } = useLocale()
  const wanted = p.chainName ?? t.chainLabel(p.wantedChainId)
  return (
    <>
      <p>{t.wrongNetworkBody(t.chainLabel(p.chainId), wanted)}</p>
      <FlowNote note={p.note} />
      <button type="button" class="svc-primary" onClick={p.onSwitch}>
        {t.switchNetwork(wanted)}
      </button>
    </>
  )
}
