import type { WalletChoice } from '../../wallet/walletChoice'

/** A wallet's own icon (EIP-6963 gives one as a data: URL), the devnet wallet's mark, or a plain wallet
 * outline for one that brings none: 28 px each, never an empty grey square. */
export function WalletIcon({ kind, icon }: Pick<WalletChoice, 'kind' | 'icon'>) {
  if (icon) return <img class="svc-wallet-mark" src={icon} alt="" width={28} height={28} />
  if (kind === 'devnet') {
    return (
      <svg class="svc-wallet-mark" viewBox="0 0 28 28" width="28" height="28" aria-hidden="true">
        <rect width="28" height="28" rx="6" fill="#12343b" />
        <rect x="5" y="8" width="18" height="13" rx="2.5" fill="none" stroke="#fff" stroke-width="2" />
        <path d="M16 12.5h7v4h-7a2 2 0 0 1 0-4z" fill="#fff" />
        <circle cx="22" cy="7" r="3.2" fill="#f5b83d" />
      </svg>
    )
  }
  return (
    <svg class="svc-wallet-mark" viewBox="0 0 28 28" width="28" height="28" aria-hidden="true">
      <rect x="0.5" y="0.5" width="27" height="27" rx="6" fill="none" stroke="currentColor" />
      <rect x="5" y="8" width="18" height="13" rx="2.5" fill="none" stroke="currentColor" stroke-width="2" />
      <circle cx="18.5" cy="14.5" r="1.6" fill="currentColor" />
    </svg>
  )
}
