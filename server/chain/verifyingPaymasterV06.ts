import { concat, parseAbi, type Address, type Hex, type LocalAccount, type PublicClient } from 'viem'
import type { UserOperation } from 'viem/account-abstraction'
import { encodeVerifyingPaymasterWindow, type SponsorshipWindow } from '../../shared/verifyingPaymaster'
import { stubEcdsaSignature } from './stubEcdsaSignature'

/** eth-infinitism VerifyingPaymaster 0.6.0: its hash covers the sender's count of sponsored
 * operations (`senderNonce`), which only the contract knows, so the contract computes it. */
const verifyingPaymasterV06Abi = parseAbi([
  'struct UserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; uint256 callGasLimit; uint256 verificationGasLimit; uint256 preVerificationGas; uint256 maxFeePerGas; uint256 maxPriorityFeePerGas; bytes paymasterAndData; bytes signature; }',
  'function getHash(UserOperation userOp, uint48 validUntil, uint48 validAfter) view returns (bytes32)',
])

/** The v0.6 operation's fields a VerifyingPaymaster 0.6.0 signature covers. */
export type SponsorableUserOperationV06 = Omit<UserOperation<'0.6'>, 'paymasterAndData' | 'signature' | 'initCode' | 'authorization'> & { initCode: Hex }

/** paymasterAndData = paymaster ‖ abi.encode(validUntil, validAfter) ‖ signature, as 0.6.0 parses it. */
export function verifyingPaymasterV06Data(paymaster: Address, window: SponsorshipWindow, signature: Hex): Hex {
  return concat([paymaster, encodeVerifyingPaymasterWindow(window), signature])
}

/** Signs for a VerifyingPaymaster 0.6.0: the contract's own getHash, signed as an EIP-191 message
 * (the contract applies toEthSignedMessageHash). 0.6.0 hashes the operation's calldata as encoded up to
 * paymasterAndData, whose head holds the signature's offset, which follows paymasterAndData's length:
 * so getHash is asked with paymasterAndData of its final length (a stub signature in place). */
export async function signVerifyingPaymasterV06(
  client: PublicClient,
  signer: LocalAccount,
  { paymaster, userOp, window }: { paymaster: Address; userOp: SponsorableUserOperationV06; window: SponsorshipWindow },
): Promise<Hex> {
  const hash = await client.readContract({
    address: paymaster,
    abi: verifyingPaymasterV06Abi,
    functionName: 'getHash',
    args: [{ sender: userOp.sender, nonce: userOp.nonce, initCode: userOp.initCode, callData: userOp.callData, callGasLimit: userOp.callGasLimit, verificationGasLimit: userOp.verificationGasLimit, preVerificationGas: userOp.preVerificationGas, maxFeePerGas: userOp.maxFeePerGas, maxPriorityFeePerGas: userOp.maxPriorityFeePerGas, paymasterAndData: verifyingPaymasterV06Data(paymaster, window, stubEcdsaSignature), signature: '0x' }, window.validUntil, window.validAfter],
  })
  const signature = await signer.signMessage({ message: { raw: hash } })
  return verifyingPaymasterV06Data(paymaster, window, signature)
}
