import { getAddress, slice, type Address, type Hex } from 'viem'
import { callSelector, decodeCall, encodeCall } from './abiCall'
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
  return encodeCall(vaultExecuteAbi[0], [registry, 0n, encodeRegistryPay(invoiceId, permit)])
}

/** registry.pay(id, deadline, v, r, s): the call a payment makes, alone or last in a funded batch. */
export function encodeRegistryPay(invoiceId: bigint, { deadline, v, r, s }: PermitSignature): Hex {
  return encodeCall(registryPayAbi[0], [invoiceId, deadline, v, r, s])
}

/** Throws when callData is anything but a single execute wrapping a registry pay. */
export function decodePayCallData(callData: Hex): PayCall {
  const [registry, value, inner] = decodeCall(vaultExecuteAbi[0], callData)
  const [invoiceId, deadline, v, r, s] = decodeCall(registryPayAbi[0], inner)
  return { registry: getAddress(registry), value, invoiceId, permit: { deadline, v, r, s } }
}

export function encodeCreateVault(owner: Address): Hex {
  return encodeCall(vaultFactoryAbi[0], [owner, vaultSalt])
}

/** factoryData that calls something other than createAccount: the operation is not ours. */
export class FactoryCallError extends CodedError {
  override name = 'FactoryCallError'
  readonly code = 'FACTORY_CALL_UNEXPECTED'
}

export function decodeCreateVault(factoryData: Hex): { owner: Address; salt: bigint } {
  const createAccount = vaultFactoryAbi[0]
  const selector = slice(factoryData, 0, 4)
  if (selector !== callSelector(createAccount)) throw new FactoryCallError(`the factory call is ${selector}, not createAccount: this operation does not create a vault`)
  const [owner, salt] = decodeCall(createAccount, factoryData)
  return { owner: getAddress(owner), salt }
}
