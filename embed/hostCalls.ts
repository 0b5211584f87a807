import { getAddress, hexToNumber, isAddress, numberToHex, type Hex } from 'viem'
import type { Eip1193Provider } from '../shared/eip1193'
import type { RpcError } from '../shared/embedProtocol'
import type { PinnedDeployment } from '../shared/pinnedDeployment'
import { readInvoice } from '../src/chain/readInvoice'
import { paymentCalls, samePaymentCalls } from '../src/flow/smartWallet/paymentCalls'
import { sameAddress } from '../src/verify/sameAddress'
import { sendCallsRequest } from '../src/wallet/sendPaymentCalls'

const refused = (message: string): RpcError => ({ code: 4100, message })
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

export type CreateHostCallsParameters = {
  deployment: PinnedDeployment
  /** The invoice the host mounted, from its own mount options: never from the frame. */
  invoiceId: string
  /** The checkout's own paymaster service (its origin's /v1/paymaster): the only one the wallet is sent to. */
  paymasterServiceUrl: string
}

/**
 * The host page's side of a smart wallet's one-prompt payment (EIP-5792), with the discipline of its
 * signatures (hostSigning.ts): the host reads the invoice through its own wallet, builds the calls
 * itself (the pinned token's approval of exactly the invoice amount to the pinned registry, then the
 * registry's pay of this invoice) and relays `wallet_sendCalls` only when the frame asked for exactly
 * those, atomically, from the wallet's own account on the pinned chain, sponsored by the checkout's
 * paymaster service; the wallet is sent the request the host rebuilt, never the frame's bytes.
 * `wallet_getCallsStatus` is relayed only for batches sent that way.
 */
export function createHostCalls({ deployment, invoiceId, paymasterServiceUrl }: CreateHostCallsParameters) {
  const sent = new Set<string>()
  return {
    async sendCalls(provider: Eip1193Provider, [request]: unknown[]): Promise<unknown> {
      if (!isRecord(request) || !isRecord(request.capabilities)) throw refused('wallet_sendCalls is relayed only for this invoice\'s payment')
      const { version, from, chainId, atomicRequired, calls, capabilities } = request
      const paymaster = capabilities.paymasterService
      if (version !== '2.0.0' || atomicRequired !== true || chainId !== numberToHex(deployment.chainId) || typeof from !== 'string' || !isAddress(from)) {
        throw refused('only an atomic EIP-5792 2.0.0 batch on the checkout\'s chain is relayed')
      }
      if (Object.keys(capabilities).length !== 1 || !isRecord(paymaster) || paymaster.url !== paymasterServiceUrl || paymaster.optional !== false) {
        throw refused('the batch is sponsored by the checkout\'s own paymaster service, or not relayed')
      }
      const [accounts, walletChain] = await Promise.all([provider.request({ method: 'eth_accounts' }), provider.request({ method: 'eth_chainId' })])
      const account = Array.isArray(accounts) && typeof accounts[0] === 'string' ? accounts[0] : null
      if (!account || !sameAddress(account, from)) throw refused('the batch is not from the wallet\'s account')
      if (hexToNumber(walletChain as Hex) !== deployment.chainId) throw refused(`the wallet is not on the checkout's chain ${deployment.chainId}`)
      const id = BigInt(invoiceId)
      const record = await readInvoice(provider, deployment, id)
      if (!record || record.status !== 1 || !sameAddress(record.token, deployment.token)) throw refused(`invoice ${invoiceId} is not open on-chain in the pinned token`)
      const expected = paymentCalls({ deployment, invoiceId: id, amount: record.amount })
      if (!samePaymentCalls(calls, expected)) throw refused('not this invoice\'s payment: the calls differ from the approval of its amount and its pay')
      const answer = await provider.request({
        method: 'wallet_sendCalls',
        params: [sendCallsRequest({ from: getAddress(account), chainId: deployment.chainId, calls: expected, paymasterServiceUrl })],
      })
      const batch = typeof answer === 'string' ? answer : isRecord(answer) ? answer.id : undefined
      if (typeof batch === 'string') sent.add(batch)
      return answer
    },

    async callsStatus(provider: Eip1193Provider, [batch]: unknown[]): Promise<unknown> {
      if (typeof batch !== 'string' || !sent.has(batch)) throw refused('wallet_getCallsStatus is relayed only for a batch this host sent')
      return provider.request({ method: 'wallet_getCallsStatus', params: [batch] })
    },
  }
}
