import type { Hex } from 'viem'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import { createChainReader } from '../chain/createChainReader'
import { readInvoice } from '../chain/readInvoice'
import { pinnedRpcProvider } from '../chain/rpcProvider'
import type { PaymentWallet } from './paymentWallet'
import type { PaymentChain } from '../chain/createChainReader'
import { paymentTypedData } from '../../shared/paymentMessage'
import { permitTypedDataJson } from '../../shared/permit'
import { typedDataJson } from '../../shared/typedDataJson'
import { toWireUserOp } from '../../shared/userOpWire'
import { bridgedSignUserOperation } from '../../shared/embedProtocol'
import type { Eip1193Provider } from '../../shared/eip1193'
import { sendToVault } from './sendToVault'
import { knownChoices } from './knownChoices'
import { readWalletCapabilities } from './readWalletCapabilities'
import type { WagmiWallets, WalletConnection } from './wagmiWallets'
import type { WalletChoice } from './walletChoice'
import { WalletError } from './walletError'

const notConnected = () => new WalletError('WALLET_NOT_CONNECTED', 'no wallet connected: connect a wallet first')

// the URL of the wallet stack's separate build (vite.config.ts, separateBundles)
declare const __SVC_WALLET_STACK_URL__: string

export type WalletSession = {
  wallet: PaymentWallet
  chain: PaymentChain
  /** The wallet the next `wallet.connect()` opens. */
  choose(choice: WalletChoice): void
  /** The ways to pay the pinned deployment names (WalletConnect, the devnet wallet): known without
   * the wallet stack, so they can be offered from the first paint. */
  knownChoices: WalletChoice[]
  /** The wallets to offer, now and as they are discovered. Loads the wallet stack. */
  watchChoices(onChange: (choices: WalletChoice[]) => void): () => void
  /** The connected wallet's account and chain, on every change the wallet reports. */
  watchConnection(onChange: (connection: WalletConnection) => void): () => void
}

/**
 * The flow's wallet and chain, over whichever wallet the payer picks. The wallet stack (@wagmi/core) is
 * loaded on first use, after the invoice has painted: a payer who only reads the invoice never fetches
 * it. Chain reads go through the build's pinned RPC, and through the payer's own wallet once it is on
 * the pinned chain: the server whose answers are checked is never asked. `tag`, the tag the page
 * formats with, is handed to the wallets the page itself opens (the devnet wallet).
 */
export function createWalletSession(deployment: PinnedDeployment, baseUrl = '', tag = 'en'): WalletSession {
  let stack: Promise<WagmiWallets> | null = null
  const wallets = () =>
    (stack ??= (import(/* @vite-ignore */ __SVC_WALLET_STACK_URL__) as Promise<typeof import('./wagmiWallets')>).then(({ createWagmiWallets }) =>
      createWagmiWallets(deployment, baseUrl, tag),
    ))
  let chosen: WalletChoice | null = null
  let provider: Eip1193Provider | null = null
  let onPinnedChain = false
  const rpc = pinnedRpcProvider({ urls: deployment.rpcUrls, chainId: deployment.chainId })

  /** The connected wallet and its account now: a payer who switched accounts signs as the new one,
   * which the flow has already been told of. */
  async function signer() {
    const connection = (await wallets()).connection()
    if (!provider || !connection) throw notConnected()
    return { provider, owner: connection.owner }
  }

  /** Subscribes once the stack has loaded; the returned function also stops a subscription not yet made. */
  function whenLoaded(subscribe: (loaded: WagmiWallets) => () => void): () => void {
    let stop: (() => void) | null = null
    let stopped = false
    void wallets().then((loaded) => {
      if (!stopped) stop = subscribe(loaded)
    })
    return () => {
      stopped = true
      stop?.()
    }
  }

  return {
    knownChoices: knownChoices(deployment, baseUrl, tag),
    choose(choice) {
      chosen = choice
    },
    watchChoices: (onChange) => whenLoaded((loaded) => loaded.watchChoices(onChange)),
    watchConnection: (onChange) => whenLoaded((loaded) => loaded.watchConnection(onChange)),
    wallet: {
      async connect() {
        if (!chosen) throw new WalletError('WALLET_NOT_CHOSEN', 'no wallet chosen: choose a wallet before connecting')
        const loaded = await wallets()
        const owner = await loaded.connect(chosen)
        provider = await loaded.provider()
        onPinnedChain = false
        return owner
      },
      async chainId() {
        const connection = (await wallets()).connection()
        if (!connection) throw notConnected()
        onPinnedChain = connection.chainId === deployment.chainId
        return connection.chainId
      },
      switchChain: async () => (await wallets()).switchToPinnedChain(),
      async signTypedData(typedData) {
        const { provider, owner } = await signer()
        return (await provider.request({ method: 'eth_signTypedData_v4', params: [owner, permitTypedDataJson(typedData)] })) as Hex
      },
      async signUserOperation({ userOp, payment }) {
        const { provider, owner } = await signer()
        // a host page's wallet signs only after the host has verified the whole operation itself and
        // built the message from it
        if (chosen?.kind === 'bridged') return (await provider.request({ method: bridgedSignUserOperation, params: [toWireUserOp(userOp), owner] })) as Hex
        const typedData = typedDataJson(paymentTypedData(deployment.chainId, payment))
        return (await provider.request({ method: 'eth_signTypedData_v4', params: [owner, typedData] })) as Hex
      },
      sendsTransactions: () => chosen?.kind !== 'bridged' && chosen?.kind !== 'devnet',
      async sendToVault(transfer) {
        const { provider, owner } = await signer()
        return sendToVault(provider, owner, transfer)
      },
      async invoiceOf(id) {
        return readInvoice((await signer()).provider, deployment, id)
      },
      async capabilities(account) {
        return readWalletCapabilities((await signer()).provider, account, deployment.chainId)
      },
      async sendCalls({ from, calls, sponsored }) {
        // the companion server's paymaster service, as an absolute URL: the wallet fetches it, not this page
        const paymasterServiceUrl = sponsored === false ? null : new URL(`${baseUrl}/v1/paymaster`, location.href).href
        // fetched when the payer presses Pay, as the flow's part of it is
        const { sendPaymentCalls } = await import('./sendPaymentCalls')
        // a wallet that names no batch is followed on the chain alone, as every batch is in the end
        return (await sendPaymentCalls((await signer()).provider, { from, chainId: deployment.chainId, calls, paymasterServiceUrl })) ?? ''
      },
      async callsStatus(id) {
        const { readCallsStatus } = await import('./readCallsStatus')
        return readCallsStatus((await signer()).provider, id)
      },
    },
    chain: createChainReader(deployment, () => (provider && onPinnedChain ? [rpc, provider] : [rpc])),
  }
}
