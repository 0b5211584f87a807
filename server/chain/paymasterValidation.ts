import { parseAbi, type PublicClient } from 'viem'
import { getUserOperationHash, toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import type { Deployment } from '../../shared/deployment'
import type { SponsorshipWindow } from '../../shared/verifyingPaymaster'
import { revertOf } from './chainErrors'

/** IPaymaster (EntryPoint v0.7): what every paymaster answers, whatever its paymasterData layout. */
const paymasterAbi = parseAbi([
  'struct PackedUserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; bytes32 accountGasLimits; uint256 preVerificationGas; bytes32 gasFees; bytes paymasterAndData; bytes signature; }',
  'function validatePaymasterUserOp(PackedUserOperation userOp, bytes32 userOpHash, uint256 maxCost) returns (bytes context, uint256 validationData)',
])

const uint48Mask = (1n << 48n) - 1n
const addressMask = (1n << 160n) - 1n

/** What the paymaster says of a sponsored operation: `accepted` when it neither reverted nor failed
 * its own signature check (nor named an aggregator, which a paymaster may not); the window as the
 * EntryPoint would enforce it, validUntil 0 meaning never expires. */
export type PaymasterValidation = { accepted: false; reason: string } | { accepted: true; window: SponsorshipWindow }

/** The EntryPoint's prefund for the operation (EntryPoint v0.7 _getRequiredPrefund): the most the
 * paymaster can be charged, which a paymaster may weigh. */
function requiredPrefund(userOp: UserOperation<'0.7'>): bigint {
  const gas =
    userOp.verificationGasLimit +
    userOp.callGasLimit +
    (userOp.paymasterVerificationGasLimit ?? 0n) +
    (userOp.paymasterPostOpGasLimit ?? 0n) +
    userOp.preVerificationGas
  return gas * userOp.maxFeePerGas
}

/**
 * Asks the paymaster itself, as the EntryPoint does during validation (an eth_call from the
 * EntryPoint's address), what it makes of the operation: a third party's paymasterData is read by
 * its own contract, never decoded here by a layout we would have to guess.
 */
export async function readPaymasterValidation(client: PublicClient, deployment: Deployment, userOp: UserOperation<'0.7'>): Promise<PaymasterValidation> {
  if (!userOp.paymaster) return { accepted: false, reason: 'the operation has no paymaster' }
  const userOpHash = getUserOperationHash({ chainId: deployment.chainId, entryPointAddress: deployment.entryPoint, entryPointVersion: '0.7', userOperation: userOp })
  let validationData: bigint
  try {
    const { result } = await client.simulateContract({
      account: deployment.entryPoint,
      address: userOp.paymaster,
      abi: paymasterAbi,
      functionName: 'validatePaymasterUserOp',
      args: [toPackedUserOperation(userOp), userOpHash, requiredPrefund(userOp)],
    })
    validationData = result[1]
  } catch (error) {
    const reverted = revertOf(error)
    if (reverted) return { accepted: false, reason: `the paymaster reverted: ${reverted.shortMessage}` }
    throw error
  }
  const aggregator = validationData & addressMask
  if (aggregator === 1n) return { accepted: false, reason: 'the paymaster does not accept its own signature' }
  if (aggregator !== 0n) return { accepted: false, reason: 'the paymaster named a signature aggregator' }
  return { accepted: true, window: { validUntil: Number((validationData >> 160n) & uint48Mask), validAfter: Number((validationData >> 208n) & uint48Mask) } }
}
