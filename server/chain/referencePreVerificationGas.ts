import { encodeAbiParameters, parseAbiParameters, type Hex } from 'viem'
import { toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import { calldataGasOf } from './intrinsicGas'

const packedV07 = parseAbiParameters('address, uint256, bytes, bytes, bytes32, uint256, bytes32, bytes, bytes')
const unpackedV06 = parseAbiParameters('address, uint256, bytes, bytes, uint256, uint256, uint256, uint256, uint256, bytes, bytes')

/**
 * The preVerificationGas of ERC-4337's reference bundler for `userOp` alone in a bundle: 21,000, 18,300
 * for the operation, and its ABI encoding at 4 gas a zero byte and 16 a non-zero one plus 4 a word.
 * The signature is counted as `signatureBytes` non-zero bytes (it is not made yet).
 */
export function referencePreVerificationGas(
  operation: { version: '0.7'; userOp: UserOperation<'0.7'> } | { version: '0.6'; userOp: UserOperation<'0.6'> },
  signatureBytes: number,
): bigint {
  const signature: Hex = `0x${'01'.repeat(signatureBytes)}`
  let encoded: Hex
  if (operation.version === '0.7') {
    const p = toPackedUserOperation({ ...operation.userOp, preVerificationGas: 21_000n, signature })
    encoded = encodeAbiParameters(packedV07, [p.sender, p.nonce, p.initCode, p.callData, p.accountGasLimits, p.preVerificationGas, p.gasFees, p.paymasterAndData, p.signature])
  } else {
    const u = operation.userOp
    encoded = encodeAbiParameters(unpackedV06, [
      u.sender,
      u.nonce,
      u.initCode ?? '0x',
      u.callData,
      u.callGasLimit,
      u.verificationGasLimit,
      21_000n,
      u.maxFeePerGas,
      u.maxPriorityFeePerGas,
      u.paymasterAndData ?? '0x',
      signature,
    ])
  }
  const bytes = BigInt((encoded.length - 2) / 2)
  return 21_000n + 18_300n + calldataGasOf(encoded) + 4n * ((bytes + 31n) / 32n)
}
