import { useEffect, useLayoutEffect, useRef } from 'preact/hooks'
import type { PinnedDeployment } from '../../../shared/pinnedDeployment'
import type { PaymentState } from '../../flow/paymentState'
import type { SimulationCall } from '../../chain/simulatePayment'
import { devnetChainId } from '../../config/devnet'
import type { WalletChoice } from '../../wallet/walletChoice'
import { formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'
import { stateHeadline } from '../stateHeadline'
import { ConnectedView } from './ConnectedView'
// the states after Pay: a chunk of their own, loaded once the page is idle (lazyViews.tsx says why)
import {
  DevnetWalletPrompt,
  ErrorView,
  FundingView,
  InsufficientBalanceView,
  PendingView,
  PermitExpiredView,
  PermitView,
  ReceiptView,
  SigningOperationView,
  SmartWalletView,
  UnsafeView,
} from './lazyViews'
import { PaymentSteps, paymentStep } from './PaymentSteps'
import { PaymentSummary } from './PaymentSummary'
import { ProgressView } from './ProgressView'
import { ReadyView } from './ReadyView'
import { WrongNetworkView } from './WrongNetworkView'

/** What the payer can do; `choose` picks a wallet and connects it. */
export type WidgetActions = {
  choose(choice: WalletChoice): void
  switchNetwork(): void
  pay(): void
  payFromWallet(): void
  sendToVault(): void
  /** A smart account takes back what its vault holds. */
  moveBack(): void
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
  /** The metadata is still being checked: a missing name is not yet a finding. */
  merchantNamePending?: boolean
  /** Meanwhile, the name the unchecked record gives: it only holds the checked name's place. */
  merchantNameToCome?: string | null
  /** The chain reader's pinned eth_call: the receipt reads what was refunded with it. */
  readChain?: SimulationCall | undefined
}

/** The payment as the payer sees it: a thin view of the flow's state. A new state is announced to
 * assistive technology, and focus follows the payer into it when the control they used is gone. */
export function PaymentWidget(p: PaymentWidgetProps) {
  const { strings: t } = useLocale()
  const section = useRef<HTMLElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const headline = stateHeadline(p.state, t)
  const shown = useRef(p.state.name)
  // Focus follows the payer only once they have acted in the widget: loading, checking and the
  // chain's answers never take it (embedded, that would pull the host page to the frame).
  const acted = useRef(false)
  useEffect(() => {
    if (shown.current === p.state.name) return
    shown.current = p.state.name
    if (!acted.current) return
    const active = document.activeElement
    if (!active || active === document.body || !active.isConnected || section.current?.contains(active)) heading.current?.focus()
  }, [p.state.name])
  // The card does not shrink while the payment moves on: a shorter state (a spinner between two steps)
  // would pull the invoice below it up, and the next state push it down again. Once it is done (paid)
  // or back at an earlier step (a decline, a failure), the card fits what it shows, and the room the
  // tallest state took (a wallet's request, the devnet wallet's prompt) stays below it as margin: the
  // invoice under it does not move, and the card is not an empty box. Moving on again, the card takes
  // that room back. Set through the CSSOM, which the page's CSP allows (a style attribute it would refuse).
  const room = useRef<[step: number, held: number, fit: boolean]>([-1, 0, false])
  useLayoutEffect(() => {
    const r = room.current
    const step = paymentStep(p.state.name) ?? -1
    // paid or back a step: fit; onward: hold; within a step: as it was
    if (step !== r[0]) r[2] = step < r[0] || p.state.name === 'paid'
    r[0] = step
    const style = section.current!.style
    style.minHeight = style.marginBottom = ''
    const height = section.current!.getBoundingClientRect().height
    r[1] = Math.max(r[1], height)
    if (r[2]) style.marginBottom = `${r[1] - height}px`
    else style.minHeight = `${r[1]}px`
  })
  const invoice = 'invoice' in p.state ? p.state.invoice : null
  const step = paymentStep(p.state.name)
  return (
    <section class="svc-widget" ref={section} aria-labelledby="svc-widget-heading" onClickCapture={() => (acted.current = true)} onKeyDownCapture={() => (acted.current = true)}>
      {/* what is paid and the steps first, the state's own heading after them: a heading of one line
          or two never moves the summary */}
      {/* after this widget's own payment both stay, every step done: the receipt arriving moves
          nothing above it */}
      {invoice && (p.state.name === 'paid' ? p.state.receipt : p.state.name !== 'canceled' && p.state.name !== 'unsafe') ? (
        <PaymentSummary invoice={invoice} merchantName={p.merchantName} namePending={p.merchantNamePending ?? false} nameToCome={p.merchantNameToCome ?? null} />
      ) : null}
      {step !== null && (step < 3 || (p.state.name === 'paid' && p.state.receipt)) ? <PaymentSteps current={step} /> : null}
      <h2 id="svc-widget-heading" class="svc-widget-heading" tabIndex={-1} ref={heading}>
        {headline}
      </h2>
      <p class="svc-visually-hidden" role="status" aria-live="polite">
        {headline}
      </p>
      <StateView {...p} />
      <DevnetWalletPrompt />
    </section>
  )
}

function StateView({ state, actions, wallets, deployment, merchantName, invoiceNumber, readChain }: PaymentWidgetProps) {
  const { strings: t, tag } = useLocale()
  switch (state.name) {
    case 'ready':
      return <ReadyView note={state.note} wallets={wallets} onChoose={actions.choose} />
    case 'wrongNetwork':
      return <WrongNetworkView {...state} chainName={deployment.chainName} onSwitch={actions.switchNetwork} />
    case 'connected':
      return <ConnectedView {...state} unnamed={!merchantName} onPay={actions.pay} />
    case 'insufficientBalance':
      return <InsufficientBalanceView {...state} deployment={deployment} onCheckAgain={actions.retry} onPayFromWallet={actions.payFromWallet} onSendToVault={actions.sendToVault} />
    case 'sendingToVault':
      return <ProgressView>{t.sendingToVault(formatTokenAmount(state.missing, state.invoice.token, tag))}</ProgressView>
    case 'signingFunding':
      return <FundingView authorisation={state.authorisation} account={state.payer.owner} />
    case 'signingPermit':
      return <PermitView authorisation={state.authorisation} merchantName={merchantName} invoiceLabel={invoiceNumber} step={state.funding ? t.stepPermit : null} />
    case 'signingOperation':
      return (
        <SigningOperationView
          payment={state.payment}
          token={state.invoice.token}
          merchantName={merchantName}
          invoiceLabel={invoiceNumber}
          validUntil={state.window.validUntil}
          simulated={state.simulated}
        />
      )
    case 'pending':
      return <PendingView {...state} onSendAgain={actions.retry} onSignNew={actions.renewPermit} />
    case 'paid':
      return (
        <ReceiptView
          invoice={state.invoice}
          invoiceNumber={invoiceNumber}
          receipt={state.receipt}
          merchantName={merchantName}
          explorerUrl={deployment.explorerUrl}
          localChain={deployment.chainId === devnetChainId}
          readChain={readChain}
          registry={deployment.registry}
        />
      )
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
    case 'movingBack':
    case 'followingMoveBack':
      return <SmartWalletView state={state} deployment={deployment} onPay={actions.pay} onCheckAgain={actions.retry} onMoveBack={actions.moveBack} />
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
    case 'refreshing':
      return <ProgressView />
    // the state the page is served in: the wallet list comes next, in its room
    case 'checking':
      return <ProgressView reserve />
  }
}
