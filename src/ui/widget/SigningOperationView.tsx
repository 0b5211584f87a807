import type { PaymentMessage } from '../../../shared/paymentMessage'
import { formatTokenAmount, type Token } from '../format'
import { useLocale } from '../LocaleContext'
import { Detail } from './Detail'
import { PermitDeadline } from './PermitDeadline'
import { ProgressView } from './ProgressView'
import { SimulatedEffect } from './SimulatedEffect'
import type { SimulatedEffect as SimulatedEffectOf } from '../../chain/simulatePayment'

type SigningOperationProps = {
  /** The message the wallet is asked to sign, built from the verified operation alone: these lines
   * are what a clear-signing wallet shows too, so the payer can compare them. */
  payment: Pick<PaymentMessage, 'invoice' | 'amount' | 'merchant' | 'fromWallet' | 'validUntil'>
  token: Token
  /** From the verified metadata; null when no record named the payee. */
  merchantName: string | null
  /** The operation's real window (its sponsorship's), not a figure the service states. */
  validUntil: number
  /** What the operation moves, as the pinned RPC ran it before this step. */
  simulated?: SimulatedEffectOf | undefined
}

export function SigningOperationView({ payment, token, merchantName, validUntil, simulated }: SigningOperationProps) {
  const { strings: t, tag } = useLocale()
  const funded = payment.fromWallet > 0n ? formatTokenAmount(payment.fromWallet, token, tag) : null
  return (
    <>
      {funded ? <p class="svc-step">{t.stepConfirm}</p> : null}
      <p class="svc-ok">{funded ? t.signingBodyFunded(funded) : t.signingBody}</p>
      {simulated ? <SimulatedEffect effect={simulated} token={token} merchantName={merchantName} /> : null}
      <p>{t.walletWillAsk}</p>
      <dl class="svc-details svc-wallet-lines">
        <Detail label={t.walletLinePay}>{t.walletLineInvoice(payment.invoice.toString())}</Detail>
        <Detail label={t.walletLineAmount}>{formatTokenAmount(payment.amount, token, tag)}</Detail>
        <Detail label={t.walletLineTo}>
          {merchantName ? `${merchantName} ` : null}
          <code class="svc-address">{payment.merchant}</code>
        </Detail>
        {funded ? <Detail label={t.walletLineFromWallet}>{funded}</Detail> : null}
        <Detail label={t.walletLineUntil}>
          <PermitDeadline deadline={payment.validUntil} />
        </Detail>
      </dl>
      {/* the wallet shows the payment's own deadline, the one to compare; the sponsored operation's
          window is the service's timing, which the payer cannot act on, so it sits with the details */}
      {BigInt(validUntil) !== payment.validUntil ? (
        <details class="svc-technical">
          <summary>{t.unsafeDetails}</summary>
          <dl class="svc-details">
            <Detail label={t.operationValidUntil}>
              <PermitDeadline deadline={BigInt(validUntil)} />
            </Detail>
          </dl>
        </details>
      ) : null}
      <p class="svc-hint">{t.walletRequestNext}</p>
      <ProgressView>{t.connecting}</ProgressView>
    </>
  )
}
