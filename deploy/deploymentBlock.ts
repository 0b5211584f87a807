import type { Address, PublicClient } from 'viem'

/**
 * The first block with code at `address`, by bisection over historical getCode: where settlement-event
 * searches can start, whether this run deployed the contract or found it. A node that keeps no history
 * (no archive) cannot answer; then 0, which is always correct, only slower to search.
 */
export async function deploymentBlock(client: PublicClient, address: Address): Promise<bigint> {
  let low = 0n
  // uncached: viem keeps the block number for a polling interval, which may predate the contract
  let high = await client.getBlockNumber({ cacheTime: 0 })
  try {
    while (low < high) {
      const middle = (low + high) / 2n
      const code = await client.getCode({ address, blockNumber: middle })
      if (code && code !== '0x') high = middle
      else low = middle + 1n
    }
    return low
  } catch {
    return 0n
  }
}
