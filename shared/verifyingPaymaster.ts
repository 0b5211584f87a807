import { concat, encodeAbiParameters, hexToBigInt, keccak256, size, slice, type Address, type Hex, type LocalAccount } from 'viem'
import { toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'

/** The fields a VerifyingPaymaster v0.7 signature covers: everything in the operation but the
 * paymaster data that will carry it. */
export type SponsorableUserOperation = Omit<UserOperation<'0.7'>, 'signature' | 'paymasterData'> & {
  paymaster: Address
  paymasterVerificationGasLimit: bigint
  paymasterPostOpGasLimit: bigint
}

/** The window in which the sponsored operation can be included, in Unix seconds: the EntryPoint
 * refuses it outside, whatever else is signed. */
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

const windowBytes = 64
const uint48Max = 2n ** 48n - 1n

/** The window `encodeVerifyingPaymasterWindow` wrote, from paymasterData with its 64- or 65-byte
 * signature; null for anything that is not exactly this layout. */
export function decodeVerifyingPaymasterWindow(paymasterData: Hex | undefined): SponsorshipWindow | null {
  if (!paymasterData) return null
  const length = size(paymasterData)
  if (length !== windowBytes + 64 && length !== windowBytes + 65) return null
  const validUntil = hexToBigInt(slice(paymasterData, 0, 32))
  const validAfter = hexToBigInt(slice(paymasterData, 32, 64))
  // each word must be a uint48 exactly as abi.encode writes it: anything wider is not this layout
  if (validUntil > uint48Max || validAfter > uint48Max) return null
  return { validUntil: Number(validUntil), validAfter: Number(validAfter) }
}
