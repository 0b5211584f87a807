import { formatUnits } from './formatUnits'

export type Token = { symbol: string; decimals: number }

// Building an Intl formatter costs far more than using one (the first loads the locale's data): a
// page renders the same few formats dozens of times, on a phone, inside hydration's one task
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>()

function formatter<T extends Intl.NumberFormat | Intl.DateTimeFormat>(build: new (tag: string, options: object) => T, tag: string, options: object): T {
  const key = `${build.name} ${tag} ${JSON.stringify(options)}`
  let cached = formatters.get(key) as T | undefined
  if (!cached) formatters.set(key, (cached = new build(tag, options)))
  return cached
}

/** A decimal string ("1234.5") in the payer's locale, exact to its last digit (Intl formats decimal
 * strings without going through a float). */
export function formatDecimal(decimal: string, tag: string, maximumFractionDigits = 18): string {
  // two places at least, as money is written, unless the token has fewer (Intl refuses a minimum above the maximum)
  const minimumFractionDigits = Math.min(2, maximumFractionDigits)
  return formatter(Intl.NumberFormat, tag, { minimumFractionDigits, maximumFractionDigits }).format(decimal as Intl.StringNumericLiteral)
}

/** A base-unit amount as the payer reads it: "4,540.00 USDC". */
export function formatTokenAmount(raw: bigint, token: Token, tag: string): string {
  return formatMoney(formatTokenNumber(raw, token, tag), token.symbol, tag)
}

/** A formatted figure and its token's symbol: "4,540.00 USDC". In a right-to-left language it is
 * isolated left to right (LRI … PDI), so the figure and its symbol keep their order among the words,
 * and never broken between two lines: a line starting with the symbol would read as another amount. */
export function formatMoney(figure: string, symbol: string, tag: string): string {
  return /^ar\b/i.test(tag) ? `\u2066${figure}\u00a0${symbol}\u2069` : `${figure} ${symbol}`
}

/** The same without the symbol, where the sentence names the token once: "4,540.00". */
export function formatTokenNumber(raw: bigint, token: Token, tag: string): string {
  return formatDecimal(formatUnits(raw, token.decimals), tag, token.decimals)
}

/** A calendar date. Invoice dates are whole days (UTC), so they are shown in UTC: no day shifts. */
export function formatDay(date: Date, tag: string): string {
  return formatter(Intl.DateTimeFormat, tag, { dateStyle: 'long', timeZone: 'UTC' }).format(date)
}

/** A moment, in the payer's own time zone. */
export function formatMoment(ms: number, tag: string): string {
  return formatter(Intl.DateTimeFormat, tag, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms))
}

/** A count ("1,000" for a quantity). */
export function formatCount(count: number, tag: string): string {
  return formatter(Intl.NumberFormat, tag, {}).format(count)
}

/** "4:05" or "1:02:09": time left, never negative. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds))
  const two = (n: number) => String(n).padStart(2, '0')
  const hours = Math.floor(s / 3600)
  const minutes = Math.floor((s % 3600) / 60)
  return hours > 0 ? `${hours}:${two(minutes)}:${two(s % 60)}` : `${minutes}:${two(s % 60)}`
}
