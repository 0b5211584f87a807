/**
 * The error codes the page words itself and may tell the host: its own (a request that never got an
 * answer, a wallet or chain fault, a verifier that could not decide) and the pay API's (SPEC 7.3 and
 * the pay routes'). A service can answer any string as its code, of any length and with markup in it;
 * anything outside this list is `UNKNOWN_ERROR`, so what the payer reads and what the host's `error`
 * event carries is always one of ours, never the service's words.
 */
export const knownErrorCodes = new Set([
  // the page's own
  'NETWORK_ERROR',
  'INVALID_RESPONSE',
  'WALLET_ERROR',
  'CONNECT_FAILED',
  'CHAIN_UNREADABLE',
  'VERIFICATION_FAILED',
  // the service asked for a new permit (its PERMIT_EXPIRED) while the chain's clock has the signed one good
  'PERMIT_REFUSED',
  'UNKNOWN_ERROR',
  // the pay API's
  'VALIDATION_ERROR',
  'NOT_FOUND',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'TOKEN_REQUIRED',
  'RATE_LIMITED',
  'QUOTA_EXCEEDED',
  'SPONSORSHIP_LIMIT',
  'INVALID_STATUS',
  'REQUEST_IN_PROGRESS',
  'IDEMPOTENCY_KEY_REQUIRED',
  'IDEMPOTENCY_KEY_INVALID',
  'IDEMPOTENCY_CONFLICT',
  'IDEMPOTENCY_LEASE_CONTENTION',
  'IDEMPOTENCY_SUBMISSION_UNCERTAIN',
  'INSUFFICIENT_BALANCE',
  'PERMIT_EXPIRED',
  'PERMIT_SIGNATURE_INVALID',
  'PERMIT_DEADLINE_TOO_FAR',
  'USEROP_PERMIT_MISMATCH',
  'USEROP_SIGNATURE_INVALID',
  'USEROP_NOT_PREPARED',
  'PAYER_NOT_OWNER_VAULT',
  'FUNDING_PERMIT_INVALID',
  'FUNDING_OWNER_MISMATCH',
  'FUNDING_AMOUNT_MISMATCH',
  'TOKEN_NOT_SUPPORTED',
  'TRANSACTION_FAILED',
  'PAYLOAD_TOO_LARGE',
  'UPSTREAM_BUSY',
  'BUNDLER_UNAVAILABLE',
  'PAYMASTER_UNAVAILABLE',
  'PAYMASTER_SPONSORSHIP_INVALID',
  'CHAIN_UNAVAILABLE',
  'INTERNAL_ERROR',
  'UNAVAILABLE',
])

/** `code` when it is one of ours, else `UNKNOWN_ERROR`. */
export function knownErrorCode(code: unknown): string {
  return typeof code === 'string' && knownErrorCodes.has(code) ? code : 'UNKNOWN_ERROR'
}
