import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { oauthPage, renderOAuthConsent } from '../../server/merchant/oauth/consentPage'
import { consentCatalogs, consentLanguage, type ConsentStrings } from '../../server/merchant/oauth/consentStrings'
import { oauthPageStyle } from '../../server/merchant/oauth/oauthPageStyle'
import { languageCodes } from '../../src/ui/languages'

/** The consent page an agent or a CLI sends a person to, as the server renders it in each language. */
const consent = (language: (typeof languageCodes)[number]) =>
  renderOAuthConsent({
    uid: 'abc',
    clientName: 'Ledger <bot>',
    returnsTo: 'http://127.0.0.1:9',
    studios: [{ id: 'studio-1', name: 'Acme Studio' }],
    networks: [{ chainId: 31337, name: 'Devnet' }],
    resource: 'http://127.0.0.1:8080/mcp',
    scopes: ['invoice:read', 'invoice:write', 'customer:read', 'customer:write', 'dashboard:read'],
    language,
    token: { symbol: 'USDC', decimals: 6 },
  })

/** Every word of a catalog by its dotted path, nested ones too, sentences with values called with markers. */
function leaves(strings: ConsentStrings | object, path = ''): [string, string][] {
  return Object.entries(strings).flatMap(([key, value]): [string, string][] => {
    const at = path ? `${path}.${key}` : key
    if (typeof value === 'function') return [[at, (value as (...markers: string[]) => string)('⟦1⟧', '⟦2⟧', '⟦3⟧')]]
    if (value && typeof value === 'object') return leaves(value as object, at)
    return [[at, String(value)]]
  })
}
const english = new Map(leaves(consentCatalogs.en))
/** Words a language writes as English does: the product's words its readers use as they are. */
const sameAsEnglish: Record<string, readonly string[]> = { fr: ['studio'], de: ['studio'], it: ['studio'], nl: ['studio'], pl: ['studio'], id: ['studio'], vi: ['studio'] }

describe('the consent page in the 16 languages', () => {
  test('behavior: the language is the one picked on the page, else the app\'s ui_locales, else the browser\'s Accept-Language, else English', () => {
    expect(consentLanguage({ chosen: 'ar', uiLocales: 'de', acceptLanguageHeader: 'fr' })).toBe('ar')
    expect(consentLanguage({ chosen: null, uiLocales: 'ja ko', acceptLanguageHeader: 'fr' })).toBe('ja')
    expect(consentLanguage({ uiLocales: 'sv', acceptLanguageHeader: 'sv-SE, de-AT;q=0.8, en;q=0.5' })).toBe('de')
    expect(consentLanguage({ chosen: 'xx', acceptLanguageHeader: 'pt-PT' })).toBe('pt-BR')
    expect(consentLanguage({})).toBe('en')
  })

  test('behavior: every catalog says every sentence and every scope, keeps its values, leaves nothing in English but the product\'s words, and carries no markup', () => {
    for (const code of languageCodes) {
      const words = leaves(consentCatalogs[code])
      expect(words.map(([path]) => path).sort(), code).toEqual([...english.keys()].sort())
      if (code === 'en') continue
      const untranslated = words.filter(([path, text]) => path !== 'lang' && english.get(path) === text && !(sameAsEnglish[code] ?? []).includes(path)).map(([path]) => path)
      expect(untranslated, `${code} keeps English`).toEqual([])
      for (const [path, text] of words) {
        for (const marker of english.get(path)!.match(/⟦\d⟧/g) ?? []) expect(text, `${code} ${path}`).toContain(marker)
        expect(text, `${code} ${path}`).not.toMatch(/[<>&]/)
      }
    }
  })

  test('behavior: German reads German, Arabic reads right to left, each with every field labelled and a switch to the other 15 languages', () => {
    const german = consent('de')
    expect(german).toContain('<html lang="de" dir="ltr">')
    expect(german).toContain('<h1>Zugriff auf Ihr Studio erlauben</h1>')
    expect(german).toContain('Nach Ihrer Antwort kehren Sie zu <code>http://127.0.0.1:9</code> zurück.')
    expect(german).toContain('Rechnungen ausstellen und stornieren und sie Ihren Kunden per E-Mail senden <code>invoice:write</code>')
    expect(german).toContain('>Erlauben</button>')
    // the client's name is the client's, never markup
    expect(german).toContain('<strong>Ledger &#60;bot&#62;</strong>')
    const arabic = consent('ar')
    expect(arabic).toContain('<html lang="ar" dir="rtl">')
    expect(arabic).toContain('<h1>السماح بالوصول إلى الاستوديو الخاص بك</h1>')
    for (const page of [german, arabic]) {
      const ids = [...page.matchAll(/<(?:input|select) id="([^"]+)"/g)].map((match) => match[1]!)
      for (const id of ids) expect(page).toContain(`<label for="${id}">`)
      // the checkboxes are inside their labels
      expect(page.match(/<label><input type="checkbox"/g)).toHaveLength(5)
      const links = [...page.matchAll(/<a href="\?lang=([^"]+)" lang="([^"]+)"/g)].map((match) => match[1])
      expect(links).toEqual([...languageCodes])
    }
    expect(arabic).toMatch(/<a href="\?lang=ar" lang="ar" hreflang="ar" aria-current="true">العربية<\/a>/)
    // the answer carries the language, so a refusal of what was sent reads in it too
    expect(arabic).toContain('<form method="post" action="/oauth/interaction/abc/confirm?lang=ar">')
  })

  test('behavior: English keeps the words the existing agents and tests read', () => {
    const page = consent('en')
    expect(page).toContain('<html lang="en" dir="ltr">')
    expect(page).toMatch(/you go back to <code>http:\/\/127\.0\.0\.1:9<\/code>/)
    expect(page).toContain('>Allow</button>')
    expect(page).toContain('>Deny</button>')
    expect(page).toContain('<label for="max_invoice">Largest invoice, in USDC</label>')
  })

  test('behavior: the largest invoice is asked in USDC, 1000 unless the person types another amount, the symbol beside the field', () => {
    for (const code of languageCodes) {
      const field = /<input id="max_invoice" name="max_invoice"[^>]*>[^<]*<span[^>]*>([^<]*)<\/span>/.exec(consent(code))
      expect(field?.[0], code).toContain('value="1000"')
      expect(field?.[0], code).toContain('inputmode="decimal"')
      expect(field?.[1], code).toBe('USDC')
      // and the label names the token in every language
      expect(consentCatalogs[code].maxInvoice('USDC'), code).toContain('USDC')
    }
  })

  test("behavior: the authorization server's pages wear the dashboard's colours and font", () => {
    const dashboardCss = readFileSync(join(import.meta.dirname, '../../dashboard/dashboard.css'), 'utf8')
    const colours = [...new Set(oauthPageStyle.match(/#[0-9a-f]{3,6}\b/gi))]
    expect(colours.length).toBeGreaterThan(4)
    for (const colour of colours) expect(dashboardCss, colour).toContain(colour)
    expect(dashboardCss).toContain('font: 16px/1.5 system-ui, sans-serif')
    expect(oauthPageStyle).toContain('font:16px/1.5 system-ui,sans-serif')
    expect(oauthPage('Sign-in expired', '<p>Start again.</p>')).toContain(`<style>${oauthPageStyle}</style>`)
  })
})
