import type { FlowNote as Note, Payer } from '../../flow/paymentState'
import type { PinnedDeployment } from '../../../shared/pinnedDeployment'
import type { WireInvoice } from '../../../shared/wire'
import { formatTokenAmount, formatTokenNumber } from '../format'
import { useLocale } from '../LocaleContext'
import { afterPayStrings } from '../strings.afterPay'
import { Detail } from './Detail'
import { FlowNote } from './FlowNote'
import { PayerSummary } from './PayerSummary'
import { ShortHex } from './ShortHex'
import { QrCode } from '../QrCode'

type InsufficientBalanceProps = {
  invoice: WireInvoice
  payer: Payer
  missing: bigint
  /** Where the missing amount is sent: the chain and token the build pins, never the service's word. */
  deployment: Pick<PinnedDeployment, 'chainId' | 'chainName' | 'token' | 'tokenSymbol'>
  /** The connected account holds the missing amount: one action pays it from there. */
  fromWallet?: boolean
  note?: Note | null
  onCheckAgain(): void
  onPayFromWallet(): void
  onSendToVault(): void
}

export function InsufficientBalanceView(p: InsufficientBalanceProps) {
  const { strings: t, tag } = useLocale()
  const a = afterPayStrings(t)
  const amount = (raw: bigint) => formatTokenAmount(raw, p.invoice.token, tag)
  const number = (raw: bigint) => formatTokenNumber(raw, p.invoice.token, tag)
  return (
    <>
      <FlowNote note={p.note ?? null} />
      <p class="svc-warning">{a.insufficientBody(amount(p.missing), amount(p.payer.balance))}</p>
      <PayerSummary payer={p.payer} token={p.invoice.token} />
      {p.fromWallet ? (
        <>
          {p.payer.balance > 0n ? <p>{a.payFromWalletSplit(number(p.payer.balance), number(p.missing))}</p> : null}
          <p>{a.payFromWalletHint}</p>
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
      <p>{a.insufficientHint}</p>
      <FundAddress address={p.payer.vault} label={a.fundAddress} deployment={p.deployment} />
      <button type="button" class={p.fromWallet ? 'svc-secondary' : 'svc-primary'} onClick={p.onCheckAgain}>
        {t.checkAgain}
      </button>
    </>
  )
}

/** Phones and other small touch screens: the device that would have to scan a QR code, not show it. A
 * payer there holds the funds in a wallet on the same device (or copies the address into it): a code
 * of its own screen's address cannot be scanned, and only pushes the address and its network below the
 * fold. The shorter side tells a phone (either way up) from a tablet, which a phone can scan. */
const scanningDevice = '(pointer: coarse) and (max-width: 500px), (pointer: coarse) and (max-height: 500px)'

/** Where to send the missing amount: the address, with the network and the token (its symbol and
 * contract) a wallet must send on, to copy, or to scan with the phone that holds the funds. The QR
 * code's encoder loads only here, where it is needed; its square is reserved meanwhile, so nothing
 * moves when it arrives. */
export function FundAddress({ address, label, deployment }: { address: string; label: string; deployment: InsufficientBalanceProps['deployment'] }) {
  const { strings: t } = useLocale()
  const a = afterPayStrings(t)
  const showQr = !globalThis.matchMedia?.(scanningDevice).matches
  return (
    <div class="svc-fund">
      <p class="svc-fund-label">{label}</p>
      <ShortHex value={address} label={t.labelAddress} />
      <dl class="svc-details">
        <Detail label={a.fundNetwork}>{deployment.chainName ?? t.chainLabel(deployment.chainId)}</Detail>
        <Detail label={a.permitToken}>
          {deployment.tokenSymbol} <ShortHex value={deployment.token} label={a.labelTokenContract} />
        </Detail>
      </dl>
      {showQr ? <div class="svc-qr-box"><QrCode value={address} label={a.fundQr(address)} /></div> : null}
    </div>
  )
}
