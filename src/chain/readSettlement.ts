import { keccak256, numberToHex, pad, stringToHex, type Hex } from 'viem'
import type { Deployment } from '../../shared/deployment'
import type { Eip1193Provider } from '../../shared/eip1193'

/** topic0 of InvoiceRegistry's `InvoicePaid(uint256 indexed id, address indexed payer, address indexed
 * merchant, uint256 gross, uint256 fee, uint256 net, uint16 feeBps)`. */
export const invoicePaidTopic = keccak256(stringToHex('InvoicePaid(uint256,address,address,uint256,uint256,uint256,uint16)'))

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
