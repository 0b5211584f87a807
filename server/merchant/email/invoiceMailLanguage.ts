import type { Language } from '../../../src/ui/languages'

/**
 * The page's language a country's customers read, for the countries where one of the page's sixteen
 * gives it (ISO 3166-1 alpha-2). A country of several languages none of which dominates (Belgium,
 * Switzerland, Canada, Luxembourg, India) names none: guessing there would write to many customers in
 * a language that is not theirs, and English is the safer default.
 */
const countryLanguages: Readonly<Record<string, Language>> = {
  ...each(['DE', 'AT', 'LI'], 'de'),
  ...each(['ES', 'MX', 'AR', 'CO', 'CL', 'PE', 'VE', 'EC', 'GT', 'CU', 'BO', 'DO', 'HN', 'PY', 'SV', 'NI', 'CR', 'PA', 'UY', 'GQ'], 'es'),
  ...each(['BR', 'PT', 'AO', 'MZ', 'CV', 'GW', 'ST', 'TL'], 'pt-BR'),
  ...each(['FR', 'MC', 'SN', 'CI', 'ML', 'BF', 'NE', 'GN', 'BJ', 'TG', 'GA', 'CG', 'CD'], 'fr'),
  ...each(['IT', 'SM', 'VA'], 'it'),
  ...each(['NL', 'SR'], 'nl'),
  PL: 'pl',
  TR: 'tr',
  ...each(['SA', 'AE', 'EG', 'JO', 'KW', 'QA', 'BH', 'OM', 'IQ', 'SY', 'LB', 'LY', 'YE', 'SD', 'PS'], 'ar'),
  ID: 'id',
  VN: 'vi',
  JP: 'ja',
  KR: 'ko',
  CN: 'zh-CN',
  ...each(['US', 'GB', 'IE', 'AU', 'NZ'], 'en'),
}

function each(countries: readonly string[], language: Language): Record<string, Language> {
  return Object.fromEntries(countries.map((country) => [country, language]))
}

/** The language of a customer in `country`, or null where the country gives none. */
export function languageOfCountry(country: string | undefined): Language | null {
  return country ? (countryLanguages[country.toUpperCase()] ?? null) : null
}
