import confusables from 'unhomoglyph/data.json' with { type: 'json' }
import { hasHiddenCharacters } from './plainText'

/**
 * Why a party's name is not confirmed even in the record the merchant committed to: the chain binds
 * the record, not who the name belongs to, and a name can pass for another.
 * - `hidden`: it holds characters a payer cannot see (plainText.ts shows them as `[U+XXXX]`).
 * - `lookalike`: it reads as a Latin name without being one: written wholly in letters of another
 *   alphabet that look Latin (an all-Cyrillic "аррӏе"), a Latin word with such a letter in it (a Greek
 *   Ν in "Νorthwind"), or a letter in a compatibility form (a fullwidth "Ｎorthwind", a mathematical
 *   "𝖭orthwind").
 * - `mixed`: a word mixes Latin letters with another alphabet's.
 */
export type NameFinding = 'hidden' | 'lookalike' | 'mixed'

/**
 * Unicode's own data and rules (UTS #39, Unicode Security Mechanisms), not a list of suspect alphabets:
 * - confusables: Unicode's confusables.txt maps each character to the prototype it can be mistaken for
 *   (the skeleton's mapping), as the `unhomoglyph` package ships it. A letter outside Latin whose
 *   prototype is plain Latin letters or digits "looks Latin"; the build keeps only those entries
 *   (build/confusablesSubset.ts), so this is all the page ever asks of the data.
 * - scripts: the engine's Script_Extensions (`\p{scx=…}`), Common and Inherited counting as any script.
 * - mixed scripts, word by word: UTS #39's "highly restrictive" level, Latin alone or beside Han,
 *   Hiragana, Katakana, Hangul or Bopomofo ("Tシャツ"). A name may still be written in two alphabets
 *   word by word ("شركة Northwind"), unless every letter outside Latin looks Latin. Two alphabets
 *   other than Latin in one word are not told apart: the look-alikes judged are Latin's.
 * - compatibility forms: a letter or digit whose NFKC form differs and is plain Latin (Identifier_Type
 *   Not_NFKC): fullwidth, mathematical, circled, ligatures.
 */
const prototypes = confusables as Record<string, string>

const latin = /\p{scx=Latn}/u
const anyScript = /[\p{sc=Zyyy}\p{sc=Zinh}]/u
const eastAsian = /[\p{scx=Hani}\p{scx=Hira}\p{scx=Kana}\p{scx=Hang}\p{scx=Bopo}]/u
const plainLatin = /^[A-Za-z0-9]+$/
const letter = /\p{L}/u
const letterOrDigit = /[\p{L}\p{N}]/u
const word = /[\p{L}\p{M}]+/gu

/** A letter of no script's own (Common, Inherited) belongs to any script; Latin is Latin. */
const foreign = (char: string) => !latin.test(char) && !anyScript.test(char)
const looksLatin = (char: string) => plainLatin.test(prototypes[char] ?? '')
/** Judged by letters alone: an acute accent is Latin, Greek and Cyrillic alike. */
const lettersOf = (text: string) => [...text].filter((char) => letter.test(char))

/** Whether a letter or digit is a compatibility form of plain Latin ("Ｎ", "𝖭", "ﬁ", "①"). */
const compatibilityForm = (char: string) => letterOrDigit.test(char) && char.normalize('NFKC') !== char && plainLatin.test(char.normalize('NFKC'))

/** What makes `name` unfit to be confirmed, or null when it reads as what it is. */
export function nameFinding(name: string): NameFinding | null {
  if (hasHiddenCharacters(name)) return 'hidden'
  if ([...name].some(compatibilityForm)) return 'lookalike'
  // the skeleton's first step: accents and other marks apart from the letters they sit on
  const decomposed = name.normalize('NFD')
  const others = lettersOf(decomposed).filter(foreign)
  // a whole-script confusable: nothing but letters that look Latin, in another alphabet or mixed in
  if (others.length > 0 && others.every(looksLatin)) return 'lookalike'
  for (const [text] of decomposed.matchAll(word)) {
    const letters = lettersOf(text)
    const mixedIn = letters.filter((char) => foreign(char) && !eastAsian.test(char))
    if (mixedIn.length > 0 && letters.some((char) => latin.test(char))) return mixedIn.some(looksLatin) ? 'lookalike' : 'mixed'
  }
  return null
}
