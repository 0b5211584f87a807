import type { WagmiWallets } from '../../src/wallet/wagmiWallets'
import type { WalletChoice } from '../../src/wallet/walletChoice'

/** The kinds of wallet that may hold a studio owner's key: the browser's own (EIP-6963) and, when the
 * deployment names a WalletConnect project id, a mobile wallet over WalletConnect. The devnet wallet
 * is the payer's stand-in, never an owner's. */
const ownerKinds: readonly WalletChoice['kind'][] = ['injected', 'walletConnect']

/** Calls `onChange` with the wallets the owner may connect now, and again whenever wagmi finds another. */
export function watchOwnerWalletChoices(wallets: Pick<WagmiWallets, 'watchChoices'>, onChange: (choices: WalletChoice[]) => void): () => void {
  return wallets.watchChoices((choices) => onChange(choices.filter((choice) => ownerKinds.includes(choice.kind))))
}
