import { describe, expect, test } from 'vitest'
import { hasHiddenCharacters, mixesScripts, plainText } from './plainText'

describe('plainText', () => {
  test('behavior: a right-to-left override and invisible characters are shown as their code points, not dropped', () => {
    expect(plainText('you pay \u202E10.00 USDC only')).toBe('you pay [U+202E]10.00 USDC only')
    expect(plainText('North\u200Bwind\uFEFF Ltd\u2066')).toBe('North[U+200B]wind[U+FEFF] Ltd[U+2066]')
    expect(plainText('tag\u{E0041}')).toBe('tag[U+E0041]')
    expect(hasHiddenCharacters('Northwind Studio Ltd')).toBe(false)
    expect(hasHiddenCharacters('a\u200Fb')).toBe(true)
    expect(hasHiddenCharacters('a\u200Fb')).toBe(true)
  })

  test('default: ordinary text in any one alphabet, accents included, is unchanged', () => {
    for (const text of ['Northwind Studio Ltd', 'Lindenstraße 4', 'Café Zoë', 'Ωμέγα ΑΕ', 'ООО Ромашка', 'שלום', 'مرحبا']) {
      expect(plainText(text)).toBe(text)
      expect(mixesScripts(text)).toBe(false)
    }
  })

  test('behavior: a Latin name with a Greek or Cyrillic lookalike letter is flagged', () => {
    expect(mixesScripts('\u039Dorthwind Studio Ltd')).toBe(true)
    expect(mixesScripts('Northwind Studi\u043E Ltd')).toBe(true)
  })
})
