import { decodeAbiParameters, size, slice, type Address, type Hex } from 'viem'
import { decodeCall } from '../../shared/abiCall'

/** One call a smart account makes on its own behalf. */
export type AccountCall = { to: Address; value: bigint; data: Hex }

/** The account kinds whose batches the paymaster service reads. */
export type AccountKind = 'simpleAccountV07' | 'simpleAccountV06' | 'erc7579' | 'coinbaseSmartWallet'

export type DecodedAccountCalls = { kind: AccountKind; calls: AccountCall[] }

const callTuple = {
  type: 'tuple[]',
  components: [
    { name: 'target', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
  ],
} as const

/** eth-infinitism SimpleAccount 0.7.0 (and the accounts built on it): an empty `value` means none. */
const simpleAccountV07Batch = {
  type: 'function',
  name: 'executeBatch',
  stateMutability: 'nonpayable',
  inputs: [
    { name: 'dest', type: 'address[]' },
    { name: 'value', type: 'uint256[]' },
    { name: 'func', type: 'bytes[]' },
  ],
  outputs: [],
} as const

/** eth-infinitism SimpleAccount 0.6.0: no values, every call sends none. */
const simpleAccountV06Batch = {
  type: 'function',
  name: 'executeBatch',
  stateMutability: 'nonpayable',
  inputs: [
    { name: 'dest', type: 'address[]' },
    { name: 'func', type: 'bytes[]' },
  ],
  outputs: [],
} as const

/** Coinbase Smart Wallet (and Base Account): `executeBatch(Call[])`. */
const coinbaseBatch = {
  type: 'function',
  name: 'executeBatch',
  stateMutability: 'payable',
  inputs: [{ name: 'calls', ...callTuple }],
  outputs: [],
} as const

/** ERC-7579 `execute(ModeCode, executionCalldata)`. */
const erc7579Execute = {
  type: 'function',
  name: 'execute',
  stateMutability: 'payable',
  inputs: [
    { name: 'mode', type: 'bytes32' },
    { name: 'executionCalldata', type: 'bytes' },
  ],
  outputs: [],
} as const

/** ERC-7579 mode: call type 0x01 (batch), exec type 0x00 (revert on any failure: all or nothing),
 * then four unused bytes, the default mode selector (zero) and an empty payload. */
const erc7579AtomicBatchMode: Hex = `0x0100${'00'.repeat(30)}`

type Decoder = (callData: Hex) => AccountCall[]

const decoders: Record<AccountKind, Decoder> = {
  simpleAccountV07(callData) {
    const [dest, value, func] = decodeCall(simpleAccountV07Batch, callData)
    // the account itself reverts on mismatched lengths; read as it would run, or not at all
    if (dest.length !== func.length || (value.length !== 0 && value.length !== func.length)) throw new Error('mismatched lengths')
    return dest.map((to, index) => ({ to, value: value[index] ?? 0n, data: func[index]! }))
  },
  simpleAccountV06(callData) {
    const [dest, func] = decodeCall(simpleAccountV06Batch, callData)
    if (dest.length !== func.length) throw new Error('mismatched lengths')
    return dest.map((to, index) => ({ to, value: 0n, data: func[index]! }))
  },
  coinbaseSmartWallet(callData) {
    const [calls] = decodeCall(coinbaseBatch, callData)
    return calls.map(({ target, value, data }) => ({ to: target, value, data }))
  },
  erc7579(callData) {
    const [mode, executionCalldata] = decodeCall(erc7579Execute, callData)
    // a single call, a delegatecall or a "try" batch is not the all-or-nothing batch a payment is
    if (mode.toLowerCase() !== erc7579AtomicBatchMode) throw new Error('not an atomic batch')
    const [calls] = decodeAbiParameters([callTuple], executionCalldata)
    return calls.map(({ target, value, data }) => ({ to: target, value, data }))
  },
}

/**
 * The calls an operation's callData makes, for the account kinds the paymaster service knows, or
 * null: another function, another mode, or bytes that do not decode as the kind they claim to be.
 * The kinds' selectors differ, so at most one of them reads any callData.
 */
export function decodeAccountCalls(callData: Hex): DecodedAccountCalls | null {
  if (size(callData) < 4) return null
  for (const kind of Object.keys(decoders) as AccountKind[]) {
    try {
      return { kind, calls: decoders[kind](callData) }
    } catch {
      // not this kind: try the next
    }
  }
  return null
}

/** The selector the callData calls, for a refusal's details. */
export const selectorOf = (callData: Hex): Hex | null => (size(callData) >= 4 ? slice(callData, 0, 4) : null)
