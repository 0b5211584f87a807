import { getAddress, slice, type Address, type Hex } from 'viem'
import { decodeCall, encodeCall } from './abiCall'
import { callSelector } from './staticAbiCall'
import { CodedError } from './codedError'

/** The merchant vault's six operations (contracts/MerchantVault.sol): the only calls its operations
 * may make. Fragments only, so a client bundles these rather than the contract's whole ABI. */
export const merchantVaultCallAbi = {
  issueInvoice: {
    type: 'function',
    name: 'issueInvoice',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'registry', type: 'address' },
      { name: 'token', type: 'address' },
      { name: 'amount', type: 'uint256' },
      { name: 'dueAt', type: 'uint64' },
      { name: 'metaHash', type: 'bytes32' },
      { name: 'uri', type: 'string' },
    ],
    outputs: [{ name: 'id', type: 'uint256' }],
  },
  cancelInvoice: {
    type: 'function',
    name: 'cancelInvoice',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'registry', type: 'address' },
      { name: 'invoice', type: 'uint256' },
    ],
    outputs: [],
  },
  refundInvoice: {
    type: 'function',
    name: 'refundInvoice',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'registry', type: 'address' },
      { name: 'invoice', type: 'uint256' },
      { name: 'payer', type: 'address' },
      { name: 'token', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [],
  },
  withdraw: {
    type: 'function',
    name: 'withdraw',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'token', type: 'address' },
      { name: 'amount', type: 'uint256' },
      { name: 'to', type: 'address' },
    ],
    outputs: [],
  },
  startSession: {
    type: 'function',
    name: 'startSession',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'signer', type: 'address' },
      { name: 'registry', type: 'address' },
      { name: 'sessionUntil', type: 'uint48' },
    ],
    outputs: [],
  },
  endSession: { type: 'function', name: 'endSession', stateMutability: 'nonpayable', inputs: [], outputs: [] },
} as const

/** One of the merchant vault's operations, as its call names it. */
export type MerchantVaultCall =
  | { kind: 'Issue'; registry: Address; token: Address; amount: bigint; dueAt: bigint; metaHash: Hex; tokenURI: string }
  | { kind: 'Cancel'; registry: Address; invoice: bigint }
  | { kind: 'Refund'; registry: Address; invoice: bigint; payer: Address; token: Address; amount: bigint }
  | { kind: 'Withdrawal'; token: Address; amount: bigint; to: Address }
  | { kind: 'StartSession'; signer: Address; registry: Address; sessionUntil: bigint }
  | { kind: 'EndSession' }

export type MerchantVaultCallKind = MerchantVaultCall['kind']

export class MerchantVaultCallError extends CodedError {
  override name = 'MerchantVaultCallError'
  readonly code = 'MERCHANT_CALL_UNKNOWN'
}

/** The vault's call for `call`: what the operation's callData is. */
export function encodeMerchantVaultCall(call: MerchantVaultCall): Hex {
  switch (call.kind) {
    case 'Issue':
      return encodeCall(merchantVaultCallAbi.issueInvoice, [call.registry, call.token, call.amount, call.dueAt, call.metaHash, call.tokenURI])
    case 'Cancel':
      return encodeCall(merchantVaultCallAbi.cancelInvoice, [call.registry, call.invoice])
    case 'Refund':
      return encodeCall(merchantVaultCallAbi.refundInvoice, [call.registry, call.invoice, call.payer, call.token, call.amount])
    case 'Withdrawal':
      return encodeCall(merchantVaultCallAbi.withdraw, [call.token, call.amount, call.to])
    case 'StartSession':
      return encodeCall(merchantVaultCallAbi.startSession, [call.signer, call.registry, Number(call.sessionUntil)])
    case 'EndSession':
      return encodeCall(merchantVaultCallAbi.endSession, [])
  }
}

/** The one reading of a merchant vault operation's callData, in bytes that re-encode to themselves
 * (ABI decoding tolerates trailing bytes, which would carry what no check saw). Throws
 * MerchantVaultCallError for anything else. */
export function decodeMerchantVaultCall(callData: Hex): MerchantVaultCall {
  const call = decodeKnown(callData)
  if (!call || encodeMerchantVaultCall(call) !== callData.toLowerCase()) {
    throw new MerchantVaultCallError(`the callData (${callData.length >= 10 ? slice(callData, 0, 4) : callData}) is none of the merchant vault's operations, exactly encoded`)
  }
  return call
}

function decodeKnown(callData: Hex): MerchantVaultCall | null {
  if (callData.length < 10) return null
  const selector = slice(callData, 0, 4)
  const abi = merchantVaultCallAbi
  try {
    if (selector === callSelector(abi.issueInvoice)) {
      const [registry, token, amount, dueAt, metaHash, tokenURI] = decodeCall(abi.issueInvoice, callData)
      return { kind: 'Issue', registry: getAddress(registry), token: getAddress(token), amount, dueAt, metaHash, tokenURI }
    }
    if (selector === callSelector(abi.cancelInvoice)) {
      const [registry, invoice] = decodeCall(abi.cancelInvoice, callData)
      return { kind: 'Cancel', registry: getAddress(registry), invoice }
    }
    if (selector === callSelector(abi.refundInvoice)) {
      const [registry, invoice, payer, token, amount] = decodeCall(abi.refundInvoice, callData)
      return { kind: 'Refund', registry: getAddress(registry), invoice, payer: getAddress(payer), token: getAddress(token), amount }
    }
    if (selector === callSelector(abi.withdraw)) {
      const [token, amount, to] = decodeCall(abi.withdraw, callData)
      return { kind: 'Withdrawal', token: getAddress(token), amount, to: getAddress(to) }
    }
    if (selector === callSelector(abi.startSession)) {
      const [signer, registry, sessionUntil] = decodeCall(abi.startSession, callData)
      return { kind: 'StartSession', signer: getAddress(signer), registry: getAddress(registry), sessionUntil: BigInt(sessionUntil) }
    }
    if (selector === callSelector(abi.endSession)) return { kind: 'EndSession' }
  } catch {
    return null
  }
  return null
}
