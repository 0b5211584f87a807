import { hexToBytes, type Hex } from 'viem'

/** What a transaction carrying `data` costs before it runs anything: 21,000, and 4 gas a zero byte and
 * 16 a non-zero one (EIP-2028). Taken off a simulated call's gas to leave what its code used. */
export function intrinsicGasOf(data: Hex): bigint {
  return 21_000n + calldataGasOf(data)
}

/** The calldata's own price (EIP-2028): 4 gas a zero byte, 16 a non-zero one. */
export function calldataGasOf(data: Hex): bigint {
  let gas = 0n
  for (const byte of hexToBytes(data)) gas += byte === 0 ? 4n : 16n
  return gas
}
