import { useEffect, useRef, useState } from 'preact/hooks'
import { bridgedWallets, type BridgedWallet } from '../frame/bridgedWallets'
import type { FrameChannel } from '../frame/frameChannel'
import type { WalletSession } from '../wallet/createWalletSession'
import type { WalletChoice } from '../wallet/walletChoice'
import { whenIdle } from './whenIdle'

/** The host page's wallets, named with the host's origin so the payer knows where they live. */
function bridgedChoices(wallets: BridgedWallet[]): WalletChoice[] {
  return wallets.map(({ info, hostOrigin, provider }) => ({
    id: `bridged:${info.uuid}`,
    kind: 'bridged',
    name: `${info.name} · via ${new URL(hostOrigin).host}`,
    icon: info.icon,
    open: async () => provider,
  }))
}

/** The wallets the payer can pick, updated as extensions announce themselves; when embedded, the
 * host page's wallets too (many extensions do not inject into iframes). The wallet stack that finds
 * them loads once the browser is idle after the invoice has painted. */
export function useWalletChoices(session: WalletSession, channel: FrameChannel | null = null): WalletChoice[] {
  // a page of its own in a browser with no injected wallet offers the deployment's own ways to pay
  // from the first paint: found with the stack, they were inserted above "Pay on your phone" after it
  // had painted and moved it (Lighthouse counted the shift). Where a wallet is injected or a host page
  // lends its wallets, those are found first and listed first, as before.
  const [own, setOwn] = useState<WalletChoice[]>(() => (channel || 'ethereum' in globalThis ? [] : session.knownChoices))
  const [bridged, setBridged] = useState<BridgedWallet[]>([])
  useEffect(() => {
    let stop = () => {}
    const cancel = whenIdle(() => (stop = session.watchChoices(setOwn)))
    return () => {
      cancel()
      stop()
    }
  }, [session])
  useEffect(() => (channel ? bridgedWallets(channel, setBridged) : undefined), [channel])
  // in the order first seen: a wallet announced later is listed last, so the list never moves under
  // the payer's pointer (a layout shift, and a click landing on another wallet than the one aimed at)
  const seen = useRef(new Map<string, number>()).current
  const choices = [...bridgedChoices(bridged), ...own]
  for (const { id } of choices) if (!seen.has(id)) seen.set(id, seen.size)
  return choices.sort((a, b) => seen.get(a.id)! - seen.get(b.id)!)
}
