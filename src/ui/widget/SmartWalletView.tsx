import type { SmartWalletState } from '../../flow/smartWallet/smartWalletState'
import { formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'
import { Detail } from './Detail'
import { ProgressView } from './ProgressView'

/** Paying from a smart wallet in one prompt: what the one request does before it is sent, the wallet's
 * prompt while it is open, and the wait for the chain once the wallet has taken it. */
export function SmartWalletView({ state, onPay }: { state: SmartWalletState; onPay(): void }) {
  const { strings: t, tag } = useLocale()
  const { invoice, payer } = state
  const amount = formatTokenAmount(BigInt(invoice.amount), invoice.token, tag)
  if (state.name === 'sendingCalls') return <ProgressView>{t.sendingCallsBody(amount)}</ProgressView>
  if (state.name === 'followingCalls') return <ProgressView>{t.pendingAccepted}</ProgressView>
  const note = state.note && { callsRejected: t.noteOperationRejected, callsFailed: t.noteCallsFailed, callsNotOnChain: t.noteCallsNotOnChain, callsUnknown: t.noteCallsUnknown }[state.note]
  return (
    <>
      {note ? <p class={state.note === 'callsRejected' ? 'svc-note' : 'svc-warning'}>{note}</p> : null}
      <dl class="svc-details">
        <Detail label={t.walletAccount} mono>
          {payer.owner}
        </Detail>
        <Detail label={t.balance}>{formatTokenAmount(payer.balance, invoice.token, tag)}</Detail>
      </dl>
      <p>{t.smartWalletBody(amount)}</p>
      <button type="button" class="svc-primary" onClick={onPay}>
        {t.pay(amount)}
      </button>
    </>
  )
}
