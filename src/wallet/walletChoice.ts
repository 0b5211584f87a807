import type { Eip1193Provider } from '../../shared/eip1193'

/** One way to pay that the payer can pick. The browser's wallets and WalletConnect are wagmi's
 * connectors; the others bring a provider: `open` may load code (the devnet wallet) and resolves with
 * a provider ready for eth_requestAccounts. */
export type WalletChoice = {
  id: string
  /** `bridged`: a wallet of the page that embeds this one, relayed to it (src/frame/bridgedWallets). */
  kind: 'injected' | 'bridged' | 'walletConnect' | 'devnet'
  /** Empty for a legacy injected wallet: the UI names it. */
  name: string
  icon: string
  open?(): Promise<Eip1193Provider>
}
