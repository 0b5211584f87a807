import { maxKeyId } from './metadataCipher'

/** METADATA_ENCRYPTION_KEYS's entries, `id:key` separated by commas or spaces, as written. */
function entriesOf(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean)
}

/**
 * What is wrong with a METADATA_ENCRYPTION_KEYS value (`1:<base64>,2:<base64>`), one problem a line;
 * none when it reads. A problem names the entry by its id or position, never by its key.
 */
export function checkEncryptionKeyList(text: string): string[] {
  const entries = entriesOf(text)
  if (entries.length === 0) return ['no key: write id:key pairs']
  const problems: string[] = []
  const seen = new Set<number>()
  entries.forEach((entry, i) => {
    const match = /^(\d{1,5}):(.*)$/.exec(entry)
    if (!match) return problems.push(`entry ${i + 1} is not id:key`)
    const id = Number(match[1])
    if (id < 1 || id > maxKeyId) return problems.push(`key id ${id} is outside 1-${maxKeyId} (0 is METADATA_ENCRYPTION_KEY)`)
    if (seen.has(id)) return problems.push(`key id ${id} is listed twice`)
    seen.add(id)
    const bytes = Buffer.from(match[2]!, 'base64')
    if (bytes.length !== 32 || bytes.toString('base64') !== match[2]) problems.push(`key id ${id}'s key is not 32 bytes in standard base64`)
    return undefined
  })
  return problems
}

/** The keys by id; the text must have passed checkEncryptionKeyList. */
export function parseEncryptionKeyList(text: string): Map<number, string> {
  return new Map(
    entriesOf(text).map((entry) => {
      const colon = entry.indexOf(':')
      return [Number(entry.slice(0, colon)), entry.slice(colon + 1)] as const
    }),
  )
}
