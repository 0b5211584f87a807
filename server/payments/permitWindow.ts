import { HttpError } from '../http/httpError'

/** SPEC 8: a permit lasts one hour unless asked otherwise, at most a day, and is refused with under
 * two minutes left, which is too little to sign, submit and be included. */
export const defaultPermitSeconds = 3_600
export const maxPermitSeconds = 86_400
export const minPermitRemainingSeconds = 120

export function nowSeconds(now: () => number): bigint {
  return BigInt(Math.floor(now() / 1000))
}

export function assertPermitUsable(deadline: bigint, now: () => number): void {
  const remaining = deadline - nowSeconds(now)
  if (remaining < BigInt(minPermitRemainingSeconds)) {
    throw new HttpError(409, 'PERMIT_EXPIRED', 'the permit has less than two minutes left: request a new permit and prepare again')
  }
  if (remaining > BigInt(maxPermitSeconds)) {
    throw new HttpError(400, 'PERMIT_DEADLINE_TOO_FAR', 'a permit deadline may be at most 24 hours ahead')
  }
}
