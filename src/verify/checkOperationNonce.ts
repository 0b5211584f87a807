import type { UnsafeProblem } from './unsafeProblem'

/**
 * EntryPoint v0.7 nonces are `key << 64 | sequence`. Only key 0 at the vault's current sequence: every
 * operation prepared for this payment then shares one nonce, so however many the payer is led to sign,
 * at most one can ever execute. `current` is EntryPoint.getNonce(vault, 0), read from the chain.
 */
export function checkOperationNonce(nonce: bigint, current: bigint): UnsafeProblem[] {
  if (nonce >> 64n !== 0n) {
    return [{ code: 'NONCE_KEY_NONZERO', message: `The operation uses nonce key ${nonce >> 64n}: operations on other keys could execute alongside it.` }]
  }
  if (nonce !== current) {
    return [{ code: 'NONCE_MISMATCH', message: `The operation's nonce is ${nonce}, but your vault's next nonce on-chain is ${current}.` }]
  }
  return []
}
