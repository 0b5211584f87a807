// Built on its own (vite.config.ts, separateBundles), and loaded by URL wherever wagmi's WalletConnect
// connector imports the package: it brings its own copy of what it shares with the page, so that
// nothing of it rides in the page's chunks.
export { EthereumProvider } from '@walletconnect/ethereum-provider'
