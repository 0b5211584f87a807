import { hexToNumber, type Hex, type TypedDataDefinition } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { DevnetWalletKey } from '../../shared/devnetWalletKey'
import type { Eip1193Provider } from '../../shared/eip1193'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import { pinned } from '../config/pinned'
import { devnetWalletRequestEvent, type DevnetWalletRequest, type DevnetWalletRequestDetail } from './devnetWalletRequest'
import { describeSignature, describeTransaction } from './devnetWalletScreen'
import { WalletError } from './walletError'

/** Asks the payer about one request; false is a rejection. */
export type DevnetWalletApproval = (request: DevnetWalletRequest) => Promise<boolean>

/** Shows the request on the page (the prompt answers) as a wallet's own window would: the payer sees
 * what is signed and approves or rejects it. No prompt on the page rejects: nothing is signed unseen. */
export const approveOnPage: DevnetWalletApproval = (request) =>
  new Promise((resolve) => {
    const detail: DevnetWalletRequestDetail = { request, respond: resolve }
    const event = new CustomEvent(devnetWalletRequestEvent, { detail, cancelable: true })
    // the prompt cancels the event to say it shows it
    if (globalThis.dispatchEvent(event)) resolve(false)
  })

const rejected = () => Object.assign(new Error('the payer rejected the request in the devnet wallet'), { code: 4001 })

/** A burner wallet for the local devnet only: it signs with the demo payer's well-known key, which
 * the devnet server hands out, and sends every other request to the devnet's node. Loaded on demand
 * (it bundles an elliptic-curve library), and never offered on a real chain. The page opens it with
 * the tag it formats with (`tag`): the wallet writes amounts and moments as the page does. */
export async function openDevnetWallet(baseUrl: string, tag: string, fetch: typeof globalThis.fetch = globalThis.fetch.bind(globalThis)): Promise<Eip1193Provider> {
  const answer = await fetch(`${baseUrl}/devnet/wallet`, { headers: { accept: 'application/json' } })
  if (!answer.ok) throw new WalletError('DEVNET_WALLET_UNAVAILABLE', `the devnet wallet is not available here (HTTP ${answer.status}): it exists only on a page npm start serves; choose another wallet`)
  return devnetWalletProvider((await answer.json()) as DevnetWalletKey, fetch, approveOnPage, { deployment: pinned, tag })
}

/** What the wallet knows to render a request: the pinned token and vault factory. */
export type DevnetWalletKnowledge = Pick<PinnedDeployment, 'chainId' | 'token' | 'tokenSymbol' | 'tokenDecimals' | 'vaultFactory'>

/** `approve`: asked before each signature and transaction, shown as `deployment`'s descriptors render
 * it, amounts and moments written as a page formatting with `tag` writes them (English's without it);
 * without `approve` (a test's wallet) it signs unasked. */
export function devnetWalletProvider(
  { privateKey, rpcUrl }: DevnetWalletKey,
  fetch: typeof globalThis.fetch,
  approve?: DevnetWalletApproval,
  { deployment = pinned, tag = 'en' }: { deployment?: DevnetWalletKnowledge; tag?: string } = {},
): Eip1193Provider {
  const account = privateKeyToAccount(privateKey)
  let id = 0
  async function node(method: string, params: readonly unknown[] = []) {
    const answer = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    })
    const { result, error } = (await answer.json()) as { result?: unknown; error?: { code: number; message: string } }
    if (error) throw Object.assign(new Error(error.message), { code: error.code })
    return result
  }
  return {
    async request({ method, params = [] }) {
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return [account.address]
        case 'wallet_switchEthereumChain': {
          const wanted = hexToNumber((params[0] as { chainId: Hex }).chainId)
          if (wanted === hexToNumber((await node('eth_chainId')) as Hex)) return null
          throw Object.assign(new Error(`the devnet wallet only knows chain ${wanted}`), { code: 4902 })
        }
        case 'eth_signTypedData_v4': {
          const typedData = typedDataOf(params[1] as string)
          if (approve && !(await approve(await describeSignature(params[1] as string, deployment, account.address, node, tag)))) throw rejected()
          return account.signTypedData(typedData)
        }
        case 'eth_sendTransaction':
          if (approve && !(await approve(describeTransaction(params[0] as Record<string, unknown>)))) throw rejected()
          return node(method, params)
        default:
          return node(method, params)
      }
    },
  }
}

/** eth_signTypedData_v4 carries JSON, integers as strings: back to what viem hashes. Flat structs
 * (a permit, the vault's Payment) are all a payment signs. */
function typedDataOf(json: string): TypedDataDefinition {
  const { types, primaryType, domain, message } = JSON.parse(json) as {
    types: Record<string, { name: string; type: string }[]>
    primaryType: string
    domain: TypedDataDefinition['domain']
    message: Record<string, unknown>
  }
  const { EIP712Domain: _, ...structs } = types
  const fields = structs[primaryType] ?? []
  const typed = Object.fromEntries(
    Object.entries(message).map(([name, value]) => {
      const type = fields.find((field) => field.name === name)?.type ?? ''
      return [name, /^u?int\d*$/.test(type) ? BigInt(value as string) : value]
    }),
  )
  return { types: structs, primaryType, domain, message: typed } as unknown as TypedDataDefinition
}
