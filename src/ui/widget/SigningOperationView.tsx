import type { PaymentMessage } from '../../../shared/paymentMessage'
import { formatTokenAmount, type Token } from '../format'
import { useLocale } from '../LocaleContext'
import { afterPayStrings } from '../strings.afterPay'
import { Detail } from './Detail'
import { PermitDeadline } from './PermitDeadline'
import { ProgressView } from './ProgressView'
import { SimulatedEffect } from './SimulatedEffect'
import type { SimulatedEffect as SimulatedEffectOf } from '../../chain/simulatePayment'

type SigningOperationProps = {
  /** The message the wallet is asked to sign, built from the verified operation alone: these lines
   * are what a clear-signing wallet shows too, so the payer can compare them. */
  payment: Pick<PaymentMessage, 'invoiceNumber' | 'amount' | 'merchant' | 'fromWallet' | 'validUntil'>
  token: Token
  /** From the verified metadata; null when no record named the payee. */
  merchantName: string | null
  /** The merchant's label for the invoice (NW-0002), from the verified metadata: what the payer knows
   * it by, beside the number the wallet shows (2). Null when no record was checked. */
  invoiceLabel?: string | null
  /** The operation's real window (its sponsorship's), not a figure the service states. */
  validUntil: number
  /** What the operation moves, as the pinned RPC ran it before this step. */
  simulated?: SimulatedEffectOf | undefined
}

export function SigningOperationView({ payment, token, merchantName, invoiceLabel = null, validUntil, simulated }: SigningOperationProps) {
  const { strings: t, tag } = useLocale()
  const a = afterPayStrings(t)
  const funded = payment.fromWallet > 0n ? formatTokenAmount(payment.fromWallet, token, tag) : null
  return (
    <>
      {funded ? <p class="svc-step">{a.stepConfirm}</p> : null}
      <p class="svc-ok">{funded ? a.signingBodyFunded(funded) : a.signingBody}</p>
      {simulated ? <SimulatedEffect effect={simulated} token={token} merchantName={merchantName} /> : null}
      <p>{a.walletWillAsk}</p>
      <dl class="svc-details svc-wallet-lines">
        {/* the number the wallet shows is the merchant's own (the message's invoiceNumber), never the
            registry's id, which the wallet does not show */}
        <Detail label={a.walletLinePay}>
          {a.walletLineInvoice(payment.invoiceNumber.toString())}
          {invoiceLabel && invoiceLabel !== payment.invoiceNumber.toString() ? (
            <>
              {' ('}
              <bdi>{invoiceLabel}</bdi>
              {')'}
            </>
          ) : null}
        </Detail>
        <Detail label={a.walletLineAmount}>{formatTokenAmount(payment.amount, token, tag)}</Detail>
        <Detail label={a.walletLineTo}>
          {merchantName ? `${merchantName} ` : null}
          <code class="svc-address">{payment.merchant}</code>
        </Detail>
        {funded ? <Detail label={a.walletLineFromWallet}>{funded}</Detail> : null}
        <Detail label={a.walletLineUntil}>
          <PermitDeadline deadline={payment.validUntil} />
        </Detail>
      </dl>
      {/* the wallet shows the payment's own deadline, the one to compare; the sponsored operation's
          window is the service's timing, which the payer cannot act on, so it sits with the details */}
      {BigInt(validUntil) !== payment.validUntil ? (
        <details class="svc-technical">
          <summary>{a.unsafeDetails}</summary>
          <dl class="svc-details">
            <Detail label={a.operationValidUntil}>
              <PermitDeadline deadline={BigInt(validUntil)} />
            </Detail>
          </dl>
        </details>
      ) : null}
      <p class="svc-hint">{a.walletRequestNext}</p>
      <ProgressView>{t.connecting}</ProgressView>
    </>
  )
}
