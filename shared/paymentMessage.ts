import type { Address, Hex } from 'viem'
import type { FundedPayCall } from './fundedPayCall'
import type { PayCall } from './payCall'

/**
 * What the payer's wallet shows and signs for a payment operation (contracts/PayerVault.sol checks
 * exactly this, and the ERC-7730 descriptor in clear-signing/ describes it for clear-signing wallets):
 * the registry it pays through, the invoice and the merchant's own number for it (what the payer knows
 * it by), who is paid, in which token and how much, the fee rate the merchant is charged (the vault
 * pays only at that rate, so a fee raised meanwhile cannot take a different share), how much comes
 * from the payer's own account, the vault that pays, the last second it is good for, and the
 * operation itself (its userOpHash), so that the signature authorises nothing else.
 */
export const paymentTypes = {
  Payment: [
    { name: 'registry', type: 'address' },
    { name: 'invoice', type: 'uint256' },
    { name: 'invoiceNumber', type: 'uint64' },
    { name: 'merchant', type: 'address' },
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'feeBps', type: 'uint16' },
    { name: 'fromWallet', type: 'uint256' },
    { name: 'vault', type: 'address' },
    { name: 'validUntil', type: 'uint256' },
    { name: 'operation', type: 'bytes32' },
  ],
} as const

/** The vault's EIP-712 domain: each vault is its own verifying contract. */
export const paymentDomainName = 'svc-checkout vault'
export const paymentDomainVersion = '3'

export type PaymentMessage = {
  registry: Address
  invoice: bigint
  invoiceNumber: bigint
  merchant: Address
  token: Address
  amount: bigint
  feeBps: number
  fromWallet: bigint
  vault: Address
  validUntil: bigint
  operation: Hex
}

/** The message of the payment `call` makes from `vault` in the operation `userOpHash`. */
export function paymentMessage(call: PayCall | FundedPayCall, vault: Address, userOpHash: Hex): PaymentMessage {
  return {
    registry: call.registry,
    invoice: call.invoiceId,
    invoiceNumber: call.invoiceNumber,
    merchant: call.merchant,
    token: call.token,
    amount: call.amount,
    feeBps: call.feeBps,
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
