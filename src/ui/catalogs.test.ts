import { describe, expect, test } from 'vitest'
import { languageCodes } from './languages'
import { english, loadLocale } from './strings'
import { afterPayEn } from './strings.afterPay'

type Entry = [key: string, value: unknown]

// every word, however deep: the verifiers' refusals sit in `afterPay.unsafe`
function entries(strings: object, prefix = ''): Entry[] {
  return Object.entries(strings).flatMap(([key, value]): Entry[] =>
    typeof value === 'object' && value !== null ? entries(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  )
}

// English's words for the views after Pay live apart (strings.afterPay.ts); every other catalog holds its own
const englishEntries = new Map(entries({ ...english.strings, afterPay: afterPayEn }))
const translated = languageCodes.filter((code) => code !== 'en')

// arguments no translation could contain by chance; a number where the English takes a number
const argumentFor = (english: (...args: never[]) => string, index: number): string | number =>
  /chainId/.test(english.toString().split('=>')[0]!) ? 900_000 + index : `⟦${index}⟧`

describe.each(translated)('the %s catalog', (code) => {
  test('behavior: it loads for its own tag, says so in `lang`, and has exactly the English keys', async () => {
    const { strings } = await loadLocale([code])
    expect(strings.lang).toBe(code)
    expect(entries(strings).map(([key]) => key)).toEqual([...englishEntries.keys()])
  })

  test('behavior: every text is text where the English is text, and not left empty', async () => {
    const { strings } = await loadLocale([code])
    for (const [key, value] of entries(strings)) {
      expect(typeof value, key).toBe(typeof englishEntries.get(key))
      if (typeof value === 'string') expect(value.trim().length, key).toBeGreaterThan(0)
    }
  })

  test('behavior: every sentence with values takes the same values and shows each of them', async () => {
    const { strings } = await loadLocale([code])
    for (const [key, value] of entries(strings)) {
      const source = englishEntries.get(key)
      if (typeof source !== 'function') continue
      const fn = value as (...args: (string | number)[]) => string
      expect(fn.length, key).toBe(source.length)
      const args = Array.from({ length: source.length }, (_, i) => argumentFor(source as never, i))
      const text = fn(...args)
      for (const arg of args) expect(text, key).toContain(String(arg))
      expect(text, key).not.toMatch(/undefined|\[object/)
    }
  })

  test('behavior: it is a translation, not the English left in place', async () => {
    const { strings } = await loadLocale([code])
    const same = entries(strings).filter(([key, value]) => typeof value === 'string' && key !== 'lang' && value === englishEntries.get(key))
    // a few words are the same in many languages (Token, Total, PDF, Wallet): never more than a handful
    expect(same.length, same.map(([key]) => key).join(', ')).toBeLessThanOrEqual(6)
  })
})

describe('every catalog', () => {
  test('behavior: the English source shows each value it takes (the rule the catalogs are held to)', () => {
    for (const [key, source] of englishEntries) {
      if (typeof source !== 'function') continue
      const args = Array.from({ length: source.length }, (_, i) => argumentFor(source as never, i))
      for (const arg of args) expect((source as (...a: unknown[]) => string)(...args), key).toContain(String(arg))
    }
  })
})
