import type { Address, Hex } from 'viem'
import type { FundedPayCall } from './fundedPayCall'
import type { PayCall } from './payCall'

/**
 * What the payer's wallet shows and signs for a payment operation (contracts/PayerVault.sol checks
 * exactly this, and the ERC-7730 descriptor in clear-signing/ describes it for clear-signing wallets): the invoice, who is
 * paid, in which token and how much, how much of it comes from the payer's own account, the vault
 * that pays, the last second it is good for, and the operation itself (its userOpHash), so that the
 * signature authorises nothing else.
 */
export const paymentTypes = {
  Payment: [
    { name: 'invoice', type: 'uint256' },
    { name: 'merchant', type: 'address' },
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'fromWallet', type: 'uint256' },
    { name: 'vault', type: 'address' },
    { name: 'validUntil', type: 'uint256' },
    { name: 'operation', type: 'bytes32' },
  ],
} as const

/** The vault's EIP-712 domain: each vault is its own verifying contract. */
export const paymentDomainName = 'svc-checkout vault'
export const paymentDomainVersion = '2'

export type PaymentMessage = {
  invoice: bigint
  merchant: Address
  token: Address
  amount: bigint
  fromWallet: bigint
  vault: Address
  validUntil: bigint
  operation: Hex
}

/** The message of the payment `call` makes from `vault` in the operation `userOpHash`. */
export function paymentMessage(call: PayCall | FundedPayCall, vault: Address, userOpHash: Hex): PaymentMessage {
  return {
    invoice: call.invoiceId,
    merchant: call.merchant,
    token: call.token,
    amount: call.amount,
    fromWallet: 'funding' in call ? call.funding.amount : 0n,
    vault,
    validUntil: call.permit.deadline,
    operation: userOpHash,
  }
}

export function paymentTypedData(chainId: number, message: PaymentMessage) {
  return {
    domain: { name: paymentDomainName, version: paymentDomainVersion, chainId, verifyingContract: message.vault },
    types: paymentTypes,
    primaryType: 'Payment' as const,
    message,
  }
}
