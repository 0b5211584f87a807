import { numberToHex, pad, toEventSelector, type AbiEvent, type Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { testDeployment } from '../verify/preparedPayment.fixture'
import type { Eip1193Provider } from '../../shared/eip1193'
import { invoicePaidTopic, readSettlement } from './readSettlement'

const deployment = { ...testDeployment(), registryFromBlock: '1200' }
const txHash: Hex = `0x${'cd'.repeat(32)}`

function node(logs: unknown[]) {
  const filters: unknown[] = []
  const provider: Eip1193Provider = {
    async request({ method, params }) {
      expect(method).toBe('eth_getLogs')
      filters.push(params![0])
      return logs
    },
  }
  return { provider, filters }
}

describe('readSettlement', () => {
  test('default: the InvoicePaid event of this invoice in the pinned registry, from the pinned block', async () => {
    const { provider, filters } = node([{ transactionHash: txHash, removed: false }])
    expect(await readSettlement(provider, deployment, 3n)).toBe(txHash)
    expect(filters).toEqual([
      { address: deployment.registry, topics: [invoicePaidTopic, pad(numberToHex(3n), { size: 32 })], fromBlock: numberToHex(1200n), toBlock: 'latest' },
    ])
  })

  test('behavior: no event, or only one removed by a reorg, is no settlement', async () => {
    expect(await readSettlement(node([]).provider, deployment, 3n)).toBeNull()
    expect(await readSettlement(node([{ transactionHash: txHash, removed: true }]).provider, deployment, 3n)).toBeNull()
  })

  test('behavior: the topic is the compiled registry\'s InvoicePaid event', () => {
    const event = invoiceRegistryAbi.find((item) => item.type === 'event' && item.name === 'InvoicePaid')!
    expect(invoicePaidTopic).toBe(toEventSelector(event as AbiEvent))
  })
})
