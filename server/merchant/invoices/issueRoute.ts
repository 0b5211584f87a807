import { randomUUID } from 'node:crypto'
import { apiRoute } from '../../routes/apiRoute'
import { InvoiceLimitExceededError } from '../oauth/invoiceLimitExceededError'
import { invoicesLimit } from '../../routes/invoiceShareRoutes'
import type { IdempotencyStore } from '../idempotency/idempotencyStore'
import { idempotentSubmissionErrors, readIdempotencyKey, idempotencyKeyHeader } from '../idempotency/idempotencyKey'
import { issueFingerprint } from '../idempotency/issueFingerprint'
import { runIdempotent } from '../idempotency/runIdempotent'
import { finalizeIssuance, keptIssuance, pollIssuance, replayedIssuance, submitIssuance, type IssueDependencies, type IssuedAnswer, type IssueWork } from './issueInvoice'
import { issueAnswerSchema, issueRequestSchema } from './issueWire'

export type IssueRouteDependencies = IssueDependencies & {
  idempotency: IdempotencyStore
  /** IDEMPOTENCY_KEY_REQUIRED: a request without the header is refused. */
  idempotencyKeyRequired: boolean
}

export type IssueRoutesDependencies = { issue?: IssueRouteDependencies }

/** The issuance routes' dependencies (server-signed and client-signed alike), which a server
 * without a signer or chain does not wire. */
export function issueOf(dependencies: IssueRoutesDependencies): IssueRouteDependencies {
  if (!dependencies.issue) throw new Error('the issuance routes are mounted without their dependencies')
  return dependencies.issue
}

/** Answers with a share link carry a bearer credential: no cache may keep one. */
export const noStore = { 'Cache-Control': 'no-store' }

/**
 * SPEC 4.9: POST /v1/invoices/issue. The server's session key signs the vault's issueInvoice (the
 * vault's module lets it do that and cancel, nothing else), under the request's Idempotency-Key
 * (SPEC 7.4): the same key and payload issue one invoice however often they are sent.
 */
export const issueRoutes = [
  apiRoute<IssueRoutesDependencies>()({
    method: 'post',
    path: '/v1/invoices/issue',
    summary: 'Issue an invoice to a customer, signed by the server signer',
    description:
      "Issues the invoice on-chain from the studio's vault, signed by the server's session key, stores its metadata encrypted, and answers its share link. " +
      `Send an ${idempotencyKeyHeader} header and repeat the same request with it to retry or to follow a 202.`,
    auth: 'merchant',
    scope: 'invoice:write',
    signedInUsers: 'refused',
    cors: 'none',
    rateLimits: [invoicesLimit],
    body: issueRequestSchema,
    response: {
      status: 200,
      schema: issueAnswerSchema,
      description: '200: issued (top-level fields, not under data); 202: sent and not yet on-chain, repeat the request with the same key.',
      headers: noStore,
      statusFor: (answer) => (answer.status === 'pending' ? 202 : 200),
    },
    errors: [
      'UNAUTHORIZED',
      'FORBIDDEN',
      'NOT_FOUND',
      'PROFILE_INCOMPLETE',
      'no_active_signer',
      'QUOTA_EXCEEDED',
      'LIMIT_EXCEEDED',
      'TRANSACTION_FAILED',
      ...idempotentSubmissionErrors,
    ],
    async handle({ body }, dependencies, c) {
      const issue = issueOf(dependencies)
      const principal = c.get('principal')
      const { studio } = principal
      const key = readIdempotencyKey(c.req.header(idempotencyKeyHeader), { required: issue.idempotencyKeyRequired })
      // an OAuth grant (the CLI's on REST, an agent's through MCP) is held to the limits its person set
      // at consent here, for both doors: refused before any quota is spent or anything signed, a key it
      // already used answered again whatever the limits; the place it takes is given back if the issue fails
      const limits = principal.kind === 'oauth' ? principal.issueLimits : null
      const reservation = limits ? await limits.reserve(body.amount, key ?? randomUUID()) : null
      if (reservation?.refusal) throw new InvoiceLimitExceededError(reservation.refusal)
      // the schema has refused a body without these
      const customerId = body.customerId!
      const due = body.dueAt !== undefined ? { dueAt: body.dueAt } : { dueDays: body.dueDays! }
      const input = { customerId, amount: body.amount, due, description: body.description, sendEmail: body.sendEmail ?? false }
      const chainId = issue.signer.deployment.chainId
      // whether this request handed an operation to the bundler: until then a failure sent nothing
      let sent = false
      try {
        return await runIdempotent<IssueWork, IssuedAnswer>(
          issue.idempotency,
          { scope: { studioId: studio.id, chainId, route: 'invoices.issue' }, key, fingerprint: issueFingerprint({ studioId: studio.id, chainId, ...input }) },
          {
            submit: ({ anchor, submissionBegins }) =>
              submitIssuance(issue, { studio, input, anchor, submissionBegins: (work, userOpHash) => ((sent = true), submissionBegins(work, userOpHash)) }),
            poll: ({ userOpHash }) => pollIssuance(issue, { userOpHash }),
            finalize: ({ userOpHash, invoiceId, txHash }) => finalizeIssuance(issue, { userOpHash, invoiceId, txHash }),
            kept: { keep: keptIssuance, replay: (kept) => replayedIssuance(issue, kept as ReturnType<typeof keptIssuance>) },
          },
        )
      } catch (error) {
        // given back only when nothing was sent: an invoice that may be on-chain keeps its place
        if (reservation && reservation.refusal === null && !sent) await reservation.release()
        throw error
      }
    },
  }),
]
