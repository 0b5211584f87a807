import { hexToBigInt, recoverAddress, size, slice, type Address, type Hex } from 'viem'

/** Half the secp256k1 order: OpenZeppelin's ECDSA refuses an s above it (the malleable twin). */
const halfOrder = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n

/**
 * The signer of `hash` exactly as the vault's OpenZeppelin ECDSA.tryRecover finds it, or null where
 * it finds none: 65 bytes r‖s‖v, v 27 or 28, s in the lower half. A looser recovery would accept
 * signatures the chain refuses, and the payer would learn it only from the bundler.
 */
export async function recoverStrict(hash: Hex, signature: Hex): Promise<Address | null> {
  if (size(signature) !== 65) return null
  const v = Number(hexToBigInt(slice(signature, 64, 65)))
  if (v !== 27 && v !== 28) return null
  if (hexToBigInt(slice(signature, 32, 64)) > halfOrder) return null
  try {
    return await recoverAddress({ hash, signature })
  } catch {
    return null
  }
}
