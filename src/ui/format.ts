import { formatUnits } from './formatUnits'

type Token = { symbol: string; decimals: number }

/** A decimal string ("1234.5") in the payer's locale, exact to its last digit (Intl formats decimal
 * strings without going through a float). */
export function formatDecimal(decimal: string, tag: string, maximumFractionDigits = 18): string {
  const format = new Intl.NumberFormat(tag, { minimumFractionDigits: 2, maximumFractionDigits })
  return format.format(decimal as Intl.StringNumericLiteral)
}

/** A base-unit amount as the payer reads it: "4,540.00 USDC". */
export function formatTokenAmount(raw: bigint, token: Token, tag: string): string {
  return `${formatTokenNumber(raw, token, tag)} ${token.symbol}`
}

/** The same without the symbol, where the sentence names the token once: "4,540.00". */
export function formatTokenNumber(raw: bigint, token: Token, tag: string): string {
  return formatDecimal(formatUnits(raw, token.decimals), tag, token.decimals)
}

/** A calendar date. Invoice dates are whole days (UTC), so they are shown in UTC: no day shifts. */
export function formatDay(date: Date, tag: string): string {
  return new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' }).format(date)
}

/** A moment, in the payer's own time zone. */
export function formatMoment(ms: number, tag: string): string {
  return new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms))
}

/** "4:05" or "1:02:09": time left, never negative. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds))
  const two = (n: number) => String(n).padStart(2, '0')
  const hours = Math.floor(s / 3600)
  const minutes = Math.floor((s % 3600) / 60)
  return hours > 0 ? `${hours}:${two(minutes)}:${two(s % 60)}` : `${minutes}:${two(s % 60)}`
}
