import type { FlowNote as Note, Payer } from '../../flow/paymentState'
import type { WireInvoice } from '../../../shared/wire'
import { formatTokenAmount, formatTokenNumber } from '../format'
import { useLocale } from '../LocaleContext'
import { FlowNote } from './FlowNote'
import { PayerSummary } from './PayerSummary'
import { ShortHex } from './ShortHex'
import { QrCode } from '../QrCode'

type InsufficientBalanceProps = {
  invoice: WireInvoice
  payer: Payer
  missing: bigint
  /** The connected account holds the missing amount: one action pays it from there. */
  fromWallet?: boolean
  note?: Note | null
  onCheckAgain(): void
  onPayFromWallet(): void
  onSendToVault(): void
}

export function InsufficientBalanceView(p: InsufficientBalanceProps) {
  const { strings: t, tag } = useLocale()
  const amount = (raw: bigint) => formatTokenAmount(raw, p.invoice.token, tag)
  const number = (raw: bigint) => formatTokenNumber(raw, p.invoice.token, tag)
  return (
    <>
      <FlowNote note={p.note ?? null} />
      <p class="svc-warning">{t.insufficientBody(amount(p.missing), amount(p.payer.balance))}</p>
      <PayerSummary payer={p.payer} token={p.invoice.token} />
      {p.fromWallet ? (
        <>
          {p.payer.balance > 0n ? <p>{t.payFromWalletSplit(number(p.payer.balance), number(p.missing))}</p> : null}
          <p>{t.payFromWalletHint}</p>
          <button type="button" class="svc-primary" onClick={p.onPayFromWallet}>
            {t.payFromWallet(amount(BigInt(p.invoice.amount)))}
          </button>
          {p.payer.sendsTransactions === false ? null : (
            <button type="button" class="svc-secondary" onClick={p.onSendToVault}>
              {t.sendToVault(amount(p.missing))}
            </button>
          )}
        </>
      ) : null}
      <p>{t.insufficientHint}</p>
      <FundAddress address={p.payer.vault} />
      <button type="button" class={p.fromWallet ? 'svc-secondary' : 'svc-primary'} onClick={p.onCheckAgain}>
        {t.checkAgain}
      </button>
    </>
  )
}

/** Where to send the missing amount: the payment account's address, to copy or to scan with the phone
 * that holds the funds. The QR code's encoder loads only here, where it is needed; its square is
 * reserved meanwhile, so nothing moves when it arrives. */
export function FundAddress({ address }: { address: string }) {
  const { strings: t } = useLocale()
  return (
    <div class="svc-fund">
      <p class="svc-fund-label">{t.fundAddress}</p>
      <ShortHex value={address} label={t.labelAddress} />
      <div class="svc-qr-box"><QrCode value={address} label={t.fundQr(address)} /></div>
    </div>
  )
}
