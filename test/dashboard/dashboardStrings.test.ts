import { describe, expect, test } from 'vitest'
import { loadDashboardStrings, preferredLanguage } from '../../dashboard/dashboardLanguage'
import { localAmount, localDate, localMoney } from '../../dashboard/localFormat'
import { ar } from '../../dashboard/strings.ar'
import { de } from '../../dashboard/strings.de'
import { es } from '../../dashboard/strings.es'
import { fr } from '../../dashboard/strings.fr'
import { hi } from '../../dashboard/strings.hi'
import { id } from '../../dashboard/strings.id'
import { it } from '../../dashboard/strings.it'
import { ja } from '../../dashboard/strings.ja'
import { ko } from '../../dashboard/strings.ko'
import { nl } from '../../dashboard/strings.nl'
import { pl } from '../../dashboard/strings.pl'
import { ptBR } from '../../dashboard/strings.pt-BR'
import { awaitingTranslation, en, type DashboardCatalog } from '../../dashboard/strings'
import { tr } from '../../dashboard/strings.tr'
import { vi } from '../../dashboard/strings.vi'
import { zhCN } from '../../dashboard/strings.zh-CN'
import { languageCodes } from '../../src/ui/languages'

const catalogs: Record<string, DashboardCatalog> = { es, 'pt-BR': ptBR, fr, de, it, nl, pl, tr, ar, hi, id, vi, ja, ko, 'zh-CN': zhCN }

/** Words a language writes as English does: the brand's, technical names, and words the language
 * shares with English. Anything else equal to English is a word left untranslated. */
const sameAsEnglish: Record<string, readonly string[]> = {
  de: ['navigation', 'name', 'status', 'webhooks', 'settings.keyName', 'settings.client', 'settings.doors.mcp'],
  es: ['webhooks'],
  'pt-BR': ['webhooks', 'settings.client'],
  fr: ['type', 'actions', 'webhooks', 'agents', 'settings.doors.mcp', 'settings.pageOf'],
  it: ['navigation', 'settings.client'],
  nl: ['navigation', 'webhooks', 'agents', 'settings.client', 'settings.doors.mcp', 'signerSetup.later'],
  pl: ['settings.doors.mcp'],
  id: ['email', 'status'],
  vi: ['email'],
}
const sameEverywhere = ['settings.endpointUrl', 'settings.doors.cli']
// the agents' icons are named by things most languages call by their English names (a bot, a server, a terminal)
const borrowedEverywhere = /^agentsPage\.icons\./

/** Every leaf of a catalog by its dotted path; a sentence with a value is called with markers, so
 * what it writes is compared and its placeholders are seen to survive. */
function leaves(value: unknown, path = ''): [string, string][] {
  if (typeof value === 'string') return [[path, value]]
  if (typeof value === 'function') return [[path, (value as (...markers: unknown[]) => string)('⟦1⟧', '⟦2⟧', '⟦3⟧')]]
  if (typeof value === 'number') return [[path, String(value)]]
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, inner]) => leaves(inner, path ? `${path}.${key}` : key))
  return []
}
const translatedKeys = Object.keys(en).filter((key) => !(awaitingTranslation as readonly string[]).includes(key))
const english = new Map(leaves(Object.fromEntries(translatedKeys.map((key) => [key, en[key as keyof typeof en]]))))

