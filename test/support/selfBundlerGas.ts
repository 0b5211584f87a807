import type { Address, PublicClient } from 'viem'
import type { UserOperation } from 'viem/account-abstraction'
import { intrinsicGasOf } from '../../server/chain/intrinsicGas'
import { referencePreVerificationGas } from '../../server/chain/referencePreVerificationGas'
import { validateUserOpCall } from '../../server/chain/validateUserOpCall'

export type SelfBundlerGasParameters =
  | { version: '0.7'; entryPoint: Address; chainId: number; userOp: UserOperation<'0.7'> }
  | { version: '0.6'; entryPoint: Address; chainId: number; userOp: UserOperation<'0.6'> }

/**
 * Gas for a deployed account's operation as a wallet's bundler estimates it: the account's
 * validateUserOp and its calls each estimated as the EntryPoint's call (eth_estimateGas: the limit
 * that succeeds, refunds and all), less what that transaction costs by itself, with alto's
 * multipliers (verification ×1.3, call as estimated, preVerificationGas ×1.1 of ERC-4337's
 * reference) and 30,000 for the EntryPoint's own verification work (hashing the operation, the
 * nonce's first write). Placeholder signature as given.
 */
export async function selfBundlerGas(client: PublicClient, parameters: SelfBundlerGasParameters) {
  const { entryPoint, userOp } = parameters
  const validation = validateUserOpCall(parameters)
  const [validationGas, callGas] = await Promise.all([
    client.estimateGas({ account: entryPoint, to: userOp.sender, data: validation }),
    client.estimateGas({ account: entryPoint, to: userOp.sender, data: userOp.callData }),
  ])
  const preVerification = referencePreVerificationGas(parameters.version === '0.7' ? { version: '0.7', userOp: parameters.userOp } : { version: '0.6', userOp: parameters.userOp }, 65)
  // on v0.6 the paymaster's validation runs within verificationGasLimit too: a bundler measures it
  // there; this wallet, which does not simulate the paymaster, allows what the VerifyingPaymaster takes
  const paymasterValidation = parameters.version === '0.6' ? 50_000n : 0n
  return {
    verificationGasLimit: ((validationGas - intrinsicGasOf(validation)) * 13n) / 10n + 30_000n + paymasterValidation,
    callGasLimit: callGas - intrinsicGasOf(userOp.callData),
    preVerificationGas: (preVerification * 11n) / 10n,
  }
}
