import fontkit, { type Font } from '@cantoo/fontkit'
import { coversCodePoint, fontFaceBytes, fontFaceFor, type FontFace, type FontWeight } from './fontFaces'

/** Where fontkit's shaping puts one glyph, in ems: the pen moves by `advance`; the glyph is drawn
 * `x` and `y` from the pen (a mark over its letter). */
export type GlyphPlacement = { advance: number; x: number; y: number; /** its own advance, unkerned */ natural: number }

/** A piece of one line drawn in one face. `glyphs`: its shaped glyphs in drawing order, left to right.
 * `actualText`: those glyphs, read in drawing order, do not spell its text (an Indic vowel sign drawn
 * before its consonant), so the PDF says what the text is for whoever extracts it. */
export type TextRun = { text: string; face: FontFace; rtl: boolean; actualText: boolean; glyphs: GlyphPlacement[] }

const strongRtl = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u
const strong = /[\p{L}\p{Nd}]/u
/** Characters that take the face of the text around them, where that face has them. */
const neutral = /[\s\p{P}\p{S}\p{Cf}\p{M}]/u

const fonts = new WeakMap<Uint8Array, Font>()

/** The face parsed once per process, keyed by its bytes (fontFaceBytes hands out one array per face). */
function fontOf(face: FontFace): Font {
  const bytes = fontFaceBytes(face)
  let font = fonts.get(bytes)
  if (!font) fonts.set(bytes, (font = fontkit.create(bytes) as Font))
  return font
}

/** What pdf-lib parses fonts with: the faces already parsed here, the same objects, so a document
 * does not parse a face again and pdf-lib's layout of a run is the one textRuns measured. */
export const parsedFonts = {
  create: (bytes: Uint8Array) => fonts.get(bytes) ?? fontkit.create(bytes),
}

/** Scripts whose glyphs fontkit never reorders: their runs spell their text without a check. */
const inOrder = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Common}\p{Script=Inherited}]*$/u

/** The run shaped: the same layout pdf-lib makes of the same text in the same font file, so its
 * glyphs are the ones pdf-lib encodes, one for one. */
function shaped(run: Pick<TextRun, 'text' | 'face'>): Pick<TextRun, 'glyphs' | 'actualText'> {
  const font = fontOf(run.face)
  const { glyphs, positions, direction } = font.layout(run.text)
  const em = font.unitsPerEm
  const placements = (positions ?? glyphs.map((glyph) => ({ xAdvance: glyph.advanceWidth, xOffset: 0, yOffset: 0 }))).map((position, i) => ({
    advance: position.xAdvance / em,
    x: position.xOffset / em,
    y: position.yOffset / em,
    natural: glyphs[i]!.advanceWidth / em,
  }))
  if (inOrder.test(run.text)) return { glyphs: placements, actualText: false }
  // fontkit lays a right-to-left script out mirrored, and readers put it back in logical order
  const logical = direction === 'rtl' ? [...glyphs].reverse() : glyphs
  return { glyphs: placements, actualText: String.fromCodePoint(...logical.flatMap((glyph) => glyph.codePoints)) !== run.text }
}

/**
 * One line of text cut into runs of one face each, in the order they are drawn from left to right.
 * The order is the Unicode bidirectional algorithm's for what an invoice holds, at two levels: the
 * line's direction is its first strong character's; right-to-left runs (Arabic) next to each other,
 * with the neutral runs between them, are drawn in reverse, as are left-to-right runs inside a
 * right-to-left line. Each run's own glyphs are shaped and ordered by fontkit. Control characters
 * become spaces; a character no face has (an emoji) is left out.
 */
export function textRuns(line: string, weight: FontWeight): TextRun[] {
  const runs: { text: string; face: FontFace; rtl: boolean; strong: boolean }[] = []
  for (const character of line.replace(/\p{Cc}/gu, ' ')) {
    const codePoint = character.codePointAt(0)!
    const current = runs.at(-1)
    // a face's file has more than its declared ranges (every one has a space): asked only for neutrals
    if (current && neutral.test(character) && (coversCodePoint(current.face, codePoint) || fontOf(current.face).hasGlyphForCodePoint(codePoint))) {
      current.text += character
      continue
    }
    const face = fontFaceFor(codePoint, weight)
    if (!face) continue
    const rtl = strongRtl.test(character)
    const isStrong = strong.test(character)
    // a strong character joins a strong run of its direction, or the neutrals that begin the line; a
    // neutral run between two strong ones stays apart, its direction resolved from both sides
    if (current?.face === face && (!isStrong || (current.strong ? current.rtl === rtl : runs.length === 1))) {
      current.text += character
      current.rtl ||= rtl
      current.strong ||= isStrong
    } else {
      runs.push({ text: character, face, rtl, strong: isStrong })
    }
  }
  const lineRtl = runs.find((run) => run.strong)?.rtl ?? false
  // level 0: left to right in a left-to-right line; 1: right to left; 2: left to right inside right to left
  const levels = runs.map((run, i) => {
    if (run.strong) return run.rtl ? 1 : lineRtl ? 2 : 0
    const before = runs.slice(0, i).findLast((other) => other.strong)
    const after = runs.slice(i + 1).find((other) => other.strong)
    const rtl = before && after && before.rtl === after.rtl ? before.rtl : lineRtl
    return rtl ? 1 : lineRtl ? 2 : 0
  })
  const order = runs.map((_, i) => i)
  for (const level of [2, 1]) {
    for (let start = 0; start < order.length; start++) {
      if (levels[order[start]!]! < level) continue
      let end = start
      while (end + 1 < order.length && levels[order[end + 1]!]! >= level) end++
      order.splice(start, end - start + 1, ...order.slice(start, end + 1).reverse())
      start = end
    }
  }
  return order.map((i) => {
    const { text, face } = runs[i]!
    const run = { text, face, rtl: levels[i] === 1 }
    return { ...run, ...shaped(run) }
  })
}
