import { getAddress, isAddressEqual, slice, type Address, type Hex } from 'viem'
import { decodeCall, encodeCall } from './abiCall'
import { encodeMerchantVaultCall, type MerchantVaultCall } from './merchantVaultCall'
import { callSelector } from './staticAbiCall'
import type { WireUserOp } from './userOpWire'

/** MerchantVaultFactory's createAccount and getAddress (contracts/MerchantVaultFactory.sol), the
 * fragments a wallet needs to build its vault's first operation. */
export const merchantVaultFactoryCallAbi = {
  createAccount: {
    type: 'function',
    name: 'createAccount',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'owner', type: 'address' },
      { name: 'salt', type: 'uint256' },
    ],
    outputs: [{ name: 'vault', type: 'address' }],
  },
  getAddress: {
    type: 'function',
    name: 'getAddress',
    stateMutability: 'view',
    inputs: [
      { name: 'owner', type: 'address' },
      { name: 'salt', type: 'uint256' },
    ],
    outputs: [{ type: 'address' }],
  },
} as const

/**
 * What the vault's first operation calls. The vault validates only its owner's typed messages, one
 * per operation it makes, and an operation that calls nothing has none: so the deployment carries a
 * withdrawal of nothing (0 of the token) to the owner, which moves nothing and which the owner's
 * wallet shows in words like any other withdrawal (clear-signing/ describes it), never a bare hash.
 */
export function deploymentCall(token: Address, owner: Address): Extract<MerchantVaultCall, { kind: 'Withdrawal' }> {
  return { kind: 'Withdrawal', token: getAddress(token), amount: 0n, to: getAddress(owner) }
}

/** The factory's createAccount(owner, salt), the operation's factoryData. */
export function createVaultFactoryData(owner: Address, salt: bigint): Hex {
  return encodeCall(merchantVaultFactoryCallAbi.createAccount, [owner, salt])
}

/** Reads factoryData as createAccount(owner, salt), exactly encoded; null for anything else. */
export function readCreateVaultFactoryData(factoryData: Hex): { owner: Address; salt: bigint } | null {
  try {
    if (factoryData.length < 10 || slice(factoryData, 0, 4) !== callSelector(merchantVaultFactoryCallAbi.createAccount)) return null
    const [owner, salt] = decodeCall(merchantVaultFactoryCallAbi.createAccount, factoryData)
    return createVaultFactoryData(owner, salt) === factoryData.toLowerCase() ? { owner: getAddress(owner), salt } : null
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

/** Whether `a` and `b` are one address (either may be absent). */
export const sameAddress = (a: Address | undefined, b: Address) => a !== undefined && isAddressEqual(a, b)
