import { useEffect, useRef } from 'preact/hooks'
import type { PinnedDeployment } from '../../../shared/pinnedDeployment'
import type { PaymentState } from '../../flow/paymentState'
import type { WalletChoice } from '../../wallet/walletChoice'
import { formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'
import { stateHeadline } from '../stateHeadline'
import { ConnectedView } from './ConnectedView'
import { ErrorView } from './ErrorView'
import { FundingView } from './FundingView'
import { InsufficientBalanceView } from './InsufficientBalanceView'
import { PendingView } from './PendingView'
import { PermitExpiredView } from './PermitExpiredView'
import { PermitView } from './PermitView'
import { ProgressView } from './ProgressView'
import { ReadyView } from './ReadyView'
import { ReceiptView } from './ReceiptView'
import { SigningOperationView } from './SigningOperationView'
import { SmartWalletView } from './SmartWalletView'
import { UnsafeView } from './UnsafeView'
import { WrongNetworkView } from './WrongNetworkView'

/** What the payer can do; `choose` picks a wallet and connects it. */
export type WidgetActions = {
  choose(choice: WalletChoice): void
  switchNetwork(): void
  pay(): void
  payFromWallet(): void
  sendToVault(): void
  renewPermit(): void
  retry(): void
}

export type PaymentWidgetProps = {
  state: PaymentState
  actions: WidgetActions
  wallets: WalletChoice[]
  deployment: PinnedDeployment
  /** From the verified metadata, to name the payee in words; null shows the merchant's address alone. */
  merchantName: string | null
  /** The merchant's own numbering (from the verified metadata); null shows the on-chain number. */
  invoiceNumber: string | null
}

/** The payment as the payer sees it: a thin view of the flow's state. A new state is announced to
 * assistive technology, and focus follows the payer into it when the control they used is gone. */
export function PaymentWidget(p: PaymentWidgetProps) {
  const { strings: t } = useLocale()
  const section = useRef<HTMLElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const headline = stateHeadline(p.state, t)
  const shown = useRef(p.state.name)
  useEffect(() => {
    if (shown.current === p.state.name) return
    shown.current = p.state.name
    const active = document.activeElement
    if (!active || active === document.body || !active.isConnected || section.current?.contains(active)) heading.current?.focus()
  }, [p.state.name])
  return (
    <section class="svc-widget" ref={section} aria-labelledby="svc-widget-heading">
      <h2 id="svc-widget-heading" class="svc-widget-heading" tabIndex={-1} ref={heading}>
        {headline}
      </h2>
      <p class="svc-visually-hidden" role="status" aria-live="polite">
        {headline}
      </p>
      <StateView {...p} />
    </section>
  )
}

function StateView({ state, actions, wallets, deployment, merchantName, invoiceNumber }: PaymentWidgetProps) {
  const { strings: t, tag } = useLocale()
  switch (state.name) {
    case 'ready':
      return <ReadyView note={state.note} wallets={wallets} onChoose={actions.choose} />
    case 'wrongNetwork':
      return <WrongNetworkView {...state} chainName={deployment.chainName} onSwitch={actions.switchNetwork} />
    case 'connected':
      return <ConnectedView {...state} onPay={actions.pay} />
    case 'insufficientBalance':
      return <InsufficientBalanceView {...state} onCheckAgain={actions.retry} onPayFromWallet={actions.payFromWallet} onSendToVault={actions.sendToVault} />
    case 'sendingToVault':
      return <ProgressView>{t.sendingToVault(formatTokenAmount(state.missing, state.invoice.token, tag))}</ProgressView>
    case 'signingFunding':
      return <FundingView authorisation={state.authorisation} account={state.payer.owner} />
    case 'signingPermit':
      return <PermitView authorisation={state.authorisation} merchantName={merchantName} step={state.funding ? t.stepPermit : null} />
    case 'signingOperation':
      return (
        <SigningOperationView payment={state.payment} token={state.invoice.token} merchantName={merchantName} validUntil={state.window.validUntil} />
      )
    case 'pending':
      return <PendingView {...state} onSendAgain={actions.retry} onSignNew={actions.renewPermit} />
    case 'paid':
      return <ReceiptView invoice={state.invoice} invoiceNumber={invoiceNumber} receipt={state.receipt} explorerUrl={deployment.explorerUrl} />
    case 'canceled':
      return <p>{t.canceledBody}</p>
    case 'notFound':
      return <p>{t.notFoundBody}</p>
    case 'unsafe':
      return <UnsafeView problems={state.problems} handedOver={state.handedOver} token={state.invoice.token} />
    case 'permitExpired':
      return <PermitExpiredView reason={state.reason} onRenew={actions.renewPermit} />
    case 'smartWallet':
    case 'sendingCalls':
    case 'followingCalls':
      return <SmartWalletView state={state} onPay={actions.pay} />
    case 'error':
      return <ErrorView code={state.code} status={state.status} retryAt={state.retryAt} onRetry={actions.retry} />
    case 'idle':
    case 'loading':
    case 'connecting':
    case 'switchingNetwork':
    case 'requestingPermit':
    case 'preparing':
    case 'verifying':
    case 'submitting':
    case 'checking':
    case 'refreshing':
      return <ProgressView />
  }
}
