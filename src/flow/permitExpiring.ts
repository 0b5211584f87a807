import { minPermitRemainingSeconds } from '../../shared/permit'

/** SPEC 7.3: the server refuses a permit with less than two minutes left at prepare and at submit,
 * so the widget stops there too, rather than have the payer sign an operation bound to fail. */
const permitMarginMs = minPermitRemainingSeconds * 1000

export function permitExpiring(deadline: bigint, now: number): boolean {
  return Number(deadline) * 1000 - now <= permitMarginMs
}

/** A sponsorship (the operation's window, Unix seconds) with no more time left than a permit needs is
 * as good as ended: what it sponsors could not be signed, sent and included within it. */
export function sponsorshipExpiring(validUntil: number, now: number): boolean {
  return permitExpiring(BigInt(validUntil), now)
}
