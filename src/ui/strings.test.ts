import { describe, expect, test } from 'vitest'
import { english, loadLocale } from './strings'
import { afterPayEn } from './strings.afterPay'
import { de } from './strings.de'
import { fr } from './strings.fr'
import { ptBR } from './strings.pt-BR'
import { zhCN } from './strings.zh-CN'

describe('loadLocale', () => {
  test('default: English when the browser prefers nothing the page speaks', async () => {
    expect(await loadLocale(['sw-KE', 'fi'])).toBe(english)
    expect(await loadLocale([])).toBe(english)
  })

  test('behavior: the first language the page speaks wins, keeping the browser tag for formatting', async () => {
    expect(await loadLocale(['sw-KE', 'de-AT', 'en-US'])).toEqual({ strings: de, tag: 'de-AT' })
    expect(await loadLocale(['fr-CA'])).toEqual({ strings: fr, tag: 'fr-CA' })
    expect((await loadLocale(['en-GB', 'de'])).tag).toBe('en-GB')
  })

  test('behavior: a regional tag reads its language\'s catalog, in any case (Accept-Language is lower-cased)', async () => {
    expect((await loadLocale(['pt-pt'])).strings).toBe(ptBR)
    expect((await loadLocale(['zh-cn'])).strings).toBe(zhCN)
    expect((await loadLocale(['zh'])).strings).toBe(zhCN)
  })

  test('behavior: Traditional Chinese readers are not served Simplified: their next language wins', async () => {
    expect((await loadLocale(['zh-TW', 'de'])).strings).toBe(de)
    expect((await loadLocale(['zh-Hant-HK'])).strings).toBe(english.strings)
  })

  test('behavior: Arabic formats its figures with Latin digits, as the wallet prompts show them', async () => {
    const { strings, tag } = await loadLocale(['ar-EG'])
    expect(strings.lang).toBe('ar')
    expect(tag).toBe('ar-EG-u-nu-latn')
    expect(new Intl.NumberFormat(tag, { minimumFractionDigits: 2 }).format(1234.5)).toMatch(/^1[,٬]?234[.٫]50$/)
  })

  test('behavior: German says everything English says', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys({ ...english.strings, afterPay: afterPayEn }).sort())
    expect(Object.keys(de.afterPay)).toEqual(Object.keys(afterPayEn))
    expect(Object.keys(de.afterPay.unsafe).sort()).toEqual(Object.keys(afterPayEn.unsafe).sort())
  })
})
