import { isoSeconds } from './isoSeconds'
import type { SponsorshipWindow } from './verifyingPaymaster'

export type SponsorshipWindowProblem = {
  code: 'SPONSORSHIP_UNBOUNDED' | 'SPONSORSHIP_OUTLIVES_PERMIT' | 'SPONSORSHIP_NOT_YET_VALID'
  message: string
}

/**
 * A window a payer may sign: it ends, no later than the permit, and has begun. Both sides run this
 * one rule: the widget before it signs (src/verify/checkSponsorship.ts) and the server before it
 * hands out a third party's sponsorship (server/chain/assertSponsorshipUsable.ts), so that the server
 * never offers an operation the widget would refuse. Messages are written for the payer.
 */
export function sponsorshipWindowProblems(
  window: SponsorshipWindow,
  { permitDeadline, now }: { /** seconds */ permitDeadline: bigint; /** milliseconds since the epoch */ now: number },
): SponsorshipWindowProblem[] {
  const problems: SponsorshipWindowProblem[] = []
  if (window.validUntil === 0) {
    problems.push({ code: 'SPONSORSHIP_UNBOUNDED', message: 'The sponsorship never expires (validUntil 0).' })
  } else if (BigInt(window.validUntil) > permitDeadline) {
    problems.push({
      code: 'SPONSORSHIP_OUTLIVES_PERMIT',
      message: `The sponsorship stays valid until ${isoSeconds(window.validUntil)}, after your permit ends at ${isoSeconds(Number(permitDeadline))}.`,
    })
  }
  if (window.validAfter * 1000 > now) {
    problems.push({ code: 'SPONSORSHIP_NOT_YET_VALID', message: `The sponsorship only starts at ${isoSeconds(window.validAfter)}.` })
  }
  return problems
}
