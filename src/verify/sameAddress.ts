import { getAddress } from 'viem'

/** Servers and wallets disagree on checksum casing; two spellings of one address are one address.
 * Anything that is not an address matches nothing. */
export function sameAddress(a: string, b: string): boolean {
  try {
    return getAddress(a) === getAddress(b)
  } catch {
    return false
  }
}
