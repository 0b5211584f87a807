import { existsSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { fontFaceFor, type FontFace } from '../../server/pdf/fontFaces'

describe('fontFaceFor', () => {
  test('default: each script in its family', () => {
    const key = (character: string) => fontFaceFor(character.codePointAt(0)!, 400)?.key
    expect([key('A'), key('é'), key('Ω'), key('Ж'), key('ệ'), key('ह'), key('ش')]).toEqual([
      'noto-sans/latin/400',
      'noto-sans/latin/400',
      'noto-sans/greek/400',
      'noto-sans/cyrillic/400',
      'noto-sans/vietnamese/400',
      'noto-sans/devanagari/400',
      'noto-sans-arabic/arabic/400',
    ])
    expect(key('さ')).toMatch(/^noto-sans-jp\/\[\d+\]\/400$/)
    expect(fontFaceFor('株'.codePointAt(0)!, 700)?.key).toMatch(/^noto-sans-jp\/\[\d+\]\/700$/)
    expect([key('한'), key('😀')]).toEqual([undefined, undefined])
  })

  test('behavior: every face it can choose, in either weight, has its font file', () => {
    const faces = new Map<string, FontFace>()
    for (let codePoint = 0x20; codePoint < 0x30000; codePoint++) {
      for (const weight of [400, 700] as const) {
        const face = fontFaceFor(codePoint, weight)
        if (face) faces.set(face.key, face)
      }
    }
    expect(faces.size).toBe(258)
    expect([...faces.values()].filter((face) => !existsSync(face.file)).map((face) => face.key)).toEqual([])
  })
})
