import type { FlowNote as Note } from '../../flow/paymentState'
import type { WalletChoice } from '../../wallet/walletChoice'
import { useLocale } from '../LocaleContext'
import { FlowNote } from './FlowNote'
import { WalletIcon } from './WalletIcon'

export function ReadyView({ note, wallets, onChoose }: { note: Note | null; wallets: WalletChoice[]; onChoose(choice: WalletChoice): void }) {
  const { strings: t } = useLocale()
  const label = (choice: WalletChoice) => choice.name || (choice.kind === 'devnet' ? t.devnetWallet : t.browserWallet)
  return (
    <>
      <FlowNote note={note} />
      {wallets.length === 0 ? (
        <p>{t.noWallet}</p>
      ) : (
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
      )}
    </>
  )
}
