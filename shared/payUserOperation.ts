import type { Address, Hex } from 'viem'
import type { UserOperation } from 'viem/account-abstraction'
import type { Deployment } from './deployment'
import { encodeFundedPayCallData, type Funding } from './fundedPayCall'
import { encodeCreateVault, encodePayCallData, type PermitSignature } from './payCall'

export type PayGas = {
  callGasLimit: bigint
  verificationGasLimit: bigint
  preVerificationGas: bigint
  paymasterVerificationGasLimit: bigint
  paymasterPostOpGasLimit: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
}

export type PayUserOperationParameters = {
  deployment: Deployment
  invoiceId: bigint
  /** What the registry holds for the invoice: the vault pays only an Issued invoice with exactly these. */
  invoiceNumber: bigint
  merchant: Address
  amount: bigint
  /** The rate the registry charges the merchant now (feeBpsFor): the vault pays only at this rate. */
  feeBps: number
  vault: Address
  owner: Address
  /** False until the vault's first operation: then the factory fields deploy it. */
  vaultDeployed: boolean
  nonce: bigint
  permit: PermitSignature
  /** When the vault lacks part of the amount: its owner's account funds it inside the same operation. */
  funding?: Funding | undefined
  gas: PayGas
  /** Until sponsorship: a well-formed placeholder of the real data's length, so estimation is honest. */
  paymasterData: Hex
  signature: Hex
}

/** The one operation a payment is: the payer vault pays the invoice through registry.pay with the
 * owner's permit (after taking what it lacks from the owner's account, when funded), sponsored by the
 * paymaster. */
export function payUserOperation(p: PayUserOperationParameters): UserOperation<'0.7'> {
  const call = {
    registry: p.deployment.registry,
    invoiceId: p.invoiceId,
    invoiceNumber: p.invoiceNumber,
    merchant: p.merchant,
    token: p.deployment.token,
    amount: p.amount,
    feeBps: p.feeBps,
    permit: p.permit,
  }
  return {
    sender: p.vault,
    nonce: p.nonce,
    ...(p.vaultDeployed ? {} : { factory: p.deployment.vaultFactory, factoryData: encodeCreateVault(p.owner) }),
    callData: p.funding
      ? encodeFundedPayCallData({ ...call, funding: { amount: p.funding.amount, permit: p.funding.permit } })
      : encodePayCallData(call),
    ...p.gas,
    paymaster: p.deployment.paymaster,
    paymasterData: p.paymasterData,
    signature: p.signature,
  }
}
