import type { Address, Hex, PublicClient } from 'viem'
import type * as z from 'zod/mini'
import { stablecoinAbi } from '../../../contracts/artifacts/Stablecoin'
import { ForbiddenError } from '../../auth/authErrors'
import type { Principal } from '../../auth/principal'
import { HttpError } from '../../http/httpError'
import { perClientLimit } from '../../http/perClientLimit'
import { apiRoute } from '../../routes/apiRoute'
import type { Studio } from '../../store/studioStore'
import type { InvoiceIndex } from '../invoices/invoiceIndex'
import type { TokenDetails } from '../invoices/tokenDetails'
import { baseUnitAmount } from '../payments/baseUnitAmount'
import { isProfileComplete } from '../profile/businessProfile'
import type { BusinessProfileStore } from '../profile/businessProfileStore'
import type { RegistryFigures } from './registryFigures'
import {
  balanceResponseSchema,
  invoiceStatsResponseSchema,
  studioByIdResponseSchema,
  studioIdParams,
  studioMeResponseSchema,
  vaultTransactionsQuerySchema,
  vaultTransactionsResponseSchema,
  type studioSchema,
  type vaultTransactionSchema,
} from './studioWire'
import { readVaultActivity, type VaultActivity } from './vaultActivity'

export type StudioReadDependencies = {
  client: PublicClient
  chainId: number
  token: Address
  entryPoint: Address
  /** REGISTRY_FROM_BLOCK: where the vault's activity is read from. */
  fromBlock: bigint
  profiles: Pick<BusinessProfileStore, 'getBusinessProfile'>
  figures: Pick<RegistryFigures, 'invoiceStats'>
  index: Pick<InvoiceIndex, 'indexedThrough'>
  tokens: TokenDetails
  explorerUrl: (transactionHash: Hex | null) => string | null
  /** Whether the studio's vault deployment was sent by its owner and is not on-chain yet (SPEC 4.3). */
  deploymentPending?: (studio: Studio) => Promise<boolean>
}

/** Absent only where no request reaches the routes (a document of them, an app without a chain). */
export type StudioRoutesDependencies = { studioReads?: StudioReadDependencies }

function readsOf(dependencies: StudioRoutesDependencies): StudioReadDependencies {
  if (!dependencies.studioReads) throw new Error('the studio routes are mounted without their dependencies')
  return dependencies.studioReads
}

type WireStudio = z.input<typeof studioSchema>
type WireTransaction = z.input<typeof vaultTransactionSchema>

const onThisChain = (reads: StudioReadDependencies, studio: Studio) => studio.chainId === reads.chainId

/** SPEC 2.1's studio as the reads answer it (and the legacy POST /v1/studios, SPEC 4.3). */
export async function studioOf(reads: StudioReadDependencies, studio: Studio): Promise<WireStudio> {
  const [profile, code, pending] = await Promise.all([
    reads.profiles.getBusinessProfile(studio.id),
    onThisChain(reads, studio) ? reads.client.getCode({ address: studio.vaultAddress }) : Promise.resolve(undefined),
    onThisChain(reads, studio) ? (reads.deploymentPending?.(studio) ?? false) : false,
  ])
  const deployed = code !== undefined && code !== '0x'
  return {
    id: studio.id,
    name: studio.name,
    vaultAddress: studio.vaultAddress,
    vaultChainId: studio.chainId,
    vaultDeploymentStatus: !onThisChain(reads, studio) ? 'other_chain' : deployed ? 'deployed' : pending ? 'pending' : 'not_deployed',
    createdAt: studio.createdAt.toISOString(),
    profile: profile && { ...profile, updatedAt: profile.updatedAt.toISOString() },
    profileComplete: isProfileComplete(profile),
  }
}

const otherChain = (studio: Studio, chainId: number) =>
  new HttpError(409, 'VAULT_ON_OTHER_CHAIN', `the studio's vault is on chain ${studio.chainId}; this deployment reads chain ${chainId}`)

async function balanceOf(reads: StudioReadDependencies, studio: Studio): Promise<z.input<typeof balanceResponseSchema>> {
  if (!onThisChain(reads, studio)) throw otherChain(studio, reads.chainId)
  // one block for every read: the balance and whether the vault has code agree with each other
  const blockNumber = await reads.client.getBlockNumber({ cacheTime: 0 })
  const [balance, code, token] = await Promise.all([
    reads.client.readContract({ address: reads.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [studio.vaultAddress], blockNumber }),
    reads.client.getCode({ address: studio.vaultAddress, blockNumber }),
    reads.tokens(reads.token),
  ])
  const vaultDeployed = code !== undefined && code !== '0x'
  return {
    success: true,
    balance: balance.toString(),
    formatted: baseUnitAmount(balance, token.decimals),
    symbol: token.symbol,
    decimals: token.decimals,
    token: reads.token,
    vaultAddress: studio.vaultAddress,
    vaultChainId: studio.chainId,
    vaultDeployed,
    network: { chainId: reads.chainId, name: reads.client.chain?.name ?? `chain ${reads.chainId}` },
    blockNumber: blockNumber.toString(),
    ...(vaultDeployed
      ? {}
      : { note: "The studio's vault is not deployed yet: its owner deploys it first (SPEC 4.3: POST /v1/studios/prepare, then /v1/studios/submit). Payments reach a vault only through invoices it issued, so until then it holds nothing." }),
  }
}

