import { maxPermitSeconds, minPermitRemainingSeconds } from '../../shared/permit'
import { PaymentRefusedError } from './paymentRefusedError'

export function nowSeconds(now: () => number): bigint {
  return BigInt(Math.floor(now() / 1000))
}

/** The SPEC 8 window, checked at /permit, /prepare and submit alike. */
export function assertPermitUsable(deadline: bigint, now: () => number): void {
  const remaining = deadline - nowSeconds(now)
  if (remaining < BigInt(minPermitRemainingSeconds)) {
    throw new PaymentRefusedError('PERMIT_EXPIRED', 'the permit has less than two minutes left: request a new permit and prepare again')
  }
  if (remaining > BigInt(maxPermitSeconds)) {
    throw new PaymentRefusedError('PERMIT_DEADLINE_TOO_FAR', 'a permit deadline may be at most 24 hours ahead')
  }
}
