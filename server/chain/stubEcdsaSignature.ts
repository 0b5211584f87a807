import type { Hex } from 'viem'

/**
 * A 65-byte placeholder for an ECDSA signature while gas is estimated. SimpleAccount and
 * VerifyingPaymaster v0.7 check signatures with OpenZeppelin's ECDSA.recover, which reverts when
 * ecrecover finds no signer, and a real bundler simulates that validation: so r is the x coordinate
 * of the secp256k1 generator (a point on the curve: ecrecover yields some address for any hash),
 * s is in the lower half of the order and v is 27. The check then fails softly (SIG_VALIDATION_FAILED)
 * at the cost of a real one. No byte is zero, so calldata priced from it never undercuts the real one.
 */
export const stubEcdsaSignature: Hex = `0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798${'7f'.repeat(32)}1b`
