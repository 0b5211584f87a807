/** The languages the page speaks: English first, then by where stablecoin payers are. Adding one:
 * docs/languages.md. */
export const languageCodes = ['en', 'es', 'pt-BR', 'fr', 'de', 'it', 'nl', 'pl', 'tr', 'ar', 'hi', 'id', 'vi', 'ja', 'ko', 'zh-CN'] as const

export type Language = (typeof languageCodes)[number]

/** Each language named in itself (a payer looks for their own language's name, not its name in a
 * language they cannot read), for the switch the server renders. */
export const languageNames: Record<Language, string> = {
  en: 'English',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  fr: 'Français',
  de: 'Deutsch',
  it: 'Italiano',
  nl: 'Nederlands',
  pl: 'Polski',
  tr: 'Türkçe',
  ar: 'العربية',
  hi: 'हिन्दी',
  id: 'Bahasa Indonesia',
  vi: 'Tiếng Việt',
  ja: '日本語',
  ko: '한국어',
  'zh-CN': '简体中文',
}

// Traditional Chinese readers are not served Simplified: they get English (or their next language)
// until a zh-TW catalog exists
const notServed = /^zh-(tw|hk|mo|hant)\b/

/** The page's language for one of the reader's tags (BCP 47, any case), or null: an exact match
 * first, then the tag's primary language ("pt-PT" reads the Brazilian catalog, "es-MX" the Spanish). */
export function languageOf(tag: string): Language | null {
  const lower = tag.toLowerCase()
  if (notServed.test(lower)) return null
  const exact = languageCodes.find((code) => code.toLowerCase() === lower)
  if (exact) return exact
  const primary = lower.split('-')[0]
  return languageCodes.find((code) => code.toLowerCase().split('-')[0] === primary) ?? null
}

/** The first of the reader's tags the page speaks, with the tag to format with: the reader's own
 * where it names the same language ("de-AT" keeps Austrian dates), else the catalog's. */
export function negotiateLanguage(tags: readonly string[]): { language: Language; tag: string } {
  for (const tag of tags) {
    const language = languageOf(tag)
    if (language) return { language, tag: formattingTag(language, tag) }
  }
  return { language: 'en', tag: 'en' }
}

function formattingTag(language: Language, tag: string): string {
  // Arabic with Latin digits: the amounts and the deadline must read the same as in the wallet's
  // prompt, which writes them in Latin digits; many Arabic-speaking markets write money so too
  if (language === 'ar') return /-u-/.test(tag) ? tag : `${tag}-u-nu-latn`
  return tag
}

export function textDirection(language: string): 'rtl' | 'ltr' {
  return language === 'ar' ? 'rtl' : 'ltr'
}

/** A count's plural category in a language (CLDR rules through Intl): catalogs pick their words by
 * it, never by `count === 1` (Polish, Arabic and others have more than two forms). */
export function pluralCategory(language: string, count: number): Intl.LDMLPluralRule {
  return new Intl.PluralRules(language).select(count)
}
