import { describe, expect, test } from 'vitest'
import { dashboardStrings, en } from '../../dashboard/strings'
import { de } from '../../dashboard/strings.de'

describe("the dashboard's languages", () => {
  test("behavior: the first of the browser's languages with a catalog is chosen, by its base language too, else English", () => {
    expect(dashboardStrings(['de-AT', 'en']).lang).toBe('de')
    expect(dashboardStrings(['fr-FR', 'de']).lang).toBe('de')
    expect(dashboardStrings(['en-GB', 'de']).lang).toBe('en')
    expect(dashboardStrings(['fr-FR', 'ja']).lang).toBe('en')
    expect(dashboardStrings([]).lang).toBe('en')
  })

  test('behavior: German has every word English has, each written out (none left in English)', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort())
    const same = Object.keys(en).filter((key) => typeof en[key as keyof typeof en] === 'string' && en[key as keyof typeof en] === de[key as keyof typeof de])
    // the same word in both languages
    expect(same.sort()).toEqual(['name', 'navigation', 'status'])
    expect(de.issued('42')).toBe('Rechnung 42 ausgestellt. Senden Sie Ihrem Kunden diesen Link:')
    expect(Object.keys(de.statuses).sort()).toEqual(Object.keys(en.statuses).sort())
  })
})
