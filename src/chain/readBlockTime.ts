import { hexToNumber, type Hex } from 'viem'
import type { Eip1193Provider } from '../../shared/eip1193'
import { ChainReadError } from './chainReadError'

/** The latest block's timestamp (Unix seconds): the clock the EntryPoint judges a validity window by,
 * not the payer's. */
export async function readBlockTime(provider: Eip1193Provider): Promise<number> {
  const block = (await provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { timestamp?: Hex } | null
  if (!block?.timestamp) throw new ChainReadError('NO_LATEST_BLOCK', 'the node returned no latest block: it may still be syncing; try again shortly')
  return hexToNumber(block.timestamp)
}
