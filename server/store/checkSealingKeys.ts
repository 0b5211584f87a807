import type { Database } from './database'
import { missingKeyMessage } from './metadataCipher'
import { countSealedRows } from './rotateEncryptionKey'

/**
 * What the stored records need that the configuration lacks: one line per key id some rows are
 * sealed under and `keyIds` does not hold, in an operator's words; none when every row opens. Reads
 * every sealed table once, so a server runs it in the background at start, not per request.
 */
export async function checkSealingKeys(db: Database, keyIds: readonly number[]): Promise<string[]> {
  const counts = await countSealedRows(db)
  return [...counts.keys()].filter((keyId) => !keyIds.includes(keyId)).sort((a, b) => a - b).map(missingKeyMessage)
}
