import { readFileSync } from 'node:fs'
import type { Plugin } from 'vite'

/** The file whose mapping the page reads (src/verify/nameFinding.ts). */
const confusablesFile = /[\\/]unhomoglyph[\\/]data\.json$/

/**
 * Unicode's confusables (UTS #39 confusables.txt, as the `unhomoglyph` package ships it: each
 * character and the prototype it can be mistaken for) cut at build time to what the page asks of them:
 * which letters outside the Latin script look like plain Latin letters or digits. A few hundred of its
 * 6,311 entries, about 1 KB gzip instead of 28. The mapping keeps its shape: whatever reads the whole
 * file without this plugin finds the same answers.
 */
export function confusablesSubset(): Plugin {
  return {
    name: 'svc-confusables-subset',
    enforce: 'pre',
    load(id) {
      if (!confusablesFile.test(id)) return null
      const mapping = JSON.parse(readFileSync(id, 'utf8')) as Record<string, string>
      // as nameFinding.ts asks: one letter of a script of its own other than Latin (Common and Inherited
      // count as any script), whose prototype is plain Latin
      const asked = Object.entries(mapping).filter(
        ([char, prototype]) => /^\p{L}$/u.test(char) && !/[\p{scx=Latn}\p{sc=Zyyy}\p{sc=Zinh}]/u.test(char) && /^[A-Za-z0-9]+$/.test(prototype),
      )
      return JSON.stringify(Object.fromEntries(asked))
    },
  }
}
