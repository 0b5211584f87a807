import type { Eip1193Provider } from './eip1193'

/** EIP-6963 provider info. The icon is a data: URI by the standard; anything else is not shown. */
export type WalletInfo = { uuid: string; name: string; icon: string; rdns: string }
export type DiscoveredWallet = { info: WalletInfo; provider: Eip1193Provider }

type Announcement = Event & { detail?: unknown }

/** Lists the wallets in this browser: every EIP-6963 announcement, current and later, plus a legacy
 * window.ethereum that announced nothing. Calls `onChange` with the whole list each time it grows;
 * returns the function that stops listening. */
export function discoverWallets(target: Window, onChange: (wallets: DiscoveredWallet[]) => void): () => void {
  const announced = new Map<string, DiscoveredWallet>()
  const report = () => onChange(withLegacy([...announced.values()], target))
  const onAnnounce = (event: Announcement) => {
    const wallet = announcedWallet(event.detail)
    if (!wallet || announced.has(wallet.info.uuid)) return
    announced.set(wallet.info.uuid, wallet)
    report()
  }
  target.addEventListener('eip6963:announceProvider', onAnnounce)
  target.dispatchEvent(new Event('eip6963:requestProvider'))
  report()
  return () => target.removeEventListener('eip6963:announceProvider', onAnnounce)
}

function announcedWallet(detail: unknown): DiscoveredWallet | null {
  if (typeof detail !== 'object' || detail === null) return null
  const { info, provider } = detail as { info?: Partial<WalletInfo>; provider?: Partial<Eip1193Provider> }
  if (!info || typeof info.uuid !== 'string' || typeof info.name !== 'string' || !info.name.trim()) return null
  if (!provider || typeof provider.request !== 'function') return null
  const icon = typeof info.icon === 'string' && info.icon.startsWith('data:image/') ? info.icon : ''
  return { info: { uuid: info.uuid, name: info.name.trim(), icon, rdns: typeof info.rdns === 'string' ? info.rdns : '' }, provider: provider as Eip1193Provider }
}

/** Wallets that predate EIP-6963 only set window.ethereum; one that also announced itself is listed once. */
function withLegacy(wallets: DiscoveredWallet[], target: Window): DiscoveredWallet[] {
  const legacy = (target as Window & { ethereum?: Partial<Eip1193Provider> }).ethereum
  if (!legacy || typeof legacy.request !== 'function' || wallets.some((wallet) => wallet.provider === legacy)) return wallets
  return [...wallets, { info: { uuid: 'window.ethereum', name: '', icon: '', rdns: '' }, provider: legacy as Eip1193Provider }]
}
