// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest'
import { discoverWallets, type DiscoveredWallet } from './discoverWallets'
import type { Eip1193Provider } from './eip1193'

const icon = 'data:image/svg+xml;base64,PHN2Zy8+'

function provider(): Eip1193Provider {
  return { request: async () => null }
}

/** What a wallet extension does (EIP-6963): announce itself now, and again whenever a page asks. */
function installWallet(info: { uuid: string; name: string; icon?: string; rdns?: string }, wallet = provider()) {
  const announce = () =>
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info: { icon, rdns: 'com.example', ...info }, provider: wallet }) }))
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
  return { wallet, uninstall: () => window.removeEventListener('eip6963:requestProvider', announce) }
}

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
  delete (window as { ethereum?: unknown }).ethereum
})

function discover() {
  const seen: DiscoveredWallet[][] = []
  cleanups.push(discoverWallets(window, (wallets) => seen.push(wallets)))
  return { latest: () => seen.at(-1) ?? [], seen }
}

describe('discoverWallets', () => {
  test('default: finds the wallets installed before the page asked', () => {
    const rabby = installWallet({ uuid: 'a', name: 'Rabby', rdns: 'io.rabby' })
    const metamask = installWallet({ uuid: 'b', name: 'MetaMask', rdns: 'io.metamask' })
    cleanups.push(rabby.uninstall, metamask.uninstall)
    const { latest } = discover()
    expect(latest().map((wallet) => wallet.info)).toEqual([
      { uuid: 'a', name: 'Rabby', icon, rdns: 'io.rabby' },
      { uuid: 'b', name: 'MetaMask', icon, rdns: 'io.metamask' },
    ])
    expect(latest()[0]?.provider).toBe(rabby.wallet)
  })

  test('behavior: a wallet announcing itself later is added', () => {
    const { latest } = discover()
    expect(latest()).toEqual([])
    const late = installWallet({ uuid: 'c', name: 'Late Wallet' })
    cleanups.push(late.uninstall)
    expect(latest().map((wallet) => wallet.info.name)).toEqual(['Late Wallet'])
  })

  test('behavior: the same wallet announced twice is listed once', () => {
    const wallet = installWallet({ uuid: 'a', name: 'Rabby' })
    cleanups.push(wallet.uninstall)
    const { latest } = discover()
    window.dispatchEvent(new Event('eip6963:requestProvider'))
    expect(latest()).toHaveLength(1)
  })

  test('behavior: malformed announcements are ignored and only data: icons are kept', () => {
    const { latest } = discover()
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: { info: { uuid: 'x', name: 'No provider' } } }))
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: { info: { name: 'No uuid' }, provider: provider() } }))
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: null }))
    const tracker = installWallet({ uuid: 'y', name: 'Remote icon', icon: 'https://tracker.example/icon.png' })
    cleanups.push(tracker.uninstall)
    expect(latest().map((wallet) => wallet.info)).toEqual([{ uuid: 'y', name: 'Remote icon', icon: '', rdns: 'com.example' }])
  })

  test('behavior: a legacy window.ethereum is offered, once, unless it announced itself', () => {
    const legacy = provider()
    ;(window as { ethereum?: unknown }).ethereum = legacy
    const first = discover()
    expect(first.latest().map((wallet) => [wallet.info.uuid, wallet.provider === legacy])).toEqual([['window.ethereum', true]])
    const same = installWallet({ uuid: 'mm', name: 'MetaMask' }, legacy)
    cleanups.push(same.uninstall)
    expect(first.latest().map((wallet) => wallet.info.name)).toEqual(['MetaMask'])
  })

  test('behavior: stops listening when asked', () => {
    const { seen } = discover()
    cleanups.splice(0).forEach((stop) => stop())
    const after = installWallet({ uuid: 'z', name: 'After' })
    cleanups.push(after.uninstall)
    expect(seen.at(-1)).toEqual([])
  })
})
