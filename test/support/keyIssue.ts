import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import type { useServer } from './server'
import { signedRequest } from './signedRequest'

type ServerContext = Pick<ReturnType<typeof useServer>, 'devnet' | 'server'>

/** How many invoices the registry holds: what an issue that reached the chain adds one to. */
export const registryInvoiceCount = (ctx: ServerContext) =>
  ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoiceCount' })

/** A 2.5 USDC invoice to the customer, due a day after the chain's latest block, issued with the
 * API key under a fresh idempotency key: one sponsored operation of the studio's quota. */
export async function issueWithKey(ctx: ServerContext, key: { keyId: string; secret: string }, customerId: string) {
  const dueAt = ((await ctx.devnet.clients.public.getBlock()).timestamp + 86_400n).toString()
  return signedRequest(ctx.server.url, key, {
    method: 'POST',
    path: '/v1/invoices/issue',
    body: JSON.stringify({ customerId, amount: '2500000', dueAt }),
    send: { headers: { 'idempotency-key': crypto.randomUUID() } },
  })
}
