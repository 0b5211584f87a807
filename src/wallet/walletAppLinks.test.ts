import { describe, expect, test } from 'vitest'
import { walletAppLinks } from './walletAppLinks'

const shareLink = 'https://pay.example.com/pay/42?token=svc_tk_AbC-_9%2Bz'

/** What each wallet opens, read back from its link the way the wallet's documentation says it reads it. */
function opened(name: string, href: string, origin = 'https://pay.example.com'): string {
  const url = new URL(href)
  switch (name) {
    case 'MetaMask':
      return `https://${href.slice('https://link.metamask.io/dapp/'.length)}`
    case 'Base (Coinbase Wallet)':
      return url.searchParams.get('cb_url')!
    case 'Trust Wallet':
      expect(url.searchParams.get('coin_id')).toBe('60')
      return url.searchParams.get('url')!
    case 'Rainbow':
      return url.searchParams.get('url')!
    case 'Phantom':
      expect(url.searchParams.get('ref')).toBe(origin)
      return decodeURIComponent(url.pathname.slice('/ul/browse/'.length))
    default:
      throw new Error(`no reader for ${name}`)
  }
}

describe('walletAppLinks', () => {
  test('default: the five wallet apps, each on its own domain, each opening the exact share link with its token', () => {
    const links = walletAppLinks(shareLink)
    expect(links.map(({ name, href }) => [name, new URL(href).host])).toEqual([
      ['MetaMask', 'link.metamask.io'],
      ['Base (Coinbase Wallet)', 'go.cb-w.com'],
      ['Trust Wallet', 'link.trustwallet.com'],
      ['Rainbow', 'rnbwapp.com'],
      ['Phantom', 'phantom.app'],
    ])
    for (const { name, href } of links) expect(opened(name, href), name).toBe(shareLink)
  })

  test('behavior: the token appears in no link but inside the URL the wallet opens (not in a referrer field)', () => {
    for (const { name, href } of walletAppLinks(shareLink)) {
      const url = new URL(href)
      expect(url.protocol, name).toBe('https:')
      expect(url.hash, name).toBe('')
    }
    const phantom = new URL(walletAppLinks(shareLink).find(({ name }) => name === 'Phantom')!.href)
    expect(phantom.searchParams.get('ref')).not.toContain('svc_tk_')
  })

  test('behavior: an http page (a devnet) gets no MetaMask link, which would open the https address instead', () => {
    const links = walletAppLinks('http://127.0.0.1:8787/pay/1?token=svc_tk_x')
    expect(links.map(({ name }) => name)).toEqual(['Base (Coinbase Wallet)', 'Trust Wallet', 'Rainbow', 'Phantom'])
    for (const { name, href } of links) expect(opened(name, href, 'http://127.0.0.1:8787'), name).toBe('http://127.0.0.1:8787/pay/1?token=svc_tk_x')
  })
})
