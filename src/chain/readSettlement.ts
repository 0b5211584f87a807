import { numberToHex, pad, type Hex } from 'viem'
import type { Deployment } from '../../shared/deployment'
import type { Eip1193Provider } from '../../shared/eip1193'

/** topic0 of InvoiceRegistry's `InvoicePaid(uint256 indexed id, address indexed payer, address indexed
 * merchant, uint256 gross, uint256 fee, uint256 net, uint16 feeBps)`: the keccak256 of that signature,
 * written out (its test recomputes it from the contract's ABI) so that loading the page hashes nothing. */
export const invoicePaidTopic: Hex = '0x8bbe4b2f4ae58ecd7386363f5dcc7b04cd0c71efe894de366ba58339ab1ba6fc'

type Log = { transactionHash?: Hex | null; removed?: boolean }

/** The transaction that paid invoice `id`, from the registry's own InvoicePaid event (an invoice is paid
 * at most once); null while the chain has none. */
export async function readSettlement(
  provider: Eip1193Provider,
  deployment: Deployment & { registryFromBlock: string },
  id: bigint,
): Promise<Hex | null> {
  const logs = (await provider.request({
    method: 'eth_getLogs',
    params: [
      {
        address: deployment.registry,
        topics: [invoicePaidTopic, pad(numberToHex(id), { size: 32 })],
        fromBlock: numberToHex(BigInt(deployment.registryFromBlock)),
        toBlock: 'latest',
      },
    ],
  })) as Log[]
  const log = logs.find((entry) => !entry.removed && typeof entry.transactionHash === 'string')
  return log?.transactionHash ?? null
}
