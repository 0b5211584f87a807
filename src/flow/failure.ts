import { ApiError } from './apiError'

/** A thrown value, reduced to what the state machine decides on (events stay plain data). */
export type Failure =
  /** The payer declined in the wallet (EIP-1193 4001). */
  | { kind: 'rejected' }
  | { kind: 'api'; status: number; code: string; retryAfter: number | null }
  /** Neither the pinned RPC nor the wallet answered a read the step cannot do without. */
  | { kind: 'chainUnreadable' }
  /** Anything else: a fetch that never answered, a wallet or RPC fault. */
  | { kind: 'unknown' }

export class ChainUnreadableError extends Error {
  override name = 'ChainUnreadableError'
  readonly code = 'CHAIN_UNREADABLE'
}

export function toFailure(error: unknown): Failure {
  if (error instanceof ApiError) {
    return { kind: 'api', status: error.status, code: error.code, retryAfter: error.retryAfter ?? null }
  }
  if (error instanceof ChainUnreadableError) return { kind: 'chainUnreadable' }
  return isUserRejection(error) ? { kind: 'rejected' } : { kind: 'unknown' }
}

/** Wallet libraries wrap the provider's error (viem, wagmi): 4001 may sit a few causes deep. */
function isUserRejection(error: unknown): boolean {
  for (let depth = 0; depth < 8 && typeof error === 'object' && error !== null; depth++) {
    if ((error as { code?: unknown }).code === 4001) return true
    error = (error as { cause?: unknown }).cause
  }
  return false
}
