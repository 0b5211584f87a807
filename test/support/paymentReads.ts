import { parseUnits, type Hex } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { expect } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { api, type payThroughServer, type useServer } from './server'

/** InvoiceRegistry's statuses, as `invoices(id)` answers them. */
export const invoiceStatus = { issued: 1, paid: 2 } as const

/** What the tests of the external bundler and paymaster paths set up and read back: a fresh invoice
 * and payer, the invoice's status on the chain and from the server, what the EntryPoint recorded. */
export function paymentReads(ctx: ReturnType<typeof useServer>) {
  const base = () => ctx.server.url
  const chain = () => ctx.devnet.clients.public
  const serverStatus = async (id: bigint) => (await api(base(), `/v1/pay/${id}`)).body.data.status
  return {
    freshInvoice: () => ctx.devnet.newInvoice(parseUnits('40', 6)),
    freshPayer: () => ctx.devnet.newPayer(parseUnits('100', 6)),
    async onChainStatus(id: bigint) {
      const invoice = await chain().readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] })
      return invoice.status
    },
    serverStatus,
    /** The EntryPoint's UserOperationEvent for the operation: none until it is included, never two. */
    userOperationEvents: (userOpHash: Hex) =>
      chain().getContractEvents({
        address: ctx.devnet.deployment.entryPoint,
        abi: entryPoint07Abi,
        eventName: 'UserOperationEvent',
        args: { userOpHash },
        fromBlock: 0n,
        strict: true,
      }),
    /** A payment answered 200 confirmed, or 202 pending and then Paid when the invoice is read, as the widget does. */
    async settled(invoiceId: bigint, submit: Awaited<ReturnType<typeof payThroughServer>>['submit']) {
      expect([200, 202], JSON.stringify(submit.body)).toContain(submit.status)
      if (submit.status === 200) expect(submit.body.status).toBe('confirmed')
      else await expect.poll(() => serverStatus(invoiceId), { timeout: 10_000, interval: 200 }).toBe('Paid')
    },
  }
}
