import { apiRoute } from '../../routes/apiRoute'
import { invoicesLimit } from '../../routes/invoiceShareRoutes'
import { answerIdempotently } from '../idempotency/answerIdempotently'
import type { Json } from '../idempotency/idempotencyStore'
import { idempotencyKeyHeader, idempotentPrepareErrors, idempotentSubmissionErrors, readIdempotencyKey } from '../idempotency/idempotencyKey'
import { runIdempotent } from '../idempotency/runIdempotent'
import { checkClientSubmission, clientIssuanceSteps, prepareClientIssuance, prepareFingerprint, type ClientIssuedAnswer } from './clientSignedIssuance'
import { prepareIssueRequestSchema, prepareIssueResponseSchema, submitIssueRequestSchema, submitIssueResponseSchema } from './clientSignedWire'
import type { IssueWork } from './issueInvoice'
import { issueOf, noStore, type IssueRoutesDependencies } from './issueRoute'

/** The answer as its idempotency record keeps and replays it: JSON, with no undefined field. */
const asJson = <T extends object>(value: T) => JSON.parse(JSON.stringify(value)) as T & { readonly [key: string]: Json }

const clientSignedRoute = apiRoute<IssueRoutesDependencies>()

/**
 * SPEC 4.10: issuance signed by the vault's owner. prepare builds the vault's issueInvoice and the
 * typed Issue message the owner's wallet signs; POST /v1/invoices sends the signed operation. Both
 * take an Idempotency-Key (SPEC 7.4.1); no granular scope guards them (SPEC 5.6): the owner's
 * signature is what authorises the invoice.
 */
export const clientSignedIssueRoutes = [
  clientSignedRoute({
    method: 'post',
    path: '/v1/invoices/prepare',
    summary: "The vault operation that issues an invoice, for its owner's signature",
    description:
      "Nothing is sent. The operation is sponsored by our paymaster within the studio's daily and monthly quotas: sign it exactly as returned, since its gas and paymaster fields are in the hash the owner signs. " +
      "Its signature is the typed message's validUntil as 6 bytes (big-endian) followed by the owner's 65-byte signature of `typedDataToSign`, the MerchantVault's Issue message (ERC-7730 descriptor in clear-signing/): the vault accepts no signature of a bare hash. " +
      'With `metadata` (SPEC 2.5, hashing to metaHash), the record is kept encrypted under `encryption.pendingInvoiceId` until the invoice exists; there is no IPFS here, so `ipfsCid` is null, and `shareLink` is null until POST /v1/invoices answers it. ' +
      `An ${idempotencyKeyHeader} header makes a repeat answer the same operation.`,
    auth: 'merchant',
    cors: 'none',
    rateLimits: [invoicesLimit],
    body: prepareIssueRequestSchema,
    response: { status: 200, schema: prepareIssueResponseSchema, description: 'The unsigned operation and the message to sign.' },
    errors: [
      'UNAUTHORIZED',
      'FORBIDDEN',
      'NOT_FOUND',
      'OWNER_MISMATCH',
      'QUOTA_EXCEEDED',
      'TRANSACTION_FAILED',
      'PAYMASTER_UNAVAILABLE',
      ...idempotentPrepareErrors,
    ],
    async handle({ body }, dependencies, c) {
      const issue = issueOf(dependencies)
      const { studio } = c.get('principal')
      const key = readIdempotencyKey(c.req.header(idempotencyKeyHeader), { required: issue.idempotencyKeyRequired })
      const chainId = issue.signer.deployment.chainId
      return answerIdempotently(issue.idempotency, { scope: { studioId: studio.id, chainId, route: 'invoices.prepare' }, key, fingerprint: prepareFingerprint(studio.id, chainId, body) }, async () =>
        asJson(await prepareClientIssuance(issue, studio, body)),
      )
    },
  }),
  clientSignedRoute({
    method: 'post',
    path: '/v1/invoices',
    summary: 'Issue an invoice with the operation its owner signed',
    description:
      'The operation prepare returned, signed, and its `pendingInvoiceId` when prepare kept metadata: the invoice is then finalized with it and its tokenized share link answered. ' +
      `sendEmail needs customerId. Repeat the same request (with the same ${idempotencyKeyHeader}) to follow a 202; the answer names the invoice invoiceId, where /issue names it id.`,
    auth: 'merchant',
    cors: 'none',
    rateLimits: [invoicesLimit],
    body: submitIssueRequestSchema,
    response: {
      status: 200,
      schema: submitIssueResponseSchema,
      description: '200: confirmed on-chain; 202: sent and not yet on-chain, repeat the request.',
      headers: noStore,
      statusFor: (answer) => (answer.status === 'pending' ? 202 : 200),
    },
    errors: [
      'UNAUTHORIZED',
      'FORBIDDEN',
      'NOT_FOUND',
      'USEROP_CALL_MISMATCH',
      'USEROP_MISMATCH',
      'CUSTOMER_MISMATCH',
      'TRANSACTION_FAILED',
      'BUNDLER_UNAVAILABLE',
      ...idempotentSubmissionErrors,
    ],
    async handle({ body }, dependencies, c) {
      const issue = issueOf(dependencies)
      const { studio } = c.get('principal')
      const key = readIdempotencyKey(c.req.header(idempotencyKeyHeader), { required: issue.idempotencyKeyRequired })
      const checked = await checkClientSubmission(issue, studio, body)
      const chainId = issue.signer.deployment.chainId
      return runIdempotent<IssueWork, ClientIssuedAnswer>(
        issue.idempotency,
        { scope: { studioId: studio.id, chainId, route: 'invoices.submit' }, key, fingerprint: checked.fingerprint },
        clientIssuanceSteps(issue, studio, body, checked),
      )
    },
  }),
]
