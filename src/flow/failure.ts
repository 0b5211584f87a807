import { CodedError, hasCode } from '../../shared/codedError'
import { hasProviderCode, providerErrors } from '../../shared/eip1193'
import { apiAnswerOf } from '../api/apiError'
import { knownErrorCode } from './knownErrorCode'

/** A thrown value, reduced to what the state machine decides on (events stay plain data). */
export type Failure =
  /** The payer declined in the wallet (EIP-1193 4001). */
  | { kind: 'rejected' }
  /** `code`: the service's code when it is one this page knows (`knownErrorCodes`), else UNKNOWN_ERROR. */
  | { kind: 'api'; status: number; code: string; retryAfter: number | null }
  /** Neither the pinned RPC nor the wallet answered a read the step cannot do without. */
  | { kind: 'chainUnreadable' }
  /** Anything else: a fetch that never answered, a wallet or RPC fault. */
  | { kind: 'unknown' }

export class ChainUnreadableError extends CodedError {
  override name = 'ChainUnreadableError'
  readonly code = 'CHAIN_UNREADABLE'
}

/** Decided by code and details, so an error is read the same whichever layer's class carries it. */
export function toFailure(error: unknown): Failure {
  if (hasCode(error, 'CHAIN_UNREADABLE')) return { kind: 'chainUnreadable' }
  const answer = apiAnswerOf(error)
  if (answer) return { kind: 'api', status: answer.status, code: knownErrorCode(answer.code), retryAfter: answer.retryAfter ?? null }
  // wallet libraries wrap the provider's error (viem, wagmi), and MetaMask mobile nests it in data
  return hasProviderCode(error, providerErrors.userRejected) ? { kind: 'rejected' } : { kind: 'unknown' }
}
