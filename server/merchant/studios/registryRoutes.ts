import type { Address, PublicClient } from 'viem'
import type * as z from 'zod/mini'
import { invoiceRegistryAbi } from '../../../contracts/artifacts/InvoiceRegistry'
import { partOf, perClientLimit } from '../../http/perClientLimit'
import { apiRoute } from '../../routes/apiRoute'
import type { InvoiceIndex } from '../invoices/invoiceIndex'
import type { TokenDetails } from '../invoices/tokenDetails'
import type { RegistryFigures, TokenVolume } from './registryFigures'
import { accountAddressParams, accountMetricsResponseSchema, protocolStatsResponseSchema } from './studioWire'

export type RegistryReadDependencies = {
  client: PublicClient
  chainId: number
  registry: Address
  figures: Pick<RegistryFigures, 'registryTotals' | 'accountFigures'>
  index: Pick<InvoiceIndex, 'indexedThrough'>
  tokens: TokenDetails
}

/** Absent only where no request reaches the routes (a document of them, an app without a chain). */
export type RegistryRoutesDependencies = { registryReads?: RegistryReadDependencies }

function readsOf(dependencies: RegistryRoutesDependencies): RegistryReadDependencies {
  if (!dependencies.registryReads) throw new Error('the registry routes are mounted without their dependencies')
  return dependencies.registryReads
}

type WireVolume = z.input<typeof protocolStatsResponseSchema>['volumes'][number]

async function volumesOf(reads: RegistryReadDependencies, volumes: TokenVolume[]): Promise<WireVolume[]> {
  return Promise.all(
    volumes.map(async (volume) => ({
      token: volume.token,
      ...(await reads.tokens(volume.token)),
      paidCount: volume.paidCount,
      paidAmount: volume.paidAmount.toString(),
      fees: volume.fees.toString(),
      netAmount: volume.netAmount.toString(),
      refunded: volume.refunded.toString(),
    })),
  )
}

const registryOf = (reads: RegistryReadDependencies) => ({ address: reads.registry, abi: invoiceRegistryAbi }) as const

/** Public and summed over the whole index: a tenth of the general limit per client. */
const protocolStatsLimit = perClientLimit('protocol-stats', (settings) => partOf(settings, 10))
const accountMetricsLimit = perClientLimit('account-metrics', (settings) => settings.perMinute)

const registryRoute = apiRoute<RegistryRoutesDependencies>()

/**
 * SPEC 4.18 leaves both bodies open; ours say what the registry says. The counts and sums come from
 * the invoice index (as current as `indexedBlock`), the invoice counter and fee rates from the chain
 * now. Everything here is public on the chain already: these routes only sum it.
 */
export const registryRoutes = [
  registryRoute({
    method: 'get',
    path: '/v1/protocol/stats',
    summary: "The registry's totals",
    description:
      "Unauthenticated, rate-limited, any origin. Invoices by status, distinct merchants and payers, and per token the paid volume (gross), the protocol's fees, the merchants' net and the refunds, in base units; with the registry's own invoice counter and retail fee rate read from the chain.",
    auth: 'none',
    cors: 'anyOrigin',
    rateLimits: [protocolStatsLimit],
    response: { status: 200, schema: protocolStatsResponseSchema, description: 'The totals.', headers: { 'Cache-Control': 'public, max-age=10' } },
    errors: ['CHAIN_UNAVAILABLE'],
    async handle(_input, dependencies) {
      const reads = readsOf(dependencies)
      const [totals, indexedBlock, onChainInvoiceCount, retailFeeBps] = await Promise.all([
        reads.figures.registryTotals(),
        reads.index.indexedThrough(),
        reads.client.readContract({ ...registryOf(reads), functionName: 'invoiceCount' }),
        reads.client.readContract({ ...registryOf(reads), functionName: 'retailFeeBps' }),
      ])
      return {
        success: true as const,
        chainId: reads.chainId,
        registry: reads.registry,
        onChainInvoiceCount: onChainInvoiceCount.toString(),
        retailFeeBps,
        invoices: { total: totals.invoiceCount, issued: totals.issuedCount, paid: totals.paidCount, canceled: totals.canceledCount },
        merchants: totals.merchants,
        payers: totals.payers,
        volumes: await volumesOf(reads, totals.volumes),
        indexedBlock: indexedBlock?.toString() ?? null,
      }
    },
  }),
  registryRoute({
    method: 'get',
    path: '/v1/accounts/:address/metrics',
    summary: 'What the registry says about an address, as merchant and as payer',
    description:
      "HMAC or a signed-in user, no scope. As merchant: the registry's invoice counter for the address and the fee rate a payment to it would be charged now (chain), its invoices by status and its paid volumes per token (index). As payer: the invoices it paid, when it first and last paid, and per token what it paid and was refunded (index). An address the registry has never seen answers zeros.",
    auth: 'merchant',
    cors: 'none',
    rateLimits: [accountMetricsLimit],
    params: accountAddressParams,
    response: { status: 200, schema: accountMetricsResponseSchema, description: "The address's figures." },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'CHAIN_UNAVAILABLE'],
    async handle({ params: { address } }, dependencies) {
      const reads = readsOf(dependencies)
      const [figures, indexedBlock, onChainInvoiceCount, feeBps] = await Promise.all([
        reads.figures.accountFigures(address),
        reads.index.indexedThrough(),
        reads.client.readContract({ ...registryOf(reads), functionName: 'merchantInvoiceCount', args: [address] }),
        reads.client.readContract({ ...registryOf(reads), functionName: 'feeBpsFor', args: [address] }),
      ])
      const { asMerchant, asPayer } = figures
      return {
        success: true as const,
        address,
        chainId: reads.chainId,
        asMerchant: {
          onChainInvoiceCount: onChainInvoiceCount.toString(),
          feeBps,
          invoices: { total: asMerchant.invoiceCount, issued: asMerchant.issuedCount, paid: asMerchant.paidCount, canceled: asMerchant.canceledCount },
          volumes: await volumesOf(reads, asMerchant.volumes),
        },
        asPayer: {
          paidCount: asPayer.paidCount,
          firstPaidAt: asPayer.firstPaidAt?.toString() ?? null,
          lastPaidAt: asPayer.lastPaidAt?.toString() ?? null,
          volumes: await volumesOf(reads, asPayer.volumes),
        },
        indexedBlock: indexedBlock?.toString() ?? null,
      }
    },
  }),
]
