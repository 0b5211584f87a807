import type { Address, Hex } from 'viem'
import type { Eip1193Provider } from '../../shared/eip1193'

/** A read of a contract at the latest block, through whichever provider the caller trusts. */
export function ethCall(provider: Eip1193Provider, to: Address, data: Hex): Promise<Hex> {
  return provider.request({ method: 'eth_call', params: [{ to, data }, 'latest'] }) as Promise<Hex>
}
