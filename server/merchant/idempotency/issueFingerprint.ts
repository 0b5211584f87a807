import { createHash } from 'node:crypto'

/** The single due field of an issuance, as the merchant sent it: an absolute Unix time, or a number
 * of days counted from the idempotency record's creation (dueAtOf). */
export type IssueDue = { dueAt: bigint } | { dueDays: number }

/** What SPEC 7.4.2 says makes two POST /v1/invoices/issue requests the same operation. */
export type IssueFingerprintInput = {
  studioId: string
  chainId: number
  customerId: string
  /** The raw base-unit amount. */
  amount: bigint
  due: IssueDue
  /** Exactly as sent: whitespace counts. Absent and empty are different requests. */
  description: string | undefined
  sendEmail: boolean
}

/**
 * The fingerprint of an issuance: SHA-256 over the fields of 7.4.2 in a fixed order, as a JSON array
 * (which keeps strings exact and cannot run two fields into one). `dueAt: 1700000000` and `dueDays: 30`
 * differ even where they would land on one day: the merchant asked for different things. Numbers are
 * decimal strings, so `"1000"` and `1000` sent for an amount fingerprint the same once parsed.
 */
export function issueFingerprint(input: IssueFingerprintInput): string {
  const due = 'dueAt' in input.due ? ['dueAt', input.due.dueAt.toString()] : ['dueDays', String(input.due.dueDays)]
  return fingerprintOf([
    'invoices.issue',
    input.studioId.toLowerCase(),
    String(input.chainId),
    input.customerId.toLowerCase(),
    input.amount.toString(),
    ...due,
    input.description ?? null,
    input.sendEmail,
  ])
}

/** SHA-256 of the parts as one JSON array, hex: the fingerprint of any request a route declares the
 * parts of (the client-signed prepare and submit name theirs). */
export function fingerprintOf(parts: readonly (string | number | boolean | null)[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex')
}
