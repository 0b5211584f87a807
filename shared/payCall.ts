import { decodeFunctionData, encodeFunctionData, getAddress, type Address, type Hex } from 'viem'
import { CodedError } from './codedError'

/** Only the fragments a payment uses: the widget bundles these, not the full contract ABIs. */
export const vaultExecuteAbi = [
  {
    type: 'function',
    name: 'execute',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'dest', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'func', type: 'bytes' },
    ],
    outputs: [],
  },
] as const

export const registryPayAbi = [
  {
    type: 'function',
    name: 'pay',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'id', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
      { name: 'v', type: 'uint8' },
      { name: 'r', type: 'bytes32' },
      { name: 's', type: 'bytes32' },
    ],
    outputs: [],
  },
] as const

export const vaultFactoryAbi = [
  {
    type: 'function',
    name: 'createAccount',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'owner', type: 'address' },
      { name: 'salt', type: 'uint256' },
    ],
    outputs: [{ name: 'vault', type: 'address' }],
  },
  {
    type: 'function',
    name: 'getAddress',
    stateMutability: 'view',
    inputs: [
      { name: 'owner', type: 'address' },
      { name: 'salt', type: 'uint256' },
    ],
    outputs: [{ type: 'address' }],
  },
] as const

/** Every payer vault is the owner's vault at salt 0: one owner, one vault, one address to fund. */
export const vaultSalt = 0n

export type PermitSignature = { deadline: bigint; v: number; r: Hex; s: Hex }

export type PayCall = { registry: Address; value: bigint; invoiceId: bigint; permit: PermitSignature }

/** vault.execute(registry, 0, registry.pay(id, deadline, v, r, s)): the only call a payment makes. */
export function encodePayCallData({ registry, invoiceId, permit }: Omit<PayCall, 'value'>): Hex {
  const pay = encodeFunctionData({
    abi: registryPayAbi,
    functionName: 'pay',
    args: [invoiceId, permit.deadline, permit.v, permit.r, permit.s],
  })
  return encodeFunctionData({ abi: vaultExecuteAbi, functionName: 'execute', args: [registry, 0n, pay] })
}

/** Throws when callData is anything but a single execute wrapping a registry pay. */
export function decodePayCallData(callData: Hex): PayCall {
  const outer = decodeFunctionData({ abi: vaultExecuteAbi, data: callData })
  const [registry, value, inner] = outer.args
  const pay = decodeFunctionData({ abi: registryPayAbi, data: inner })
  const [invoiceId, deadline, v, r, s] = pay.args
  return { registry: getAddress(registry), value, invoiceId, permit: { deadline, v, r, s } }
}

export function encodeCreateVault(owner: Address): Hex {
  return encodeFunctionData({ abi: vaultFactoryAbi, functionName: 'createAccount', args: [owner, vaultSalt] })
}

/** factoryData that calls the vault factory, but not to create a vault: the operation is not ours. */
export class FactoryCallError extends CodedError {
  override name = 'FactoryCallError'
  readonly code = 'FACTORY_CALL_UNEXPECTED'
}

export function decodeCreateVault(factoryData: Hex): { owner: Address; salt: bigint } {
  const { functionName, args } = decodeFunctionData({ abi: vaultFactoryAbi, data: factoryData })
  if (functionName !== 'createAccount') throw new FactoryCallError(`the factory call is ${functionName}, not createAccount: this operation does not create a vault`)
  return { owner: getAddress(args[0]), salt: args[1] }
}
