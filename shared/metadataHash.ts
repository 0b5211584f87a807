import { keccak256, stringToHex, type Hex } from 'viem'
import type { InvoiceMetadata } from './metadata'

// Apart from the record's schema (metadata.ts): the page hashes a record it has already parsed, and
// must not construct every zod schema of it while it loads just to do so

/** JSON with object keys sorted at every depth and no whitespace, so that the same record always
 * hashes the same however it was serialized or stored. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/** The value an invoice commits to on-chain as metaHash. */
export function hashMetadata(metadata: InvoiceMetadata): Hex {
  return keccak256(stringToHex(canonicalJson(metadata)))
}
