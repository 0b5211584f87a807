import * as z from 'zod/mini'
import { apiRoute } from '../../routes/apiRoute'
import { accountsLimit } from '../accounts/signInRoutes'
import { requireOwner } from '../accounts/requireOwner'
import type { OperationQuota, QuotaPeriodUsage } from '../signer/operationQuota'

/** Absent only where no request reaches the route (a document of it). */
export type StudioQuotaRoutesDependencies = { quotas?: Pick<OperationQuota, 'usage'> }

const quotaParams = z.object({ id: z.uuid('the studio id is a UUID') })

const quotaSchema = z.object({
  /** What the quota counts. */
  name: z.literal('sponsored_operations'),
  /** The UTC day, or the UTC calendar month that the days add up to. */
  period: z.enum(['day', 'month']),
  limit: z.int(),
  used: z.int(),
  /** Among used: sponsored operations handed out for the owner's wallet to sign and not sent yet,
   * while their sponsorship lasts. */
  reserved: z.int(),
  /** What can still be sent in the period: the day's is never more than the month leaves. */
  remaining: z.int(),
  /** When the period starts again: the next UTC midnight, or the first of the next month. */
  resetsAt: z.string(),
})

export const studioQuotasResponseSchema = z.object({ success: z.literal(true), studioId: z.string(), quotas: z.array(quotaSchema) })

/**
 * SPEC 2.11 and 4.1: the studio's quotas as counted now, never figures written down. The one quota
 * this deployment keeps is the vault operations our paymaster sponsors for the studio: withdrawals,
 * refunds, client-signed issues and cancels, the server signer's, and the vault's deployment, limited
 * per UTC day (MERCHANT_DAILY_OPERATION_QUOTA) and per UTC month (MERCHANT_MONTHLY_OPERATION_QUOTA),
 * one entry each. HTTP rate limits are apart.
 */
export const studioQuotaRoutes = [
  apiRoute<StudioQuotaRoutesDependencies>()({
    method: 'get',
    path: '/v1/studios/:id/quotas',
    summary: "The studio's quotas, as counted now",
    description: "The studio owner's bearer token only. The sponsored vault operations, two entries: period day (the current UTC day, resetsAt the next UTC midnight) and period month (the current UTC month, the sum of its days, resetsAt the first of the next month). Each has limit, used (reservations included: an operation counts from its prepare), reserved (of used, the operations prepared for the owner's wallet and not sent yet, while their sponsorship lasts), remaining (what can still be sent: the day's never more than the month leaves) and resetsAt, read from the counter every instance shares. An operation is refused (429 QUOTA_EXCEEDED) once either is used.",
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
      const { month, ...day } = await dependencies.quotas.usage(studio.id)
      const monthRemaining = Math.max(0, month.limit - month.used)
      // remaining is what can still be sent: near the month's end the month leaves less than the day
      const entry = (period: 'day' | 'month', { limit, used, reserved, resetsAt }: QuotaPeriodUsage) =>
        ({ name: 'sponsored_operations' as const, period, limit, used, reserved, remaining: Math.min(monthRemaining, Math.max(0, limit - used)), resetsAt: resetsAt.toISOString() })
      return { success: true as const, studioId: studio.id, quotas: [entry('day', day), entry('month', month)] }
    },
  }),
]
