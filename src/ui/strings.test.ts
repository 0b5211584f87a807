import { describe, expect, test } from 'vitest'
import { english, loadLocale } from './strings'
import { de } from './strings.de'

describe('loadLocale', () => {
  test('default: English when the browser prefers nothing the page speaks', async () => {
    expect(await loadLocale(['fr-FR', 'es'])).toBe(english)
  })

  test('behavior: the first language the page speaks wins, keeping the browser tag for formatting', async () => {
    expect(await loadLocale(['fr-FR', 'de-AT', 'en-US'])).toEqual({ strings: de, tag: 'de-AT' })
    expect((await loadLocale(['en-GB', 'de'])).tag).toBe('en-GB')
  })

  test('behavior: German says everything English says', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(english.strings).sort())
    expect(Object.keys(de.unsafe).sort()).toEqual(Object.keys(english.strings.unsafe).sort())
  })
})
