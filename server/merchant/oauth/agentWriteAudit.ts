import type { MiddlewareHandler } from 'hono'
import type { AuthEnv, Principal } from '../../auth/principal'
import type { Logger } from '../../http/logger'
import type { ApiKeyAuditLog } from '../accounts/apiKeyAuditLog'

export type AgentWriteAudit = Pick<ApiKeyAuditLog, 'recordAgentWrite'>

/** What a write route answered, and what it was asked, as the audit's sentence needs them. */
export type AgentWrite = { route: string; params: Record<string, unknown> | undefined; body: Record<string, unknown> | undefined; answer: unknown }

type Answer = Record<string, any> | null | undefined

const customerOf = (answer: Answer) => (answer?.data ?? answer) as Answer

/**
 * The sentence an owner reads in the audit log, and an agent's tool result carries, for one write:
 * what happened to which invoice or customer, said the way the dashboard says it. Null for an
 * answer that wrote nothing (a replay by idempotency key answers the first write again).
 */
export function describeAgentWrite({ route, params, body, answer }: AgentWrite): string | null {
  const a = answer as Answer
  switch (route) {
    case 'POST /v1/invoices/issue': {
      if (a?.idempotency?.replayed === true) return null
      const to = typeof body?.customerId === 'string' ? ` to customer ${body.customerId}` : ''
      if (a?.status === 'pending') return `sent an invoice of ${String(body?.amount ?? '?')} base units${to} for issuance; not yet on-chain (operation ${String(a.userOpHash)})`
      const mailed = a?.delivery?.to ? `, mailed to ${String(a.delivery.to)}` : ''
      return `issued invoice ${String(a?.id)} (number ${String(a?.invoiceNumber)}) of ${String(a?.amount)} base units${to}, ${typeof body?.dueAt === 'number' || typeof body?.dueAt === 'string' ? `due ${new Date(Number(body.dueAt) * 1000).toISOString().slice(0, 10)}` : `due in ${String(body?.dueDays ?? '?')} days`}${mailed}`
    }
    case 'POST /v1/invoices/:id/cancel/submit':
      return a?.status === 'Canceled' ? `canceled invoice ${String(params?.id)} (transaction ${String(a.txHash)})` : `sent the cancellation of invoice ${String(params?.id)}; not yet on-chain (operation ${String(a?.userOpHash)})`
    case 'POST /v1/invoices/:id/send-email':
      return `asked for invoice ${String(params?.id)} to be mailed to ${String(a?.delivery?.to ?? 'its customer')} (${String(a?.delivery?.status ?? 'queued')})`
    case 'POST /v1/customers': {
      const customer = customerOf(a)
      return `created customer ${String(customer?.legalName)} <${String(customer?.email)}> (${String(customer?.id)})`
    }
    case 'PATCH /v1/customers/:id': {
      const customer = customerOf(a)
      return `changed customer ${String(customer?.legalName ?? params?.id)} (${String(params?.id)}): ${Object.keys(body ?? {}).join(', ') || 'nothing'}`
    }
    case 'DELETE /v1/customers/:id':
      return `deleted customer ${String(params?.id)}`
    default:
      return `${route} succeeded`
  }
}

type OAuthPrincipal = Extract<Principal, { kind: 'oauth' }>

/** Writes the agent's write into the studio's audit log, with its client's name. */
export async function recordAgentWrite(audit: AgentWriteAudit, principal: OAuthPrincipal, write: AgentWrite & { method: string; path: string }): Promise<string | null> {
  const summary = describeAgentWrite(write)
  if (summary === null) return null
  await audit.recordAgentWrite(principal.studio.id, { clientId: principal.clientId, clientName: principal.clientName, userId: principal.userId, method: write.method, path: write.path, summary })
  return summary
}

/**
 * A CLI sign-in's writes on the REST routes (SPEC 5.6's OAuth column), each one in the audit log
 * once it succeeded. Awaited: a write the log failed to keep is logged as such, but the merchant's
 * answer stands, since the write itself is done.
 */
export function auditOAuthWrites(audit: AgentWriteAudit, route: { method: string; path: string }, logger: Pick<Logger, 'error'>): MiddlewareHandler<AuthEnv> {
  const name = `${route.method.toUpperCase()} ${route.path}`
  return async function auditedOAuthWrite(c, next) {
    await next()
    const principal = c.get('principal')
    if (principal?.kind !== 'oauth' || c.res.status >= 400) return
    const valid = (target: string) => {
      try {
        return (c.req as unknown as { valid(target: string): Record<string, unknown> | undefined }).valid(target)
      } catch {
        return undefined
      }
    }
    const answer = await c.res.clone().json().catch(() => null)
    try {
      await recordAgentWrite(audit, principal, { route: name, params: c.req.param() as Record<string, unknown>, body: valid('json'), answer, method: c.req.method, path: new URL(c.req.url).pathname })
    } catch (error) {
      logger.error({ err: error }, 'an OAuth client write was not written to the audit log')
    }
  }
}
