import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

export type FontWeight = 400 | 700

/** One file of a Noto family: the Unicode ranges it was cut to, as its package declares them. */
export type FontFace = { key: string; file: string; ranges: readonly (readonly [number, number])[] }

const require = createRequire(import.meta.url)

/** The packages, in the order they are asked for a character: Noto Sans (Latin, Greek, Cyrillic,
 * Vietnamese, Devanagari), then Arabic, then Japanese (kana and the CJK ideographs). Fontsource cuts
 * each into files by Unicode range (Noto Sans JP into 120), so a PDF embeds only the files its text
 * needs, each subset again to the glyphs drawn. */
const families = [
  { family: 'noto-sans', file: (subset: string, weight: FontWeight) => `noto-sans-${subset}-${weight}-normal.woff` },
  { family: 'noto-sans-arabic', subsets: ['arabic'], file: (subset: string, weight: FontWeight) => `noto-sans-arabic-${subset}-${weight}-normal.woff` },
  // subsets named [0] … [119]
  { family: 'noto-sans-jp', file: (subset: string, weight: FontWeight) => `noto-sans-jp-${subset.slice(1, -1)}-${weight}-normal.woff` },
] as const

function parseRanges(list: string): [number, number][] {
  return list.split(',').map((range) => {
    const [from = '', to = from] = range.trim().replace(/^U\+/i, '').split('-')
    return [parseInt(from, 16), parseInt(to, 16)]
  })
}

function facesOf(weight: FontWeight): FontFace[] {
  return families.flatMap((entry) => {
    const dir = dirname(require.resolve(`@fontsource/${entry.family}/package.json`))
    const declared = JSON.parse(readFileSync(join(dir, 'unicode.json'), 'utf8')) as Record<string, string>
    const subsets = 'subsets' in entry ? entry.subsets : Object.keys(declared)
    return subsets.map((subset) => ({
      key: `${entry.family}/${subset}/${weight}`,
      // WOFF, not WOFF2: fontkit cannot subset the composite glyphs of a WOFF2 (accented Latin and Greek)
      file: join(dir, 'files', entry.file(subset, weight)),
      ranges: parseRanges(declared[subset]!),
    }))
  })
}

const faces = new Map<FontWeight, FontFace[]>()
const found = new Map<string, FontFace | null>()

/** The first face whose declared ranges hold `codePoint`; null when none does (an emoji, Hangul). */
export function fontFaceFor(codePoint: number, weight: FontWeight): FontFace | null {
  const cacheKey = `${weight}:${codePoint}`
  const known = found.get(cacheKey)
  if (known !== undefined) return known
  let list = faces.get(weight)
  if (!list) faces.set(weight, (list = facesOf(weight)))
  const face = list.find((candidate) => coversCodePoint(candidate, codePoint)) ?? null
  // a bound, not a policy: a text can hold any of a million code points
  if (found.size >= 10_000) found.clear()
  found.set(cacheKey, face)
  return face
}

export function coversCodePoint(face: FontFace, codePoint: number): boolean {
  return face.ranges.some(([from, to]) => codePoint >= from && codePoint <= to)
}

const bytes = new Map<string, Uint8Array>()

/** The face's font file, read once per process (tens of kilobytes each). */
export function fontFaceBytes(face: FontFace): Uint8Array {
  let file = bytes.get(face.file)
  if (!file) bytes.set(face.file, (file = readFileSync(face.file)))
  return file
}
