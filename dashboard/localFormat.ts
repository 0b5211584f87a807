import { negotiateLanguage } from '../src/ui/languages'
import { displayAmount } from './dashboardApi'

/**
 * Amounts, dates and moments as the merchant's language writes them (Intl), from the catalog's `lang`.
 * Arabic keeps Latin digits, as the pay page and the wallet's prompts write amounts, so the merchant
 * compares the same figures everywhere.
 */
const tagOf = (lang: string) => negotiateLanguage([lang]).tag

/** Base units with the token's decimals, none lost: Intl groups the whole part (a bigint, exact at
 * any size) and gives the decimal separator; the fraction is the exact digits `displayAmount` keeps. */
export function localAmount(baseUnits: string, lang: string, decimals = 6): string {
  const [whole, fraction] = displayAmount(baseUnits, decimals).split('.') as [string, string]
  const tag = tagOf(lang)
  const separator = new Intl.NumberFormat(tag, { minimumFractionDigits: 1 }).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.'
  return `${new Intl.NumberFormat(tag).format(BigInt(whole))}${separator}${fraction}`
}

/** A moment the API answers, as unix seconds (a decimal string) or an ISO 8601 string. */
const dateOf = (at: string) => (/^\d+$/.test(at) ? new Date(Number(at) * 1000) : new Date(at))

/** A due day is the chain's day, which the invoice's record and the pay page write in UTC: a merchant
 * west or east of it must not read the day before or after. */
export const localDate = (at: string, lang: string) => dateOf(at).toLocaleDateString(tagOf(lang), { dateStyle: 'medium', timeZone: 'UTC' })

export const localMoment = (at: string, lang: string) => dateOf(at).toLocaleString(tagOf(lang), { dateStyle: 'medium', timeStyle: 'short' })
