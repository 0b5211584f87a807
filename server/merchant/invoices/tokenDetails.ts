import type { Address, PublicClient } from 'viem'
import { stablecoinAbi } from '../../../contracts/artifacts/Stablecoin'

/** A token's symbol and decimals, which the index does not keep: the registry accepts few tokens,
 * and neither value changes. */
export type TokenDetails = (token: Address) => Promise<{ symbol: string; decimals: number }>

/** Reads each token's details once per process; a failed read is tried again by the next caller. */
export function tokenDetailsReader(client: PublicClient): TokenDetails {
  const known = new Map<string, Promise<{ symbol: string; decimals: number }>>()
  return (token) => {
    const key = token.toLowerCase()
    let details = known.get(key)
    if (!details) {
      details = Promise.all([
        client.readContract({ address: token, abi: stablecoinAbi, functionName: 'symbol' }),
        client.readContract({ address: token, abi: stablecoinAbi, functionName: 'decimals' }),
      ]).then(([symbol, decimals]) => ({ symbol, decimals }))
      details.catch(() => known.delete(key))
      known.set(key, details)
    }
    return details
  }
}
