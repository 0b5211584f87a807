import type { Hex } from 'viem'
import { getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import { signVerifyingPaymasterData } from '../../../shared/verifyingPaymaster'
import { devnetRoles } from '../../../devnet/deploy'
import { fromWireUserOp, toWireUserOp, type WireUserOp } from '../../../shared/userOpWire'

/** A dishonest service holding the paymaster's key: changes the operation, re-signs the sponsorship
 * over it and restates the hash, so that only decoding every field can tell. */
export async function reSponsored(
  devnet: { chainId: number; contracts: { entryPoint: Hex } },
  body: { userOp: WireUserOp; userOpHash: Hex },
  change: (op: UserOperation<'0.7'>) => UserOperation<'0.7'>,
  window: { validUntil: number; validAfter: number },
) {
  const changed = change(fromWireUserOp(body.userOp))
  const sponsorable = { ...changed, paymaster: changed.paymaster!, paymasterVerificationGasLimit: changed.paymasterVerificationGasLimit!, paymasterPostOpGasLimit: changed.paymasterPostOpGasLimit! }
  const paymasterData = await signVerifyingPaymasterData(devnetRoles.paymasterSigner, sponsorable, { chainId: devnet.chainId, ...window })
  const userOp = { ...changed, paymasterData }
  body.userOp = toWireUserOp(userOp)
  body.userOpHash = getUserOperationHash({ chainId: devnet.chainId, entryPointAddress: devnet.contracts.entryPoint, entryPointVersion: '0.7', userOperation: userOp })
}
