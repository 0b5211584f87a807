import { useEffect, useState } from 'preact/hooks'
import type { Address, Hex } from 'viem'
import { readRefunded } from '../../chain/readRefunded'
import type { SimulationCall } from '../../chain/simulatePayment'
import type { Receipt } from '../../flow/paymentState'
import type { WireInvoice } from '../../../shared/wire'
import { formatMoment, formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'
import { afterPayStrings } from '../strings.afterPay'
import { Detail } from './Detail'
import { ShortHex } from './ShortHex'

type ReceiptViewProps = {
  /** As the chain shows it paid: its payer and paidAt are the registry's record. */
  invoice: WireInvoice
  invoiceNumber: string | null
  receipt: Receipt | null
  /** From the verified metadata; null names the payee by address alone. */
  merchantName: string | null
  explorerUrl: string | undefined
  /** The devnet's own chain: no explorer exists for it. */
  localChain: boolean
  /** A read of the pinned chain (the chain reader's `call`) and the pinned registry: the receipt shows
   * what the merchant refunded as the registry records it, never as a server says. */
  readChain?: SimulationCall | undefined
  registry?: Address | undefined
}

/** The paid state: a receipt the payer keeps (Save prints it alone, see theme.css), from what the
 * chain recorded: this widget's payment, or the invoice's settlement when someone else paid it. */
export function ReceiptView(p: ReceiptViewProps) {
  const { invoice, receipt, explorerUrl } = p
  const { strings: t, tag } = useLocale()
  const a = afterPayStrings(t)
  const txHash: Hex | null = receipt?.txHash ?? invoice.txHash
  const paidAt = invoice.paidAt ? Number(invoice.paidAt) * 1000 : null
  const refunded = useRefunded(p.readChain, p.registry, invoice.id)
  return (
    <>
      <p class="svc-ok">{a.paidBody}</p>
      <section class="svc-receipt" aria-labelledby="svc-receipt-heading">
        <h3 id="svc-receipt-heading">{a.receiptHeading}</h3>
        <dl class="svc-details">
          <Detail label={a.receiptInvoice}>{p.invoiceNumber ?? receipt?.invoiceNumber ?? invoice.invoiceNumber}</Detail>
          <Detail label={a.receiptAmount}>{formatTokenAmount(receipt?.amount ?? BigInt(invoice.amount), invoice.token, tag)}</Detail>
          <Detail label={a.receiptPayee}>
            {p.merchantName ? <span class="svc-receipt-name">{p.merchantName} </span> : null}
            <ShortHex value={invoice.merchant} label={t.labelAddress} />
          </Detail>
          {invoice.payer ? (
            <Detail label={a.receiptPayer}>
              <ShortHex value={receipt?.wallet ?? invoice.payer} label={t.labelAddress} />
            </Detail>
          ) : null}
          {invoice.payer && receipt?.wallet ? (
            <Detail label={t.payingAccount}>
              <ShortHex value={invoice.payer} label={t.labelAddress} />
            </Detail>
          ) : null}
          {paidAt ? (
            <Detail label={a.receiptTime}>
              <time dateTime={new Date(paidAt).toISOString()}>{formatMoment(paidAt, tag)}</time>
            </Detail>
          ) : null}
          {txHash ? (
            <Detail label={t.txHash}>
              <ShortHex value={txHash} label={a.labelTransaction} />
            </Detail>
          ) : null}
          {refunded ? (
            <Detail label={a.receiptRefunded}>{formatTokenAmount(refunded, invoice.token, tag)}</Detail>
          ) : null}
        </dl>
        {receipt?.userOpHash ? (
          <details class="svc-technical">
            <summary>{a.unsafeDetails}</summary>
            <dl class="svc-details">
              <Detail label={t.userOpHash}>
                <ShortHex value={receipt.userOpHash} label={a.labelOperation} />
              </Detail>
            </dl>
          </details>
        ) : null}
      </section>
      {txHash && explorerUrl ? (
        <p>
          <a href={`${explorerUrl.replace(/\/+$/, '')}/tx/${txHash}`} target="_blank" rel="noopener noreferrer">
            {a.viewOnExplorer}
          </a>
        </p>
      ) : txHash && p.localChain ? (
        <p class="svc-hint">{t.localChain}</p>
      ) : null}
      <button type="button" class="svc-secondary svc-save-receipt" onClick={() => globalThis.print()}>
        {a.saveReceipt}
      </button>
    </>
  )
}

/** The registry's refundedAmount for the invoice, read once the receipt shows; null until read, and
 * when the chain cannot be read (the receipt stands without it). */
function useRefunded(readChain: SimulationCall | undefined, registry: Address | undefined, id: string): bigint | null {
  const [refunded, setRefunded] = useState<bigint | null>(null)
  useEffect(() => {
    if (!readChain || !registry) return
    let current = true
    readRefunded(readChain, registry, BigInt(id)).then(
      (amount) => current && setRefunded(amount),
      () => undefined,
    )
    return () => {
      current = false
    }
  }, [readChain, registry, id])
  return refunded
}
