import { getAddress, type Address, type Hex } from 'viem'
import { decodeCall, encodeCall } from './abiCall'
import { CodedError } from './codedError'
import { tokenPermitAbi, tokenTransferFromAbi } from './tokenAbi'
import { encodeRegistryPay, registryPayAbi, type PermitSignature } from './payCall'

/** SimpleAccount v0.7's batch: each dest called with its value and func, in order, all or nothing. */
export const vaultExecuteBatchAbi = [
  {
    type: 'function',
    name: 'executeBatch',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'dest', type: 'address[]' },
      { name: 'value', type: 'uint256[]' },
      { name: 'func', type: 'bytes[]' },
    ],
    outputs: [],
  },
] as const

/** The payer's own account lets its vault take `amount` once (the permit), and the vault takes it. */
export type Funding = { from: Address; to: Address; amount: bigint; permit: PermitSignature }

export type FundedPayCall = { token: Address; registry: Address; invoiceId: bigint; permit: PermitSignature; funding: Funding }

/** Why a callData is not exactly a funded payment; the verifier words each for the payer. */
export type FundedPayCallErrorCode = 'CALLDATA_UNDECODABLE' | 'CALL_COUNT_MISMATCH' | 'CALL_ORDER_MISMATCH' | 'CALL_VALUE_NONZERO' | 'CALLDATA_NOT_CANONICAL'

/** The code is the whole message: the verifier words it for the payer, the server only refuses. */
export class FundedPayCallError extends CodedError {
  override readonly name = 'FundedPayCallError'
  constructor(readonly code: FundedPayCallErrorCode) {
    super(code)
  }
}

/**
 * vault.executeBatch([token, token, registry], [0, 0, 0], [token.permit(account → vault, amount),
 * token.transferFrom(account → vault, amount), registry.pay(id, vault permit)]). One operation: if the
 * payment reverts, so does the transfer, and nothing is left stranded in the vault.
 */
export function encodeFundedPayCallData({ token, registry, invoiceId, permit, funding }: FundedPayCall): Hex {
  const { from, to, amount } = funding
  const { deadline, v, r, s } = funding.permit
  const fundingPermit = encodeCall(tokenPermitAbi[0], [from, to, amount, deadline, v, r, s])
  const transfer = encodeCall(tokenTransferFromAbi[0], [from, to, amount])
  const pay = encodeRegistryPay(invoiceId, permit)
  return encodeCall(vaultExecuteBatchAbi[0], [[token, token, registry], [0n, 0n, 0n], [fundingPermit, transfer, pay]])
}

/**
 * The one reading of a funded payment, for the server and the widget alike: exactly the three calls
 * above, no value sent, and bytes that re-encode to themselves. The call is read from the permit and
 * the first target alone, so a transfer on another token or of other funds than the permit allows
 * does not re-encode, and neither do trailing bytes or odd offsets (which ABI decoding tolerates).
 * Throws FundedPayCallError otherwise. Which token, registry, vault and amount are right is the
 * caller's to check.
 */
export function decodeFundedPayCallData(callData: Hex): FundedPayCall {
  const [dest, value, func] = decodeBatch(callData)
  if (dest.length !== 3 || value.length !== 3 || func.length !== 3) throw new FundedPayCallError('CALL_COUNT_MISMATCH')
  if (value.some((wei) => wei !== 0n)) throw new FundedPayCallError('CALL_VALUE_NONZERO')
  const [[from, to, amount, deadline, v, r, s], [invoiceId, payDeadline, payV, payR, payS]] = decodeCalls(func)
  const call: FundedPayCall = {
    token: getAddress(dest[0]!),
    registry: getAddress(dest[2]!),
    invoiceId,
    permit: { deadline: payDeadline, v: payV, r: payR, s: payS },
    funding: { from: getAddress(from), to: getAddress(to), amount, permit: { deadline, v, r, s } },
  }
  if (!reencodes(call, callData)) throw new FundedPayCallError('CALLDATA_NOT_CANONICAL')
  return call
}

function decodeBatch(callData: Hex) {
  try {
    return decodeCall(vaultExecuteBatchAbi[0], callData)
  } catch {
    throw new FundedPayCallError('CALLDATA_UNDECODABLE')
  }
}

/** The permit's and the payment's arguments; the transfer between them is held to the permit by
 * re-encoding, which also refuses anything else in its place. */
function decodeCalls(func: readonly Hex[]) {
  try {
    return [decodeCall(tokenPermitAbi[0], func[0]!), decodeCall(registryPayAbi[0], func[2]!)] as const
  } catch {
    throw new FundedPayCallError('CALL_ORDER_MISMATCH')
  }
}

function reencodes(call: FundedPayCall, callData: Hex): boolean {
  try {
    return encodeFundedPayCallData(call) === callData.toLowerCase()
  } catch {
    // a decoded value the ABI cannot re-encode (a v above 255, say) was never canonical
    return false
  }
}
