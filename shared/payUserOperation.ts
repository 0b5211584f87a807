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

/** The one operation a payment is: the payer vault calls registry.pay with the owner's permit (after
 * taking what it lacks from the owner's account, when funded), sponsored by the paymaster. */
export function payUserOperation(p: PayUserOperationParameters): UserOperation<'0.7'> {
  return {
    sender: p.vault,
    nonce: p.nonce,
    ...(p.vaultDeployed ? {} : { factory: p.deployment.vaultFactory, factoryData: encodeCreateVault(p.owner) }),
    callData: p.funding
      ? encodeFundedPayCallData({ token: p.deployment.token, registry: p.deployment.registry, invoiceId: p.invoiceId, permit: p.permit, funding: p.funding })
      : encodePayCallData({ registry: p.deployment.registry, invoiceId: p.invoiceId, permit: p.permit }),
    ...p.gas,
    paymaster: p.deployment.paymaster,
    paymasterData: p.paymasterData,
    signature: p.signature,
  }
}
