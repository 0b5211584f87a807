import type { SmartPayer, SmartWalletState, StrandedVault } from '../../flow/smartWallet/smartWalletState'
import type { ShownInvoice } from '../../verify/confirmInvoice'
import { formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'
import { afterPayStrings } from '../strings.afterPay'
import { Detail } from './Detail'
import { FundAddress } from './InsufficientBalanceView'
import { ProgressView } from './ProgressView'
import { ShortHex } from './ShortHex'

type SmartWalletProps = { state: SmartWalletState; deployment: Parameters<typeof FundAddress>[0]['deployment']; onPay(): void; onCheckAgain(): void; onMoveBack(): void }

/** Paying from a smart wallet in one prompt: what the one request does before it is sent, the wallet's
 * prompt while it is open, and the wait for the chain once the wallet has taken it. A smart account
 * short of the amount is told to top up itself (its own address, never a vault), and what a vault
 * derived from it holds is shown with the way to take it back. */
export function SmartWalletView({ state, deployment, onPay, onCheckAgain, onMoveBack }: SmartWalletProps) {
  const { strings: t, tag } = useLocale()
  const a = afterPayStrings(t)
  const { invoice, payer } = state
  const money = (raw: bigint) => formatTokenAmount(raw, invoice.token, tag)
  const amount = money(BigInt(invoice.amount))
  if (state.name === 'sendingCalls') return <ProgressView>{a.sendingCallsBody(amount)}</ProgressView>
  if (state.name === 'followingCalls') return <ProgressView>{a.pendingAccepted}</ProgressView>
  if (state.name === 'movingBack') return <ProgressView>{a.movingBack(money(state.stranded.balance))}</ProgressView>
  if (state.name === 'followingMoveBack') return <ProgressView>{a.followingMoveBack}</ProgressView>
  const notes = {
    callsRejected: t.noteOperationRejected,
    callsFailed: a.noteCallsFailed,
    callsNotOnChain: a.noteCallsNotOnChain,
    callsUnknown: a.noteCallsUnknown,
    transferRejected: t.noteTransferRejected,
    moveNotOnChain: a.noteMoveNotOnChain,
  }
  const note = state.note && notes[state.note]
  const missing = BigInt(invoice.amount) - payer.balance
  const short = !payer.cannotPay && missing > 0n
  return (
    <>
      {note ? <p class={state.note === 'callsRejected' || state.note === 'transferRejected' ? 'svc-note' : 'svc-warning'}>{note}</p> : null}
      <dl class="svc-details">
        <Detail label={t.walletAccount} mono>
          {payer.owner}
        </Detail>
        <Detail label={t.balance}>{money(payer.balance)}</Detail>
      </dl>
      {payer.cannotPay ? (
        <p class="svc-warning">{a.smartCannotPay}</p>
      ) : short ? (
        <>
          <p class="svc-warning">{a.smartShort(money(missing), money(payer.balance))}</p>
          <FundAddress address={payer.owner} label={a.smartFundAddress} deployment={deployment} />
        </>
      ) : (
        <>
          <p>{a.smartWalletBody(amount)}</p>
          <button type="button" class="svc-primary" onClick={onPay}>
            {t.pay(amount)}
          </button>
        </>
      )}
      {payer.stranded ? <Stranded invoice={invoice} payer={payer} stranded={payer.stranded} primary={short || !!payer.cannotPay} onMoveBack={onMoveBack} /> : null}
      {short ? (
        <button type="button" class={payer.stranded && payer.movesBack ? 'svc-secondary' : 'svc-primary'} onClick={onCheckAgain}>
          {t.checkAgain}
        </button>
      ) : null}
    </>
  )
}

/** What the vault derived from the account holds, which the account can never pay from: taken back in
 * one request where its wallet can send it from here, otherwise what to do, in plain words. */
function Stranded({ invoice, payer, stranded, primary, onMoveBack }: { invoice: ShownInvoice; payer: SmartPayer; stranded: StrandedVault; primary: boolean; onMoveBack(): void }) {
  const { strings: t, tag } = useLocale()
  const a = afterPayStrings(t)
  const held = formatTokenAmount(stranded.balance, invoice.token, tag)
  return (
    <div class="svc-stranded">
      <p>{a.strandedBody(held)}</p>
      <ShortHex value={stranded.vault} label={t.labelAddress} />
      {payer.movesBack ? (
        <button type="button" class={primary ? 'svc-primary' : 'svc-secondary'} onClick={onMoveBack}>
          {a.moveBack(held)}
        </button>
      ) : (
        <p>{a.strandedHow(invoice.token.symbol)}</p>
      )}
    </div>
  )
}
