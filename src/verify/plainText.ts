/**
 * Merchant text as a payer may read it safely. A service (or a merchant) can write text that reads
 * otherwise than it is: a right-to-left override turns "you pay 10.00 USDC only" around, a zero-width
 * or invisible character hides inside a name, a line separator breaks a line where none shows, a
 * combining stroke turns "10" into "1̸0". Such characters are not removed silently: each is shown as
 * its code point in brackets, so the payer sees that something is there and where.
 *
 * Chosen by Unicode's own classification (the engine's property escapes), not by a list that goes stale
 * with each Unicode version:
 * - controls (Cc) but tab and line ends: NUL, ESC, the C1 controls (U+0085 next line)
 * - format characters (Cf): bidi embeddings, overrides, isolates and marks, zero-width characters, the
 *   soft hyphen, invisible operators, tag characters, Egyptian hieroglyph and musical format controls
 * - line and paragraph separators (Zl, Zp), private-use (Co), unassigned (Cn) and lone surrogates (Cs)
 * - every default-ignorable code point (DI): variation selectors (U+FE0F, U+E0100, Mongolian U+180B),
 *   Hangul fillers, the combining grapheme joiner; but the emoji presentation selector right after a
 *   pictograph (❤️), which shows as the emoji it selects
 * - combining marks (M) with no letter under them: on a digit, a space, a sign, or first in the text
 * - the two symbols that print as nothing or as a placeholder: U+2800 braille blank, U+FFFC object
 *   replacement (general category So, like every emoji, so named here)
 */
const hidden = /(?![\t\n\r]|(?<=\p{ExtPict})\uFE0F)(?:[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}\p{DI}\u2800\uFFFC]|(?<![\p{L}\p{M}])\p{M}+)/gu

const codePoint = (char: string) => `[U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`

/** `text` with every hidden or direction-changing character shown as `[U+XXXX]`. */
export function plainText(text: string): string {
  return text.replace(hidden, (chars) => [...chars].map(codePoint).join(''))
}

/** Whether `text` holds hidden or direction-changing characters. */
export function hasHiddenCharacters(text: string): boolean {
  // search starts at 0 and leaves the global pattern's lastIndex as it was
  return text.search(hidden) >= 0
}
