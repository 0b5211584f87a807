import { decodeFunctionData, encodeFunctionResult, type Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { testDeployment } from '../verify/preparedPayment.fixture'
import type { Eip1193Provider } from '../../shared/eip1193'
import { readInvoice } from './readInvoice'

const deployment = testDeployment()
const record = {
  merchant: '0x1111111111111111111111111111111111111111',
  status: 1,
  invoiceNumber: 1042n,
  token: deployment.token,
  issuedAt: 1767225600n,
  payer: '0x0000000000000000000000000000000000000000',
  dueAt: 1769817600n,
  paidAt: 0n,
  amount: 248_000_000n,
  metaHash: `0x${'ab'.repeat(32)}`,
} as const

/** A wallet whose node answers `invoices(id)` as the compiled registry would, or fails as `fail` says. */
function wallet(fail?: unknown) {
  const asked: { to: string; id: bigint }[] = []
  const provider: Eip1193Provider = {
    async request({ method, params }) {
      expect(method).toBe('eth_call')
      const { to, data } = params![0] as { to: string; data: Hex }
      asked.push({ to, id: decodeFunctionData({ abi: invoiceRegistryAbi, data }).args![0] as bigint })
      if (fail) throw fail
      return encodeFunctionResult({ abi: invoiceRegistryAbi, functionName: 'invoices', result: record })
    },
  }
  return { provider, asked }
}

describe('readInvoice', () => {
  test('default: reads invoices(id) from the pinned registry, decoded as the compiled contract encodes it', async () => {
    const { provider, asked } = wallet()
    expect(await readInvoice(provider, deployment, 3n)).toEqual(record)
    expect(asked).toEqual([{ to: deployment.registry, id: 3n }])
  })

  test('behavior: a revert (UnknownInvoice) is no invoice; any other failure is thrown', async () => {
    const reverted = Object.assign(new Error('execution reverted'), { code: 3, data: '0xf4c9c3c8' })
    expect(await readInvoice(wallet(reverted).provider, deployment, 3n)).toBeNull()
    // wallets wrap the node's error
    expect(await readInvoice(wallet(new Error('Internal JSON-RPC error.', { cause: reverted })).provider, deployment, 3n)).toBeNull()
    await expect(readInvoice(wallet(new TypeError('fetch failed')).provider, deployment, 3n)).rejects.toThrow('fetch failed')
  })
})
