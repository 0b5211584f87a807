import type { IssueDue } from './issueFingerprint'

const secondsPerDay = 86_400n

/**
 * The invoice's due time in Unix seconds: `dueAt` as sent, or `dueDays` whole days after `anchor`,
 * the creation of the operation's idempotency record (SPEC 4.9). A retry a day later has the same
 * anchor, so it issues, or finalizes, the invoice the first request built.
 */
export function dueAtOf(due: IssueDue, anchor: Date): bigint {
  if ('dueAt' in due) return due.dueAt
  return BigInt(Math.floor(anchor.getTime() / 1000)) + BigInt(due.dueDays) * secondsPerDay
}
