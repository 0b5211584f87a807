import * as z from 'zod/mini'

/**
 * ISO 3166-1 alpha-2, the officially assigned codes (249). Written out rather than read from `Intl`:
 * the runtime's region names also know codes no country has (EU, UN, XK, ZZ), and an invoice's
 * address must name a country the payer's tax office does.
 */
const assignedCountryCodes =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
  'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
  'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
  'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
  'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'

export const countryCodes: ReadonlySet<string> = new Set(assignedCountryCodes.split(' '))

export function isCountryCode(value: string): boolean {
  return countryCodes.has(value)
}

const countryMessage = 'the country is an ISO 3166-1 alpha-2 code, such as DE or GB'

/** Upper case accepted in any case ('de' is DE); 'UK' and 'EU' are not countries' codes. */
export const countryCodeSchema = z.string().check(z.trim(), z.toUpperCase(), z.refine(isCountryCode, countryMessage))

const line = (what: string, max: number) => z.string().check(z.trim(), z.minLength(1, `the ${what} must not be empty`), z.maxLength(max, `the ${what} is at most ${max} characters`))

/** SPEC 2.2 and 2.7: a postal address is always whole, every line non-empty; a change sends all of it. */
export const postalAddressSchema = z.strictObject({
  street: line('street', 200),
  city: line('city', 100),
  postal: line('postal code', 20),
  country: countryCodeSchema,
})

export type PostalAddress = z.infer<typeof postalAddressSchema>
