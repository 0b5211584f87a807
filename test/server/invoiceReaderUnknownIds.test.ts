import { describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { createChainClient } from '../../server/chain/chainClient'
import { createInvoiceReader } from '../../server/chain/invoiceReader'
import { useDevnet } from '../support/devnet'

const devnet = useDevnet()

describe('createInvoiceReader, for ids the registry does not know', () => {
  test('behavior: an unknown id is read from the chain once within the TTL; once issued it is found after the TTL', async () => {
    const calls: string[] = []
    const client = createChainClient(devnet.deployment.chainId, devnet.anvil.rpcUrl, (method) => {
      calls.push(method)
      return () => {}
    })
    let clock = 1_000_000
    const reader = createInvoiceReader({ client, deployment: devnet.deployment, unknownTtlMs: 5_000, now: () => clock })
    const count = await devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoiceCount' })
    const next = count + 1n
    for (let i = 0; i < 50; i++) await expect(reader.read(next)).rejects.toMatchObject({ code: 'INVOICE_NOT_FOUND' })
    expect(calls.filter((method) => method === 'eth_call')).toHaveLength(1)

    const issued = await devnet.newInvoice(1_000_000n)
    expect(issued.id).toBe(next)
    clock += 4_999
    await expect(reader.read(next)).rejects.toMatchObject({ code: 'INVOICE_NOT_FOUND' })
    expect(calls.filter((method) => method === 'eth_call')).toHaveLength(1)
    clock += 1
    expect((await reader.read(next)).invoice).toMatchObject({ id: next.toString(), status: 'Issued', amount: '1000000' })
  })

  test('behavior: forgetting an id drops its remembered miss too', async () => {
    let reads = 0
    const client = createChainClient(devnet.deployment.chainId, devnet.anvil.rpcUrl, (method) => {
      if (method === 'eth_call') reads++
      return () => {}
    })
    const reader = createInvoiceReader({ client, deployment: devnet.deployment })
    await expect(reader.read(987_654n)).rejects.toMatchObject({ code: 'INVOICE_NOT_FOUND' })
    reader.forget(987_654n)
    await expect(reader.read(987_654n)).rejects.toMatchObject({ code: 'INVOICE_NOT_FOUND' })
    expect(reads).toBe(2)
  })
})