async function statsOf(reads: StudioReadDependencies, studio: Studio): Promise<z.input<typeof invoiceStatsResponseSchema>> {
  const [indexedBlock, stats] = await Promise.all([
    reads.index.indexedThrough(),
    onThisChain(reads, studio) ? reads.figures.invoiceStats(studio.vaultAddress) : null,
  ])
  const zero = '0'
  return {
    success: true,
    stats: stats
      ? {
          totalCount: stats.totalCount,
          pendingCount: stats.pendingCount,
          paidCount: stats.paidCount,
          canceledCount: stats.canceledCount,
          totalPaidAmount: stats.totalPaidAmount.toString(),
          totalPendingAmount: stats.totalPendingAmount.toString(),
          totalFees: stats.totalFees.toString(),
          totalNetAmount: stats.totalNetAmount.toString(),
          totalRefunded: stats.totalRefunded.toString(),
          complete: true,
        }
      : { totalCount: 0, pendingCount: 0, paidCount: 0, canceledCount: 0, totalPaidAmount: zero, totalPendingAmount: zero, totalFees: zero, totalNetAmount: zero, totalRefunded: zero, complete: true },
    metadata: { chainId: reads.chainId, indexedBlock: indexedBlock?.toString() ?? null },
  }
}

/** The studio a `/v1/studios/:id/...` route may read: the caller's own, by id or as `me`; any other is a 403. */
function ownStudio(principal: Principal, id: string): Studio {
  if (id !== 'me' && principal.studio.id !== id) throw new ForbiddenError("this is not the caller's studio: a studio's reads are its own")
  return principal.studio
}

async function transactionOf(reads: StudioReadDependencies, item: VaultActivity, timestamp: bigint): Promise<WireTransaction> {
  const place = {
    blockNumber: item.place.blockNumber.toString(),
    logIndex: item.place.logIndex,
    transactionHash: item.place.transactionHash,
    timestamp: new Date(Number(timestamp) * 1000).toISOString(),
    explorerUrl: reads.explorerUrl(item.place.transactionHash),
  }
  if (item.kind === 'token_transfer') return { kind: item.kind, direction: item.direction, from: item.from, to: item.to, token: item.token, amount: item.amount.toString(), ...place }
  return {
    kind: item.kind,
    userOpHash: item.userOpHash,
    paymaster: item.paymaster,
    nonce: item.nonce.toString(),
    success: item.success,
    actualGasCost: item.actualGasCost.toString(),
    actualGasUsed: item.actualGasUsed.toString(),
    ...place,
  }
}

/** The studio routes', one count per client across them. */
const studiosLimit = perClientLimit('studios', (settings) => settings.perMinute)

const studioRoute = apiRoute<StudioRoutesDependencies>()
const policy = { auth: 'merchant', cors: 'none', rateLimits: [studiosLimit], scope: 'dashboard:read' } as const
/** SPEC 4.1 and 5.6: a studio read by its id is its owner's, signed in; an API key reads /me. */
const ownerPolicy = { auth: 'merchant', cors: 'none', rateLimits: [studiosLimit], signedInOnly: true } as const
const errors = ['UNAUTHORIZED', 'FORBIDDEN', 'CHAIN_UNAVAILABLE'] as const
const noStore = { 'Cache-Control': 'no-store' }

/**
 * SPEC 4.1's studio reads. `/me` routes read the caller's studio (HMAC with dashboard:read, a
 * signed-in user, or a CLI's grant); `/:id` routes the same for its signed-in owner only (an API key,
 * or another studio's owner, is a 403). The
 * balance and the vault's activity come from the chain, the statistics from the invoice index.
 */
