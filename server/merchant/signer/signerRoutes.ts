import { apiRoute } from '../../routes/apiRoute'
import { studioKeyParams } from '../accounts/accountWire'
import { requireOwner } from '../accounts/requireOwner'
import { accountsLimit } from '../accounts/signInRoutes'
import type { SessionSignerDependencies } from './sendSessionCall'
import { forceRevoke, prepareRevocation, signerDependenciesOf, signerStatus, submitSignerOperation, type SignerSubmission } from './signerLifecycle'
import {
  activateSignerResponseSchema,
  confirmRevocationResponseSchema,
  forceRevokeResponseSchema,
  revokeResponseSchema,
  signedUserOpRequestSchema,
  signerStatusResponseSchema,
} from './signerWire'

/** Absent only where no chain is wired (a document of the routes, the in-process app). */
export type SignerRoutesDependencies = { serverSigner?: SessionSignerDependencies }

const signerRoute = apiRoute<SignerRoutesDependencies>()
/** SPEC 4.5 and 5.6: the owner's bearer token only; an API key, even this studio's, and an OAuth
 * grant are refused, and a key header beside the token is MIXED_AUTH (SPEC 5.1). */
const policy = { auth: 'merchant', cors: 'none', rateLimits: [accountsLimit], signedInOnly: true } as const
const ownerErrors = ['UNAUTHORIZED', 'FORBIDDEN', 'MIXED_AUTH'] as const
const noStore = { 'Cache-Control': 'no-store' }
const base = '/v1/studios/:studioId/signer'
const signatureLayout =
  "Sign `user_op.typedDataToSign` in the owner's wallet (eth_signTypedData_v4; the words a clear-signing wallet shows are in `user_op.clearSigning`, from the ERC-7730 descriptor in clear-signing/), set `user_op.signature` to the typed message's validUntil as 6 bytes (big-endian) followed by the 65-byte signature, and send the whole object back as `signed_user_op`, every other field as returned: the vault accepts no signature of a bare hash."
const submitErrors = [...ownerErrors, 'INVALID_STATE_TRANSITION', 'USEROP_CALL_MISMATCH', 'OWNER_SIGNATURE_REQUIRED', 'ALREADY_SUBMITTED', 'OWNER_OPERATION_PENDING', 'TRANSACTION_FAILED', 'BUNDLER_UNAVAILABLE'] as const

/** What the two routes that send an owner's signed operation answer: sent and not yet included (the
 * same signed operation sent again follows it), or included, with its transaction; each route names
 * the two states in its own words. */
function sentAnswer<Pending extends string, Done extends string>({ signerId, outcome }: SignerSubmission, pending: Pending, done: Done) {
  return outcome.status === 'pending'
    ? { signer_id: signerId, status: pending, userOpHash: outcome.userOpHash, message: 'the operation is sent and not yet included: send it again to follow it' }
    : { signer_id: signerId, status: done, tx_hash: outcome.txHash }
}

/** SPEC 4.4's activate-signer and 4.5's lifecycle: the studio's server signer, started and ended by its owner's wallet. */
export const signerRoutes = [
  signerRoute({
    method: 'get',
    path: `${base}/status`,
    summary: "The studio's server signer, as the vault's session module holds it",
    description:
      "Read from the chain at each request; the database adds the signer's id and a revocation asked for or forced here. pending_activation and revoked carry a fresh activation.user_op (or activation_error) and session_starts; upgrade_required carries vault_address. A fresh activation is a session start our paymaster sponsors: a studio has MERCHANT_DAILY_SESSION_STARTS of them a UTC day (session_starts: limit, used, remaining, resets_at), counted once per vault nonce (reading the status again costs none). Past them the status is still answered, 200, without an activation: activation_error says that no session can be started today and from when one can. Ending a session (revoke) is never limited.",
    ...policy,
    params: studioKeyParams,
    response: { status: 200, schema: signerStatusResponseSchema, description: 'The signer status.', headers: noStore },
    errors: ownerErrors,
    async handle({ params }, dependencies, c) {
      const { studio } = requireOwner(c, params.studioId)
      return signerStatus(signerDependenciesOf(dependencies.serverSigner), studio)
    },
  }),
  signerRoute({
    method: 'post',
    path: `${base}/revoke`,
    summary: "Prepares the vault operation that ends the server signer's session, for the owner to sign",
    description: `Nothing ends until the signed operation is sent to confirm-revocation; keys keep writing meanwhile (force-revoke stops them at once). ${signatureLayout}`,
    ...policy,
    params: studioKeyParams,
    response: { status: 200, schema: revokeResponseSchema, description: 'The EndSession operation to sign.', headers: noStore },
    errors: [...ownerErrors, 'INVALID_STATE_TRANSITION', 'PAYMASTER_UNAVAILABLE'],
    async handle({ params }, dependencies, c) {
      const { studio } = requireOwner(c, params.studioId)
      return prepareRevocation(signerDependenciesOf(dependencies.serverSigner), studio)
    },
  }),
  signerRoute({
    method: 'post',
    path: `${base}/confirm-revocation`,
    summary: 'Sends the signed EndSession and answers once it is included',
    description:
      'A 202 means sent and not yet included: send the same signed operation again to follow it (a timeout is reconciled from the chain, by its receipt or the vault\'s nonce, before anything else is sent).',
    ...policy,
    params: studioKeyParams,
    body: signedUserOpRequestSchema,
    response: { status: 200, schema: confirmRevocationResponseSchema, description: 'Revoked, or pending (202).', statusFor: (answer) => (answer.status === 'revoked' ? 200 : 202) },
    errors: submitErrors,
    async handle({ params, body }, dependencies, c) {
      const { studio } = requireOwner(c, params.studioId)
      const sent = await submitSignerOperation(signerDependenciesOf(dependencies.serverSigner), studio, body.signed_user_op, 'EndSession')
      return sentAnswer(sent, 'pending_revocation', 'revoked')
    },
  }),
  signerRoute({
    method: 'post',
    path: `${base}/force-revoke`,
    summary: "Revokes the server signer's write access in this service's database, at once",
    description: "No API key issues or cancels with the server signer after this answer. The chain is not touched: the vault's session stays installed until the owner ends it (revoke, then confirm-revocation).",
    ...policy,
    params: studioKeyParams,
    response: { status: 200, schema: forceRevokeResponseSchema, description: 'Revoked here; the message says what stays on-chain.' },
    errors: [...ownerErrors, 'INVALID_STATE_TRANSITION'],
    async handle({ params }, dependencies, c) {
      const { studio } = requireOwner(c, params.studioId)
      return forceRevoke(signerDependenciesOf(dependencies.serverSigner), studio)
    },
  }),
  signerRoute({
    method: 'post',
    path: '/v1/studios/:studioId/api-keys/activate-signer',
    summary: 'Sends the signed activation (StartSession) and answers once it is included',
    description: `The activation a key's creation or the signer's status answered, signed by the owner. ${signatureLayout} A 202 means sent and not yet included: send it again to follow it.`,
    ...policy,
    params: studioKeyParams,
    body: signedUserOpRequestSchema,
    response: { status: 200, schema: activateSignerResponseSchema, description: 'Active, or pending (202).', statusFor: (answer) => (answer.status === 'active' ? 200 : 202) },
    errors: submitErrors,
    async handle({ params, body }, dependencies, c) {
      const { studio } = requireOwner(c, params.studioId)
      const sent = await submitSignerOperation(signerDependenciesOf(dependencies.serverSigner), studio, body.signed_user_op, 'StartSession')
      return sentAnswer(sent, 'pending_activation', 'active')
    },
  }),
]
