import type { PublicClient } from 'viem'
import { describe, expect, test } from 'vitest'
import { createInvoiceReader } from '../../server/chain/invoiceReader'
import type { Deployment } from '../../shared/deployment'

const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as const
const deployment: Deployment = { chainId: 31337, entryPoint: address(1), token: address(2), registry: address(3), vaultFactory: address(4), paymaster: address(5) }

/** A chain where the test decides the invoice's status, and each read can be held until released. */
function fakeChain() {
  const chain = { status: 1, block: 10n, reads: 0, hold: null as Promise<void> | null }
  const client = {
    getBlockNumber: async () => chain.block,
    async readContract({ functionName }: { functionName: string }) {
      if (functionName === 'invoices') {
        chain.reads++
        const status = chain.status
        await chain.hold
        return { status, invoiceNumber: 1n, merchant: address(6), payer: address(0), token: deployment.token, amount: 5n, metaHash: `0x${'ab'.repeat(32)}`, issuedAt: 1n, dueAt: 2n, paidAt: status === 2 ? 3n : 0n }
      }
      return { symbol: 'USDC', decimals: 6, tokenURI: '', feeOverrideBps: 100 }[functionName]
    },
    getContractEvents: async () => [{ args: { fee: 1n, feeBps: 100 }, transactionHash: `0x${'cd'.repeat(32)}` }],
  }
  return { chain, client: client as unknown as PublicClient }
}

describe('createInvoiceReader', () => {
  test('behavior: an Issued invoice is read again once issuedTtlMs has passed, so a payment made elsewhere shows within it; Paid is kept', async () => {
    const { chain, client } = fakeChain()
    let clock = 0
    const reader = createInvoiceReader({ client, deployment, issuedTtlMs: 1_000, now: () => clock })
    expect((await reader.read(1n)).invoice.status).toBe('Issued')
    chain.status = 2
    clock += 999
    expect((await reader.read(1n)).invoice.status).toBe('Issued')
    clock += 1
    expect((await reader.read(1n)).invoice.status).toBe('Paid')
    clock += 60_000
    await reader.read(1n)
    expect(chain.reads).toBe(2)
  })

  test('behavior: concurrent reads share one; a read under way when the invoice is forgotten answers its callers but is not kept', async () => {
    const { chain, client } = fakeChain()
    const reader = createInvoiceReader({ client, deployment, issuedTtlMs: 60_000 })
    let release = () => {}
    chain.hold = new Promise((resolve) => (release = resolve))
    const before = [reader.read(1n), reader.read(1n)]
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(chain.reads).toBe(1)
    // paid through this server while that read was on its way
    chain.status = 2
    reader.forget(1n)
    chain.hold = null
    expect((await reader.read(1n)).invoice.status).toBe('Paid')
    release()
    expect((await Promise.all(before)).map((read) => read.invoice.status)).toEqual(['Issued', 'Issued'])
    expect((await reader.read(1n)).invoice.status).toBe('Paid')
    expect(chain.reads).toBe(2)
  })
})
