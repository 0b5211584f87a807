import { describe, expect, test } from 'vitest'
import { languageOf, negotiateLanguage, pluralCategory, textDirection } from './languages'

describe('languages', () => {
  test('behavior: a tag finds its language exactly, then by its primary subtag, in any case', () => {
    expect(['pt-BR', 'pt-br', 'pt-PT', 'pt', 'ZH-cn', 'zh-SG', 'es-419', 'sw'].map(languageOf)).toEqual(['pt-BR', 'pt-BR', 'pt-BR', 'pt-BR', 'zh-CN', 'zh-CN', 'es', null])
  })

  test('behavior: the reader\'s own tag is kept for formatting; Arabic gets Latin digits', () => {
    expect(negotiateLanguage(['sw', 'de-CH'])).toEqual({ language: 'de', tag: 'de-CH' })
    expect(negotiateLanguage(['ar-SA'])).toEqual({ language: 'ar', tag: 'ar-SA-u-nu-latn' })
    expect(negotiateLanguage(['ar-u-nu-arab'])).toEqual({ language: 'ar', tag: 'ar-u-nu-arab' })
  })

  test('behavior: plural categories follow each language\'s rules, not English\'s one-or-many', () => {
    expect([1, 2, 5, 22].map((n) => pluralCategory('pl', n))).toEqual(['one', 'few', 'many', 'few'])
    expect([0, 1, 2, 3, 11, 100].map((n) => pluralCategory('ar', n))).toEqual(['zero', 'one', 'two', 'few', 'many', 'other'])
    expect([1, 2].map((n) => pluralCategory('ja', n))).toEqual(['other', 'other'])
    expect([0, 1].map((n) => pluralCategory('fr', n))).toEqual(['one', 'one'])
  })

  test('behavior: only Arabic reads right to left', () => {
    expect(textDirection('ar')).toBe('rtl')
    expect(textDirection('he')).toBe('ltr')
    expect(textDirection('ja')).toBe('ltr')
  })
})
