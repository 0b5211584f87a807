import { getAddress, type Address, type Hex } from 'viem'
import type { FundedPayCall } from '../../shared/fundedPayCall'
import type { PayCall } from '../../shared/payCall'
import { paymentMessage, paymentTypedData } from '../../shared/paymentMessage'

/** What the verifiers established of a prepared payment: the call as decoded from the operation and
 * held to the chain's invoice and the pinned deployment, the vault read from the chain, the pinned
 * chain and the userOpHash computed here. Nothing the server states. */
export type VerifiedPayment = {
  call: PayCall | FundedPayCall
  vault: Address
  chainId: number
  userOpHash: Hex
}

export type VerifiedPaymentMessageReturnType = ReturnType<typeof paymentTypedData>

/**
 * The Payment typed data the owner's wallet signs (eth_signTypedData_v4) for a verified operation: the
 * invoice, merchant, token and amount the call names (the on-chain invoice's, once verified), what it
 * takes from the payer's wallet, the vault, the permit's deadline and the operation's hash. Built
 * from `verified` alone, so the wallet shows what the vault will be held to and nothing a server said.
 */
export function verifiedPaymentMessage({ call, vault, chainId, userOpHash }: VerifiedPayment): VerifiedPaymentMessageReturnType {
  return paymentTypedData(chainId, paymentMessage(call, getAddress(vault), userOpHash))
}
