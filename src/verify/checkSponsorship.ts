import type { Address, Hex } from 'viem'
import type { Deployment } from '../../shared/deployment'
import { decodeVerifyingPaymasterWindow, type SponsorshipWindow } from '../../shared/verifyingPaymaster'
import { sameAddress } from './sameAddress'
import type { UnsafeProblem } from './unsafeProblem'

export type CheckSponsorshipParameters = {
  deployment: Deployment
  /** The permit deadline the payer signed, in seconds. */
  permitDeadline: bigint
  /** Milliseconds since the epoch. */
  now: number
}

/**
 * The paymaster's data is the operation's real validity window: SimpleAccount sets none of its own.
 * It must be the pinned VerifyingPaymaster's layout, end no later than the permit (so a held operation
 * cannot pay after the payer was told it lapsed) and be valid now. Returns the decoded window, or the
 * reasons to refuse.
 */
export function checkSponsorship(
  { paymaster, paymasterData }: { paymaster?: Address | undefined; paymasterData?: Hex | undefined },
  { deployment, permitDeadline, now }: CheckSponsorshipParameters,
): { problems: UnsafeProblem[]; window: SponsorshipWindow | null } {
  if (!paymaster) {
    return { problems: [{ code: 'PAYMASTER_MISSING', message: 'The operation is not sponsored: your vault would pay the network fee itself.' }], window: null }
  }
  if (!sameAddress(paymaster, deployment.paymaster)) {
    const message = `The operation is sponsored by ${paymaster}, not by this checkout's paymaster ${deployment.paymaster}.`
    return { problems: [{ code: 'PAYMASTER_MISMATCH', message }], window: null }
  }
  const window = decodeVerifyingPaymasterWindow(paymasterData)
  if (!window) {
    const message = 'The sponsorship data is not the paymaster\'s validity window followed by a 64- or 65-byte signature.'
    return { problems: [{ code: 'PAYMASTER_DATA_MALFORMED', message }], window: null }
  }
  return { problems: sponsorshipWindowProblems(window, { permitDeadline, now }), window }
}

/** A window a payer may sign: it ends, no later than the permit, and has begun. The server holds a
 * third party's sponsorship to the same rule before it hands the operation out. */
export function sponsorshipWindowProblems(
  window: SponsorshipWindow,
  { permitDeadline, now }: Pick<CheckSponsorshipParameters, 'permitDeadline' | 'now'>,
): UnsafeProblem[] {
  const problems: UnsafeProblem[] = []
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

export function isoSeconds(seconds: number): string {
  return Number.isFinite(seconds) && Math.abs(seconds) <= 8.64e12 ? new Date(seconds * 1000).toISOString() : 'an invalid date'
}
