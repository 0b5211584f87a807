import { formatDecimal, formatMoment } from '../src/ui/format'
import { formatUnits } from '../src/ui/formatUnits'
import { negotiateLanguage } from '../src/ui/languages'

/**
 * Amounts, dates and moments as the merchant's language writes them (Intl), from the catalog's `lang`.
 * Arabic keeps Latin digits, as the pay page and the wallet's prompts write amounts, so the merchant
 * compares the same figures everywhere.
 */
const tagOf = (lang: string) => negotiateLanguage([lang]).tag

/** Base units with the token's decimals, none lost, written as the pay page writes an amount
 * (formatDecimal: Intl formats the exact decimal string, so the digits and the separators are the
 * language's own). At least two places, as money is written, even for a token with fewer. */
export function localAmount(baseUnits: string, lang: string, decimals = 6): string {
  return formatDecimal(formatUnits(BigInt(baseUnits), decimals), tagOf(lang), Math.max(2, decimals))
}

/** A moment the API answers, as unix seconds (a decimal string) or an ISO 8601 string. */
const dateOf = (at: string) => (/^\d+$/.test(at) ? new Date(Number(at) * 1000) : new Date(at))

/** A due day is the chain's day, which the invoice's record and the pay page write in UTC: a merchant
 * west or east of it must not read the day before or after. */
export const localDate = (at: string, lang: string) => dateOf(at).toLocaleDateString(tagOf(lang), { dateStyle: 'medium', timeZone: 'UTC' })

export const localMoment = (at: string, lang: string) => formatMoment(dateOf(at).getTime(), tagOf(lang))
