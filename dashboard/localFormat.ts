import { formatDecimal, formatMoment, formatMoney } from '../src/ui/format'
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

/** An amount with its token's symbol, inside a sentence: isolated as the pay page writes money, so that
 * in Arabic the figure and the symbol keep their order. */
export function localMoney(baseUnits: string, lang: string, token: { decimals: number; symbol: string }): string {
  return formatMoney(localAmount(baseUnits, lang, token.decimals), token.symbol, tagOf(lang))
}

/** A moment the API answers, as unix seconds (a decimal string) or an ISO 8601 string. */
const dateOf = (at: string) => (/^\d+$/.test(at) ? new Date(Number(at) * 1000) : new Date(at))

/** A due day is the chain's day, which the invoice's record and the pay page write in UTC: a merchant
 * west or east of it must not read the day before or after. */
export const localDate = (at: string, lang: string) => dateOf(at).toLocaleDateString(tagOf(lang), { dateStyle: 'medium', timeZone: 'UTC' })

export const localMoment = (at: string, lang: string) => formatMoment(dateOf(at).getTime(), tagOf(lang))
