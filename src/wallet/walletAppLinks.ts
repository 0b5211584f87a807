/** A wallet app's own link that opens a page in the app's in-app browser, where the app's wallet is
 * injected: how a payer on a phone gets from their browser (no wallet there) into the wallet app with
 * this invoice, token included. */
export type WalletAppLink = { name: string; href: string }

/**
 * Each wallet's documented link, on the wallet's own domain: tapping one tells nothing to anyone but
 * the wallet the payer chose (the page sends no referrer, and no link goes through a link shortener or
 * an attribution service). With the app installed the phone opens the app; without it the wallet's
 * own site offers the app.
 */
export function walletAppLinks(shareLink: string): WalletAppLink[] {
  const url = new URL(shareLink)
  const encoded = encodeURIComponent(shareLink)
  const links: WalletAppLink[] = []
  // MetaMask, "Open a dapp inside the MetaMask in-app browser": https://link.metamask.io/dapp/{dappUrl},
  // the URL without its scheme and not percent-encoded, which the app opens as https://{dappUrl}
  // (https://docs.metamask.io/sdk/guides/use-deeplinks). So only for an https page: an http one (a
  // devnet) would open at another address.
  if (url.protocol === 'https:') links.push({ name: 'MetaMask', href: `https://link.metamask.io/dapp/${shareLink.slice('https://'.length)}` })
  // Coinbase Wallet, now the Base app, "Dapp browser": https://go.cb-w.com/dapp?cb_url={percent-encoded URL}
  // (https://docs.cdp.coinbase.com/coinbase-wallet/developer-guidance/mobile-dapp-integration)
  links.push({ name: 'Base (Coinbase Wallet)', href: `https://go.cb-w.com/dapp?cb_url=${encoded}` })
  // Trust Wallet, "DApp Browser": https://link.trustwallet.com/open_url?coin_id=60&url={URL}, 60 being
  // Ethereum's SLIP-44 index, which opens its EVM browser (https://developer.trustwallet.com/developer/develop-for-trust/deeplinking)
  links.push({ name: 'Trust Wallet', href: `https://link.trustwallet.com/open_url?coin_id=60&url=${encoded}` })
  // Rainbow documents no browse link of its own; this is the form its universal-link domain answers and
  // wallet kits use, on Rainbow's domain (rnbwapp.com, as its documented https://rnbwapp.com/wc link)
  links.push({ name: 'Rainbow', href: `https://rnbwapp.com/dapp?url=${encoded}` })
  // Phantom, "Browse": https://phantom.app/ul/browse/{percent-encoded URL}?ref={percent-encoded URL of
  // the requesting app}; the in-app browser serves its EVM side too (https://docs.phantom.com/phantom-deeplinks/other-methods/browse).
  // The ref is the page's origin only: the token travels once, in the URL Phantom opens
  links.push({ name: 'Phantom', href: `https://phantom.app/ul/browse/${encoded}?ref=${encodeURIComponent(url.origin)}` })
  return links
}
