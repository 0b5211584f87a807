import type { Hex } from 'viem'
import type { Receipt } from '../../flow/paymentState'
import type { WireInvoice } from '../../../shared/wire'
import { formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'
import { Detail } from './Detail'

/** The paid state: this widget's receipt, or what the invoice says when someone else paid it. */
export function ReceiptView(p: { invoice: WireInvoice; invoiceNumber: string | null; receipt: Receipt | null; explorerUrl: string | undefined }) {
  const { invoice, receipt, explorerUrl } = p
  const { strings: t, tag } = useLocale()
  const txHash: Hex | null = receipt?.txHash ?? invoice.txHash
  return (
    <>
      <p class="svc-ok">{t.paidBody}</p>
      <dl class="svc-details">
        <Detail label={t.receiptAmount}>{formatTokenAmount(receipt?.amount ?? BigInt(invoice.amount), invoice.token, tag)}</Detail>
        <Detail label={t.receiptInvoice}>{p.invoiceNumber ?? receipt?.invoiceNumber ?? invoice.invoiceNumber}</Detail>
        {receipt?.userOpHash ? (
          <Detail label={t.userOpHash} mono>
            {receipt.userOpHash}
          </Detail>
        ) : null}
        {txHash ? (
          <Detail label={t.txHash} mono>
            {txHash}
          </Detail>
        ) : null}
      </dl>
      {txHash && explorerUrl ? (
        <p>
          <a href={`${explorerUrl.replace(/\/+$/, '')}/tx/${txHash}`} target="_blank" rel="noopener noreferrer">
            {t.viewOnExplorer}
          </a>
        </p>
      ) : null}
    </>
  )
}