export const studioRoutes = [
  studioRoute({
    method: 'get',
    path: '/v1/studios/me',
    summary: "The caller's studio",
    description: "SPEC 2.1's studio with its business profile and profileComplete (what issuance requires); vaultDeploymentStatus is read from the chain (deployed, not_deployed, or other_chain for a vault this deployment cannot see), pending while the owner's deployment is sent and not on-chain yet.",
    ...policy,
    response: { status: 200, schema: studioMeResponseSchema, description: 'The studio.', headers: noStore },
    errors,
    async handle(_input, dependencies, c) {
      return { data: await studioOf(readsOf(dependencies), c.get('principal').studio) }
    },
  }),
  studioRoute({
    method: 'get',
    path: '/v1/studios/me/balance',
    summary: "The studio vault's balance, read from the chain",
    description:
      "The deployment token's balanceOf(vault) at the head, in base units and formatted exactly with every decimal the token has. Before the vault is deployed, vaultDeployed is false and a note says what to do first. A vault on another chain than this deployment's is a 409 VAULT_ON_OTHER_CHAIN.",
    ...policy,
    response: { status: 200, schema: balanceResponseSchema, description: 'The balance.', headers: noStore },
    errors: [...errors, 'VAULT_ON_OTHER_CHAIN'],
    async handle(_input, dependencies, c) {
      return balanceOf(readsOf(dependencies), c.get('principal').studio)
    },
  }),
  studioRoute({
    method: 'get',
    path: '/v1/studios/me/invoices/stats',
    summary: "Counts and sums of the studio's invoices",
    description:
      "From the invoice index, summed by the database over every invoice of the vault: unlike SPEC 2.12's (at most 50 per status), these are full counts (`complete: true`), as current as metadata.indexedBlock. pendingCount counts Issued invoices; amounts are base units (paid: gross; fees, net and refunds of paid ones).",
    ...policy,
    response: { status: 200, schema: invoiceStatsResponseSchema, description: 'The statistics.', headers: noStore },
    errors,
    async handle(_input, dependencies, c) {
      return statsOf(readsOf(dependencies), c.get('principal').studio)
    },
  }),
  studioRoute({
    method: 'get',
    path: '/v1/studios/:id',
    summary: 'A studio, by id (the caller\'s own)',
    ...ownerPolicy,
    params: studioIdParams,
    response: { status: 200, schema: studioByIdResponseSchema, description: 'The studio.', headers: noStore },
    errors,
    async handle({ params: { id } }, dependencies, c) {
      return { success: true as const, studio: await studioOf(readsOf(dependencies), ownStudio(c.get('principal'), id)) }
    },
  }),
  studioRoute({
    method: 'get',
    path: '/v1/studios/:id/balance',
    summary: "A studio vault's balance, by studio id (the caller's own)",
    ...ownerPolicy,
    params: studioIdParams,
    response: { status: 200, schema: balanceResponseSchema, description: 'The balance.', headers: noStore },
    errors: [...errors, 'VAULT_ON_OTHER_CHAIN'],
    async handle({ params: { id } }, dependencies, c) {
      return balanceOf(readsOf(dependencies), ownStudio(c.get('principal'), id))
    },
  }),
  studioRoute({
    method: 'get',
    path: '/v1/studios/:id/invoices/stats',
    summary: "Counts and sums of a studio's invoices, by studio id (the caller's own)",
    ...ownerPolicy,
    params: studioIdParams,
    response: { status: 200, schema: invoiceStatsResponseSchema, description: 'The statistics.', headers: noStore },
    errors,
    async handle({ params: { id } }, dependencies, c) {
      return statsOf(readsOf(dependencies), ownStudio(c.get('principal'), id))
    },
  }),
  studioRoute({
    method: 'get',
    path: '/v1/studios/:id/transactions',
    summary: "The studio vault's own activity, read from the chain",
    description:
      "The deployment token's transfers into and out of the vault and the EntryPoint's UserOperationEvents of its operations, newest first, read from the chain's logs (no transaction service; native-token movements are not listed). `page` from 1, `limit` clamped to 1 through 100, default 20. Only the caller's own studio id (another is a 403).",
    ...ownerPolicy,
    params: studioIdParams,
    query: vaultTransactionsQuerySchema,
    response: { status: 200, schema: vaultTransactionsResponseSchema, description: 'One page of the activity.', headers: noStore },
    errors: [...errors, 'VAULT_ON_OTHER_CHAIN'],
    async handle({ params: { id }, query }, dependencies, c) {
      const reads = readsOf(dependencies)
      const studio = ownStudio(c.get('principal'), id)
      if (!onThisChain(reads, studio)) throw otherChain(studio, reads.chainId)
      const page = query.page ?? 1
      const limit = query.limit ?? 20
      const { items, headBlock } = await readVaultActivity({ client: reads.client, token: reads.token, entryPoint: reads.entryPoint, fromBlock: reads.fromBlock }, studio.vaultAddress)
      const shown = items.slice((page - 1) * limit, page * limit)
      const times = new Map<bigint, Promise<bigint>>()
      const timeOf = (blockNumber: bigint) => {
        let time = times.get(blockNumber)
        if (!time) times.set(blockNumber, (time = reads.client.getBlock({ blockNumber }).then((block) => block.timestamp)))
        return time
      }
      const transactions = await Promise.all(shown.map(async (item) => transactionOf(reads, item, await timeOf(item.place.blockNumber))))
      const totalPages = Math.ceil(items.length / limit)
      return {
        success: true as const,
        transactions,
        pagination: { page, limit, total: items.length, totalPages, hasNext: page < totalPages, hasPrev: page > 1 },
        vaultAddress: studio.vaultAddress,
        chainId: reads.chainId,
        headBlock: headBlock.toString(),
      }
    },
  }),
]
