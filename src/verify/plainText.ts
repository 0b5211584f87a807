/**
 * Merchant text as a payer may read it safely. A service (or a merchant) can write text that reads
 * otherwise than it is: a right-to-left override turns "you pay 10.00 USDC only" around, a zero-width
 * or invisible character hides inside a name, and letters of other alphabets that look Latin ("Νorthwind
 * Studiо Ltd", with a Greek N and a Cyrillic o) imitate another name. Such characters are not removed
 * silently: each is shown as its code point in brackets, so the payer sees that something is there.
 */

// bidi embeddings, overrides and isolates, the directional marks, and invisible or zero-width
// characters (joiners, word joiner, invisible operators, BOM, soft hyphen, Mongolian vowel separator,
// Hangul fillers, tag characters)
const hidden = /[\u061C\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0]|\uDB40[\uDC00-\uDC7F]/g

/** `text` with every hidden or direction-changing character shown as `[U+XXXX]`. */
export function plainText(text: string): string {
  return text.replace(hidden, (char) => `[U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`)
}

/** Whether `text` holds hidden or direction-changing characters. */
export function hasHiddenCharacters(text: string): boolean {
  hidden.lastIndex = 0
  const found = hidden.test(text)
  hidden.lastIndex = 0
  return found
}

const latin = /\p{Script=Latin}/u
const lookalike = /[\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Armenian}\p{Script=Cherokee}]/u

/** Whether a name mixes Latin letters with letters of an alphabet whose letters can pass for Latin
 * ones (Greek, Cyrillic, Armenian, Cherokee): a name written in one alphabet alone is not flagged. */
export function mixesScripts(name: string): boolean {
  return latin.test(name) && lookalike.test(name)
}
