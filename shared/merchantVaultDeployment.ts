import { getAddress, type Address, type Hex } from 'viem'
import { encodeCall } from './abiCall'
import { encodeMerchantVaultCall, type MerchantVaultCall } from './merchantVaultCall'
import { decodeCreateVault, reencodes } from './payCall'
import type { WireUserOp } from './userOpWire'
import { vaultFactoryAbi } from './vaultFactoryAbi'

/**
 * What the vault's first operation calls. The vault validates only its owner's typed messages, one
 * per operation it makes, and an operation that calls nothing has none: so the deployment carries a
 * withdrawal of nothing (0 of the token) to the owner, which moves nothing and which the owner's
 * wallet shows in words like any other withdrawal (clear-signing/ describes it), never a bare hash.
 */
export function deploymentCall(token: Address, owner: Address): Extract<MerchantVaultCall, { kind: 'Withdrawal' }> {
  return { kind: 'Withdrawal', token: getAddress(token), amount: 0n, to: getAddress(owner) }
}

/** MerchantVaultFactory's createAccount and getAddress by name, for a wallet's reads and calls: the
 * payer's vault factory's own fragments (shared/vaultFactoryAbi.ts), which it shares, salt and all. */
export const merchantVaultFactoryCallAbi = { createAccount: vaultFactoryAbi[0], getAddress: vaultFactoryAbi[1] } as const

/** The factory's createAccount(owner, salt), the operation's factoryData. */
export function createVaultFactoryData(owner: Address, salt: bigint): Hex {
  return encodeCall(merchantVaultFactoryCallAbi.createAccount, [owner, salt])
}

/** Reads factoryData as createAccount(owner, salt), exactly encoded (no trailing bytes); null for anything else. */
export function readCreateVaultFactoryData(factoryData: Hex): { owner: Address; salt: bigint } | null {
  try {
    const created = decodeCreateVault(factoryData)
    return reencodes(() => createVaultFactoryData(created.owner, created.salt), factoryData) ? created : null
  } catch {
    return null
  }
}

/** Whether callData is exactly the deployment's no-op withdrawal to `owner`. */
export function isDeploymentCallData(callData: Hex, token: Address, owner: Address): boolean {
  return callData.toLowerCase() === encodeMerchantVaultCall(deploymentCall(token, owner)).toLowerCase()
}

export type VaultDeploymentParameters = {
  /** The deployment's MerchantVaultFactory. */
  factory: Address
  /** The factory's getAddress(owner, salt): where the vault will be. */
  vault: Address
  /** The owner's wallet address: the only signer of the vault's operations. */
  owner: Address
  /** The deployment's stablecoin (the no-op withdrawal names it). */
  token: Address
  salt?: bigint
}

/**
 * The unsigned operation that deploys a merchant vault (SPEC 4.3), as a wallet sends it to
 * POST /v1/studios/prepare: the factory's createAccount as initCode, the no-op withdrawal as its
 * call, nonce 0 under the owner's key, and no gas or paymaster fields: prepare answers those, and the
 * owner signs the typed message prepare returns with them in place.
 */
export function unsignedVaultDeployment({ factory, vault, owner, token, salt = 0n }: VaultDeploymentParameters): WireUserOp {
  return {
    sender: getAddress(vault),
    nonce: '0',
    factory: getAddress(factory),
    factoryData: createVaultFactoryData(owner, salt),
    callData: encodeMerchantVaultCall(deploymentCall(token, owner)),
    callGasLimit: '0',
    verificationGasLimit: '0',
    preVerificationGas: '0',
    maxFeePerGas: '0',
    maxPriorityFeePerGas: '0',
    signature: '0x',
  }
}
