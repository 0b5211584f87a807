// Built on its own (vite.config.ts, separateBundles): WalletConnect brings its own copy of what it
// shares with the page, so that nothing of it rides in the page's initial chunks.
export { EthereumProvider } from '@walletconnect/ethereum-provider'
