import { encodeFunctionData, parseAbi, type Hex } from 'viem'
import { getUserOperationHash, toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'

const accountV07Abi = parseAbi([
  'struct PackedUserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; bytes32 accountGasLimits; uint256 preVerificationGas; bytes32 gasFees; bytes paymasterAndData; bytes signature; }',
  'function validateUserOp(PackedUserOperation userOp, bytes32 userOpHash, uint256 missingAccountFunds) returns (uint256 validationData)',
])
const accountV06Abi = parseAbi([
  'struct UserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; uint256 callGasLimit; uint256 verificationGasLimit; uint256 preVerificationGas; uint256 maxFeePerGas; uint256 maxPriorityFeePerGas; bytes paymasterAndData; bytes signature; }',
  'function validateUserOp(UserOperation userOp, bytes32 userOpHash, uint256 missingAccountFunds) returns (uint256 validationData)',
])

export type ValidateUserOpCallParameters =
  | { version: '0.7'; userOp: UserOperation<'0.7'>; chainId: number; entryPoint: Hex }
  | { version: '0.6'; userOp: UserOperation<'0.6'>; chainId: number; entryPoint: Hex }

/** The call an EntryPoint makes to an account to validate `userOp`, with nothing owed to it: what is
 * simulated to measure the account's validation. */
export function validateUserOpCall(parameters: ValidateUserOpCallParameters): Hex {
  const { chainId, entryPoint } = parameters
  if (parameters.version === '0.6') {
    const { userOp } = parameters
    const userOpHash = getUserOperationHash({ chainId, entryPointAddress: entryPoint, entryPointVersion: '0.6', userOperation: userOp })
    const struct = { ...userOp, initCode: userOp.initCode ?? '0x', paymasterAndData: userOp.paymasterAndData ?? '0x' }
    return encodeFunctionData({ abi: accountV06Abi, functionName: 'validateUserOp', args: [struct, userOpHash, 0n] })
  }
  const { userOp } = parameters
  const userOpHash = getUserOperationHash({ chainId, entryPointAddress: entryPoint, entryPointVersion: '0.7', userOperation: userOp })
  return encodeFunctionData({ abi: accountV07Abi, functionName: 'validateUserOp', args: [toPackedUserOperation(userOp), userOpHash, 0n] })
}
