import fontkit, { type Font } from '@cantoo/fontkit'
import { describe, expect, test } from 'vitest'
import { fontFaceBytes } from '../../server/pdf/fontFaces'
import { textRuns } from '../../server/pdf/textRuns'

const shown = (line: string) => textRuns(line, 400).map(({ text, face, rtl, actualText }) => ({ text, face: face.key, rtl, actualText }))

describe('textRuns', () => {
  test('default: one script, one run in its face', () => {
    expect(shown('Иван Петров')).toEqual([{ text: 'Иван Петров', face: 'noto-sans/cyrillic/400', rtl: false, actualText: false }])
    // Noto Sans JP comes in 120 files by frequency: a name may take several, each a run
    expect(shown('株式会社さくら').map(({ text }) => text).join('')).toBe('株式会社さくら')
    expect(shown('株式会社さくら').every(({ face, rtl }) => /^noto-sans-jp\/\[\d+\]\/400$/.test(face) && !rtl)).toBe(true)
  })

  test('behavior: Arabic words are drawn right to left, each shaped into its joined forms', () => {
    const runs = textRuns('شركة الأمل', 400)
    expect(runs.map(({ text, rtl, face }) => ({ text, rtl, face: face.key }))).toEqual([{ text: 'شركة الأمل', rtl: true, face: 'noto-sans-arabic/arabic/400' }])
    const font = fontkit.create(Buffer.from(fontFaceBytes(runs[0]!.face))) as Font
    const names = font.layout('شركة').glyphs.map((glyph) => glyph.name)
    // initial and final forms, not the isolated letters the string holds
    expect(names).toEqual(expect.arrayContaining(['uni0643.init', 'uni0647.fina', 'uni0633.init']))
    expect(runs.every((run) => !run.actualText)).toBe(true)
  })

  test('behavior: a mark keeps the offset shaping gives it, so it is drawn on its letter', () => {
    // the dot of ض is a mark of its own in Noto Sans Arabic, seated by the font's positioning
    const [run] = textRuns('الرياض', 400)
    expect(run!.glyphs.some((glyph) => glyph.x !== 0 || glyph.y !== 0)).toBe(true)
    const [latin] = textRuns('Acme', 400)
    expect(latin!.glyphs.every((glyph) => glyph.x === 0 && glyph.y === 0 && glyph.advance > 0)).toBe(true)
  })

  test('behavior: a left-to-right line keeps its Latin first and its Arabic right to left after it', () => {
    expect(shown('Acme شركة الأمل').map(({ text }) => text)).toEqual(['Acme ', 'شركة الأمل'])
    // a right-to-left line puts its Latin where the reader of Arabic expects it: on the left, in its own order
    expect(shown('شركة Acme GmbH').map(({ text }) => text)).toEqual(['Acme GmbH', 'شركة '])
    expect(shown('شركة 12 Acme').map(({ text }) => text)).toEqual(['12 Acme', 'شركة '])
  })

  test('behavior: Devanagari, whose vowel signs are drawn before their consonant, asks for ActualText', () => {
    expect(shown('हिन्दी')).toEqual([{ text: 'हिन्दी', face: 'noto-sans/devanagari/400', rtl: false, actualText: true }])
  })

  test('behavior: control characters become spaces, and what no face has is left out', () => {
    expect(shown('Acme\nLtd 😀').map(({ text }) => text).join('')).toBe('Acme Ltd ')
  })
})
