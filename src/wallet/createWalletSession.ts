import { getAddress, hexToNumber, type Address, type Hex } from 'viem'
import type { PinnedDeployment } from '../config/pinnedDeployment'
import { createChainReader } from '../chain/createChainReader'
import { readInvoice } from '../chain/readInvoice'
import { pinnedRpcProvider } from '../chain/rpcProvider'
import type { PaymentChain, PaymentWallet } from '../flow/paymentFlowDeps'
import { permitTypedDataJson } from '../shared/permit'
import { toWireUserOp } from '../shared/userOpWire'
import { bridgedSignUserOperation } from '../../embed/protocol'
import type { Eip1193Provider } from './eip1193'
import { switchChain } from './switchChain'
import type { WalletChoice } from './walletChoice'

export type WalletSession = {
  wallet: PaymentWallet
  chain: PaymentChain
  /** The wallet the next `wallet.connect()` opens. */
  choose(choice: WalletChoice): void
}

/** The flow's wallet and chain, over whichever wallet the payer picks. Chain reads go through the
 * build's pinned RPC, and through the payer's own wallet once it is on the pinned chain: the server
 * whose answers are checked is never asked. */
export function createWalletSession(deployment: PinnedDeployment): WalletSession {
  let chosen: WalletChoice | null = null
  let provider: Eip1193Provider | null = null
  let account: Address | null = null
  let onPinnedChain = false
  const rpc = pinnedRpcProvider({ urls: deployment.rpcUrls, chainId: deployment.chainId })

  const connected = () => {
    if (!provider) throw new Error('no wallet connected')
    return provider
  }
  const owner = () => {
    if (!account) throw new Error('no wallet account')
    return account
  }

  return {
    choose(choice) {
      chosen = choice
    },
    wallet: {
      async connect() {
        if (!chosen) throw new Error('no wallet chosen')
        provider = await chosen.open()
        const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as string[]
        const [first] = accounts
        if (!first) throw new Error('the wallet shared no account')
        account = getAddress(first)
        onPinnedChain = false
        return account
      },
      async chainId() {
        const chainId = hexToNumber((await connected().request({ method: 'eth_chainId' })) as Hex)
        onPinnedChain = chainId === deployment.chainId
        return chainId
      },
      switchChain: () => switchChain(connected(), deployment),
      async signTypedData(typedData) {
        return (await connected().request({ method: 'eth_signTypedData_v4', params: [owner(), permitTypedDataJson(typedData)] })) as Hex
      },
      async signUserOperation({ userOp, userOpHash }) {
        // a host page's wallet signs only after the host has verified the whole operation itself
        if (chosen?.kind === 'bridged') {
          return (await connected().request({ method: bridgedSignUserOperation, params: [toWireUserOp(userOp), owner()] })) as Hex
        }
        // SimpleAccount v0.7 recovers an EIP-191 signature over the hash's 32 bytes, not over its hex text
        return (await connected().request({ method: 'personal_sign', params: [userOpHash, owner()] })) as Hex
      },
      invoiceOf: (id) => readInvoice(connected(), deployment, id),
    },
    chain: createChainReader(deployment, () => (provider && onPinnedChain ? [rpc, provider] : [rpc])),
  }
}
