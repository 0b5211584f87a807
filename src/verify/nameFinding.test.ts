import { describe, expect, test } from 'vitest'
import { nameFinding } from './nameFinding'

describe('nameFinding', () => {
  test.each([
    ['all-Cyrillic letters that read as Latin (a whole-script confusable)', '\u0430\u0440\u0440\u04CF\u0435'],
    ['a Cyrillic name that reads as a Latin one', '\u0421\u043E\u0441\u043E'],
    ['Greek capitals that read as Latin', '\u0391\u0392\u0395'],
    ['a fullwidth letter (a compatibility form)', '\uFF2Eorthwind'],
    ['a mathematical letter (a compatibility form)', '\u{1D5AD}orthwind'],
    ['a ligature', '\uFB01ne Foods'],
    ['a circled digit', 'Studio \u2460'],
    ['a Greek capital Nu and a Cyrillic o in Latin words', '\u039Dorthwind Studi\u043E Ltd'],
    ['a Cherokee letter that reads as A', '\u13AApple'],
    ['a Lisu letter that reads as l', '\uA4F2nc'],
    ['a word of Cyrillic look-alikes after a Latin one', 'Ltd \u0405.\u0410.'],
  ])('behavior: %s looks Latin without being so', (_, name) => {
    expect(nameFinding(name)).toBe('lookalike')
  })

  test('behavior: a Latin word with a letter of another alphabet that does not look Latin mixes scripts', () => {
    expect(nameFinding('Northwin\u0434 Ltd')).toBe('mixed')
  })

  test('behavior: a name with a character the payer cannot see is found as such first', () => {
    expect(nameFinding('North\u200Bwind')).toBe('hidden')
    expect(nameFinding('\u0430\u0440\u0440\u04CF\u0435\u200E')).toBe('hidden')
  })

  test('default: names written as they are, in the page\'s languages and others, one or two alphabets word by word, find nothing', () => {
    for (const name of [
      'Northwind Studio Ltd',
      "O'Brien & Söhne GmbH",
      'Café Zoë',
      'Cafe\u0301 Zoe\u0308',
      'Công ty TNHH Bắc Phong',
      'Đà Nẵng',
      'Şirket Ağrı A.Ş.',
      'İSTANBUL TİCARET',
      'Zakład Łódź Sp. z o.o.',
      'PT Maju Jaya Tbk',
      'Ωμέγα ΑΕ',
      'ООО Ромашка',
      'Мир Книг',
      'שלום',
      'شركة نورثويند',
      'شركة Northwind',
      'नॉर्थविंड स्टूडियो',
      'राम & Sons',
      '株式会社ノースウィンド',
      'ABC株式会社',
      'Tシャツ工房',
      '삼성 Samsung',
      '北京ABC有限公司',
      'Northwind\u00A0Ltd',
    ]) {
      expect(nameFinding(name), name).toBe(null)
    }
  })
})
