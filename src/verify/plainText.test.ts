import { describe, expect, test } from 'vitest'
import { hasHiddenCharacters, plainText } from './plainText'

describe('plainText', () => {
  test('behavior: a right-to-left override and invisible characters are shown as their code points, not dropped', () => {
    expect(plainText('you pay \u202E10.00 USDC only')).toBe('you pay [U+202E]10.00 USDC only')
    expect(plainText('North\u200Bwind\uFEFF Ltd\u2066')).toBe('North[U+200B]wind[U+FEFF] Ltd[U+2066]')
    expect(plainText('tag\u{E0041}')).toBe('tag[U+E0041]')
    expect(hasHiddenCharacters('Northwind Studio Ltd')).toBe(false)
    expect(hasHiddenCharacters('a\u200Fb')).toBe(true)
    expect(hasHiddenCharacters('a\u200Fb')).toBe(true)
  })

  // each found by its Unicode class, none by name (but the two blank symbols)
  test.each([
    ['a line separator (Zl)', 'Pay\u2028to', 'Pay[U+2028]to'],
    ['a paragraph separator (Zp)', 'Pay\u2029to', 'Pay[U+2029]to'],
    ['a C1 control, next line (Cc)', 'Pay\u0085to', 'Pay[U+0085]to'],
    ['a variation selector after a letter (DI)', 'Northwind\uFE0F', 'Northwind[U+FE0F]'],
    ['a supplementary variation selector (DI)', 'Northwind\u{E0100}', 'Northwind[U+E0100]'],
    ['a Mongolian free variation selector (DI)', 'North\u180Bwind', 'North[U+180B]wind'],
    ['a musical format control (Cf)', 'Total\u{1D17A} 10', 'Total[U+1D17A] 10'],
    ['an Egyptian hieroglyph format control (Cf)', 'Total\u{13437} 10', 'Total[U+13437] 10'],
    ['a combining stroke on a digit (M after N)', 'Pay 1\u03380 USDC', 'Pay 1[U+0338]0 USDC'],
    ['combining marks after a space or first (M with no letter)', '\u0301a \u0301\u0302b', '[U+0301]a [U+0301][U+0302]b'],
    ['the braille blank', 'North\u2800wind', 'North[U+2800]wind'],
    ['the object replacement character', 'Pay \uFFFC', 'Pay [U+FFFC]'],
    ['a private-use character (Co)', 'Logo \u{F0001}', 'Logo [U+F0001]'],
    ['an unassigned code point (Cn)', 'a\u0378b', 'a[U+0378]b'],
    ['a lone surrogate (Cs)', 'a\uD800b', 'a[U+D800]b'],
    ['a Hangul filler (DI)', 'North\u3164wind', 'North[U+3164]wind'],
  ])('behavior: %s is shown as its code point', (_, text, shown) => {
    expect(plainText(text)).toBe(shown)
    expect(hasHiddenCharacters(text)).toBe(true)
  })

  test('default: ordinary text in any one alphabet, accents, marks on letters, line ends and emoji included, is unchanged', () => {
    for (const text of [
      'Northwind Studio Ltd',
      'Lindenstraße 4',
      'Café Zoë',
      'Cafe\u0301 Zoe\u0308',
      'Ωμέγα ΑΕ',
      'ООО Ромашка',
      'שלום',
      'مَرْحَبًا',
      'नमस्ते',
      'Tiếng Việt',
      '株式会社ノースウィンド',
      'Thanks ❤️ see you',
      'Line one\nline two\twith a tab\r\n',
      'Net\u00A014',
    ]) {
      expect(plainText(text)).toBe(text)
      expect(hasHiddenCharacters(text)).toBe(false)
    }
  })
})
