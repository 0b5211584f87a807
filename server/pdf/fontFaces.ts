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
  { family: 'noto-sans', only: /./, file: (subset: string, weight: FontWeight) => `noto-sans-${subset}-${weight}-normal.woff` },
  { family: 'noto-sans-arabic', only: /^arabic$/, file: (subset: string, weight: FontWeight) => `noto-sans-arabic-${subset}-${weight}-normal.woff` },
  // its own files, named [0] … [119]; its Latin and Cyrillic are Noto Sans's
  { family: 'noto-sans-jp', only: /^\[\d+\]$/, file: (subset: string, weight: FontWeight) => `noto-sans-jp-${subset.slice(1, -1)}-${weight}-normal.woff` },
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
    const subsets = Object.keys(declared).filter((subset) => entry.only.test(subset))
    return subsets.map((subset) => ({
      key: `${entry.family}/${subset}/${weight}`,
      // WOFF, not WOFF2: fontkit cannot subset the composite glyphs of a WOFF2 (accented Latin and Greek)
      file: join(dir, 'files', entry.file(subset, weight)),
      ranges: parseRanges(declared[subset]!),
    }))
  })
}

/** Every face of a weight, and for each code point below `indexed` the index of the first face that
 * has it (-1: none), filled once: a lookup per character, not a search through some 20,000 ranges. */
type Catalog = { faces: FontFace[]; first: Int16Array }
const indexed = 0x30000
const catalogs = new Map<FontWeight, Catalog>()

function catalogOf(weight: FontWeight): Catalog {
  let catalog = catalogs.get(weight)
  if (catalog) return catalog
  const faces = facesOf(weight)
  const first = new Int16Array(indexed).fill(-1)
  // the last face first, so that an earlier one that also has a code point writes over it
  for (let i = faces.length - 1; i >= 0; i--) {
    for (const [from, to] of faces[i]!.ranges) first.fill(i, Math.min(from, indexed), Math.min(to + 1, indexed))
  }
  catalogs.set(weight, (catalog = { faces, first }))
  return catalog
}

/** The first face whose declared ranges hold `codePoint`; null when none does (an emoji, Hangul). */
export function fontFaceFor(codePoint: number, weight: FontWeight): FontFace | null {
  const { faces, first } = catalogOf(weight)
  if (codePoint < indexed) return faces[first[codePoint]!] ?? null
  return faces.find((candidate) => coversCodePoint(candidate, codePoint)) ?? null
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
