import { concat, encodeAbiParameters, keccak256, type Address, type Hex, type LocalAccount } from 'viem'
import { toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'

/** The fields a VerifyingPaymaster v0.7 signature covers: everything in the operation but the
 * paymaster data that will carry it. */
export type SponsorableUserOperation = Omit<UserOperation<'0.7'>, 'signature' | 'paymasterData'> & {
  paymaster: Address
  paymasterVerificationGasLimit: bigint
  paymasterPostOpGasLimit: bigint
}

export type SponsorshipWindow = { validUntil: number; validAfter: number }

/** Off-chain twin of VerifyingPaymaster.getHash (tested against the contract). */
export function verifyingPaymasterHash(
  userOp: SponsorableUserOperation,
  { chainId, validUntil, validAfter }: SponsorshipWindow & { chainId: number },
): Hex {
  const packed = toPackedUserOperation({ ...userOp, signature: '0x', paymasterData: '0x' })
  // paymasterAndData[20:52]: the paymaster's two gas limits, as one word
  const paymasterGasLimits = BigInt(`0x${packed.paymasterAndData.slice(42, 106)}`)
  return keccak256(
    encodeAbiParameters(
      [
        { type: 'address' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'address' },
        { type: 'uint48' },
        { type: 'uint48' },
      ],
      [
        packed.sender,
        packed.nonce,
        keccak256(packed.initCode),
        keccak256(packed.callData),
        packed.accountGasLimits,
        paymasterGasLimits,
        packed.preVerificationGas,
        packed.gasFees,
        BigInt(chainId),
        userOp.paymaster,
        validUntil,
        validAfter,
      ],
    ),
  )
}

/** paymasterData = abi.encode(validUntil, validAfter) ‖ signature, where the signer signs the hash
 * as an EIP-191 message (the contract applies toEthSignedMessageHash). */
export async function signVerifyingPaymasterData(
  signer: LocalAccount,
  userOp: SponsorableUserOperation,
  window: SponsorshipWindow & { chainId: number },
): Promise<Hex> {
  const hash = verifyingPaymasterHash(userOp, window)
  const signature = await signer.signMessage({ message: { raw: hash } })
  return concat([encodeVerifyingPaymasterWindow(window), signature])
}

export function encodeVerifyingPaymasterWindow({ validUntil, validAfter }: SponsorshipWindow): Hex {
  return encodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], [validUntil, validAfter])
}
