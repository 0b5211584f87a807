/** A chain timestamp (seconds) as the payer and the operator read it; a value no Date holds says so
 * rather than throw. */
export function isoSeconds(seconds: number): string {
  return Number.isFinite(seconds) && Math.abs(seconds) <= 8.64e12 ? new Date(seconds * 1000).toISOString() : 'an invalid date'
}