describe("the dashboard's languages", () => {
  test("behavior: the merchant's own choice first, else the first of the browser's languages the dashboard speaks, by its base language too, else English", () => {
    expect(preferredLanguage(null, ['de-AT', 'en'])).toBe('de')
    expect(preferredLanguage(null, ['sv-SE', 'de'])).toBe('de')
    expect(preferredLanguage(null, ['en-GB', 'de'])).toBe('en')
    expect(preferredLanguage(null, ['pt-PT'])).toBe('pt-BR')
    expect(preferredLanguage(null, ['ar-EG'])).toBe('ar')
    expect(preferredLanguage(null, ['sv-SE'])).toBe('en')
    expect(preferredLanguage(null, [])).toBe('en')
    expect(preferredLanguage('ja', ['de-DE'])).toBe('ja')
    // a stored choice the dashboard no longer speaks falls back to the browser's
    expect(preferredLanguage('xx', ['fr-CA'])).toBe('fr')
  })

  test("behavior: the dashboard speaks the pay page's 16 languages, each catalog loaded by its code", async () => {
    expect(['en', ...Object.keys(catalogs)].sort()).toEqual([...languageCodes].sort())
    for (const code of languageCodes) expect((await loadDashboardStrings(code)).lang, code).toBe(code)
    expect((await loadDashboardStrings('ar')).invoices).toBe('الفواتير')
  })

  test('behavior: every catalog has every word English has, nested ones too, and no other', () => {
    // nothing is left to translate: every key English has is written out in the 15 other languages
    expect(awaitingTranslation).toEqual([])
    const englishPaths = [...english.keys()].sort()
    for (const [code, catalog] of Object.entries(catalogs)) {
      expect(leaves(catalog).map(([path]) => path).sort(), code).toEqual(englishPaths)
    }
  })

  test('behavior: no catalog leaves a word in English but brand and technical words, and every placeholder is kept', () => {
    for (const [code, catalog] of Object.entries(catalogs)) {
      const allowed = new Set([...(sameAsEnglish[code] ?? []), ...sameEverywhere, 'lang'])
      const untranslated = leaves(catalog).filter(([path, text]) => english.get(path) === text && !allowed.has(path) && !borrowedEverywhere.test(path)).map(([path]) => path)
      expect(untranslated, `${code} keeps English`).toEqual([])
      for (const [path, text] of leaves(catalog)) {
        const markers = english.get(path)?.match(/⟦\d⟧/g) ?? []
        for (const marker of markers) expect(text, `${code} ${path}`).toContain(marker)
      }
    }
    expect(de.issued('42')).toBe('Rechnung 42 ausgestellt. Senden Sie Ihrem Kunden diesen Link:')
  })

  test("behavior: a count is written in the language's own plural forms, not English's one-or-many", () => {
    expect([1, 3, 5, 22].map((keys) => pl.agentsPage.removed('Bot', keys))).toEqual([
      'Usunięto Bot; unieważniono 1 klucz.',
      'Usunięto Bot; unieważniono 3 klucze.',
      'Usunięto Bot; unieważniono 5 kluczy.',
      'Usunięto Bot; unieważniono 22 klucze.',
    ])
    expect(ar.agentsPage.removed('Bot', 2)).toContain('أُلغي مفتاحان')
    expect(ar.agentsPage.removed('Bot', 7)).toContain('مفاتيح')
    expect(de.agentsPage.removed('Bot', 1)).toBe('Bot gelöscht; 1 Schlüssel wurde widerrufen.')
  })

  test('behavior: amounts and dates are written as the language writes them, with no digit lost; Arabic keeps Latin digits', () => {
    expect(localAmount('1234567890', 'en')).toBe('1,234.56789')
    expect(localAmount('1234567890', 'de')).toBe('1.234,56789')
    expect(localAmount('12500000', 'fr')).toBe('12,50')
    expect(localAmount('123456789012345678123456', 'de')).toBe('123.456.789.012.345.678,123456')
    expect(localAmount('1234567890', 'ar')).toBe('1,234.56789')
    expect(localAmount('5', 'ja', 0)).toBe('5.00')
    expect(localDate('1767268800', 'de')).toBe('01.01.2026')
    expect(localDate('2026-01-01T12:00:00Z', 'de')).toBe('01.01.2026')
    expect(localDate('1767268800', 'ar')).toMatch(/^[\d/\u200f]+$/)
  })

  test('behavior: an amount with its symbol in a sentence keeps its order in Arabic, isolated as the pay page writes money', () => {
    const usdc = { decimals: 6, symbol: 'USDC' }
    expect(localMoney('20000000', 'en', usdc)).toBe('20.00 USDC')
    expect(localMoney('1234500000', 'de', usdc)).toBe('1.234,50 USDC')
    expect(localMoney('20000000', 'ar', usdc)).toBe('\u206620.00\u00a0USDC\u2069')
  })
})
