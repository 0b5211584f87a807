import type { FlowNote as Note } from '../../flow/paymentState'
import type { WalletChoice } from '../../wallet/walletChoice'
import { useLocale } from '../LocaleContext'
import { FlowNote } from './FlowNote'
import { NoWalletHere } from './NoWalletHere'
import { useShareLink } from './useShareLink'
import { WalletIcon } from './WalletIcon'

export function ReadyView({ note, wallets, onChoose }: { note: Note | null; wallets: WalletChoice[]; onChoose(choice: WalletChoice): void }) {
  const { strings: t } = useLocale()
  const label = (choice: WalletChoice) => choice.name || (choice.kind === 'devnet' ? t.devnetWallet : t.browserWallet)
  // a wallet in this browser: an extension, a wallet app's own browser, or the framing page's wallet
  const walletHere = wallets.some((choice) => choice.kind === 'injected' || choice.kind === 'bridged') || 'ethereum' in globalThis
  const shareLink = useShareLink()
  const elsewhere = walletHere || !shareLink ? null : <NoWalletHere shareLink={shareLink} />
  return (
    <>
      <FlowNote note={note} />
      {wallets.length === 0 && !elsewhere ? <p>{t.noWallet}</p> : null}
      {wallets.length > 0 ? (
        <ul class="svc-wallets">
          {wallets.map((choice) => (
            <li key={choice.id}>
              <button type="button" class="svc-wallet" onClick={() => onChoose(choice)}>
                <WalletIcon kind={choice.kind} icon={choice.icon} />
                <span>{label(choice)}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {/* in the same place whether or not wallets are listed above it: a wallet found after the first
          render (the devnet's, the wallet stack loading at idle) must not remount it, redrawing its QR code */}
      {elsewhere}
    </>
  )
}
