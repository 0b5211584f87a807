import type { Address, Hex } from 'viem'
import type { Eip1193Provider } from '../../shared/eip1193'

/** One call of an EIP-5792 batch, as `wallet_sendCalls` carries it. */
export type PaymentCall = { to: Address; data: Hex; value: Hex }

export type SendPaymentCallsParameters = {
  from: Address
  chainId: number
  calls: PaymentCall[]
  /** The checkout's ERC-7677 paymaster service, which the wallet asks to sponsor the batch; null for a
   * batch the account pays for itself (taking a stranded vault's funds back, which the service does
   * not sponsor). */
  paymasterServiceUrl: string | null
}

/** The `wallet_sendCalls` request (EIP-5792 2.0.0) for a payment: atomic or not at all, and sponsored
 * or not at all (`optional: false`: a wallet that cannot reach the paymaster refuses rather than
 * asking the payer for gas). The bridge's host rebuilds the same request to compare (embed/). */
export function sendCallsRequest({ from, chainId, calls, paymasterServiceUrl }: SendPaymentCallsParameters) {
  return {
    version: '2.0.0',
    from,
    chainId: `0x${chainId.toString(16)}`,
    atomicRequired: true,
    calls,
    capabilities: paymasterServiceUrl === null ? {} : { paymasterService: { url: paymasterServiceUrl, optional: false } },
  }
}

/** Has the wallet run the payment's calls as one batch; resolves with the batch's id, which only
 * `wallet_getCallsStatus` of the same wallet understands, or null when the wallet named none. A
 * payer's refusal throws the wallet's 4001. Loaded when the payer presses Pay: it imports nothing the
 * page's other chunks hold. */
export async function sendPaymentCalls(provider: Eip1193Provider, parameters: SendPaymentCallsParameters): Promise<string | null> {
  const answer = (await provider.request({ method: 'wallet_sendCalls', params: [sendCallsRequest(parameters)] })) as unknown
  // 2.0.0 answers { id }; wallets still on 1.0 answer the id itself
  const id = typeof answer === 'string' ? answer : typeof answer === 'object' && answer !== null ? (answer as { id?: unknown }).id : undefined
  return typeof id === 'string' && id.length > 0 && id.length <= 200 ? id : null
}
