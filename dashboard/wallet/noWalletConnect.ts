/**
 * What the dashboard's build resolves @walletconnect/ethereum-provider to: the owner connects a wallet
 * of the browser (EIP-6963), and the dashboard is built with no WalletConnect project id, so the pay
 * page's wallet module never reaches for it here. Without this, its SDK (some hundred files, a wasm
 * among them) would be built into dist/dashboard for nothing.
 */
export const EthereumProvider = {
  init(): never {
    throw new Error('WalletConnect is not offered in the dashboard: connect the wallet of this browser')
  },
}
