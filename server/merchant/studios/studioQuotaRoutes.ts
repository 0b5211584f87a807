import * as z from 'zod/mini'
import { apiRoute } from '../../routes/apiRoute'
import { accountsLimit } from '../accounts/signInRoutes'
import { requireOwner } from '../accounts/requireOwner'
import type { OperationQuota } from '../signer/operationQuota'

/** Absent only where no request reaches the route (a document of it). */
export type StudioQuotaRoutesDependencies = { quotas?: Pick<OperationQuota, 'usage'> }

const quotaParams = z.object({ id: z.uuid('the studio id is a UUID') })

const quotaSchema = z.object({
  /** What the quota counts. */
  name: z.literal('sponsored_operations'),
  period: z.literal('day'),
  limit: z.int(),
  used: z.int(),
  remaining: z.int(),
  /** When the period starts again (the next UTC midnight). */
  resetsAt: z.string(),
})

export const studioQuotasResponseSchema = z.object({ success: z.literal(true), studioId: z.string(), quotas: z.array(quotaSchema) })

/**
 * SPEC 2.11 and 4.1: the studio's quotas as counted now, never figures written down. The one quota
 * this deployment keeps is the vault operations our paymaster sponsors for the studio per UTC day
 * (MERCHANT_DAILY_OPERATION_QUOTA): withdrawals, refunds, client-signed issues and cancels, the
 * server signer's, and the vault's deployment. There is no monthly quota; HTTP rate limits are apart.
 */
export const studioQuotaRoutes = [
  apiRoute<StudioQuotaRoutesDependencies>()({
    method: 'get',
    path: '/v1/studios/:id/quotas',
    summary: "The studio's quotas, as counted now",
    description: "The studio owner's bearer token only. The sponsored vault operations of the current UTC day: limit, used (reservations included: an operation counts from its prepare), remaining and resetsAt, read from the counter every instance shares.",
    auth: 'merchant',
    cors: 'none',
    rateLimits: [accountsLimit],
    signedInOnly: true,
    params: quotaParams,
    response: { status: 200, schema: studioQuotasResponseSchema, description: 'The quotas.', headers: { 'Cache-Control': 'no-store' } },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'MIXED_AUTH'],
    async handle({ params }, dependencies, c) {
      const { studio } = requireOwner(c, params.id)
      if (!dependencies.quotas) throw new Error('the quota route is mounted without its dependencies')
      const usage = await dependencies.quotas.usage(studio.id)
      return {
        success: true as const,
        studioId: studio.id,
        quotas: [{ name: 'sponsored_operations' as const, period: 'day' as const, limit: usage.limit, used: usage.used, remaining: Math.max(0, usage.limit - usage.used), resetsAt: usage.resetsAt.toISOString() }],
      }
    },
  }),
]
