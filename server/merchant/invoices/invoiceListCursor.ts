import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'
import { ValidationError } from '../../http/httpError'

/** What a cursor is bound to: the studio, the filters and the order of the list it continues. */
export type CursorBinding = Record<string, string | undefined>

export type InvoiceListCursors = {
  /** The cursor of the page after `offset` rows. */
  after(offset: number, binding: CursorBinding): string
  /** The rows a cursor says were consumed; a cursor not made here, altered, or made for other
   * filters or another order is a 400 (SPEC 4.8 rule 3). */
  offsetOf(cursor: string, binding: CursorBinding): number
}

const invalid = () =>
  new ValidationError([{ path: 'cursor', message: 'not a cursor this list gave for these filters and this order: keep them unchanged between pages, or start again without a cursor' }])

/**
 * Cursors are the consumed row offset (SPEC 4.8) with a MAC over it and the list's binding, under a
 * key derived from the server's sealing key: a client can neither make one up nor carry one to
 * another list. Every instance with the same keys reads every other's; a key rotation makes the old
 * cursors obsolete (a 400, then page one again).
 */
export function invoiceListCursors(secret: string): InvoiceListCursors {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secret), Buffer.alloc(0), 'svc-checkout/invoice-list-cursor/v1', 32))
  const macOf = (offset: number, binding: CursorBinding) => {
    const bound = Object.keys(binding)
      .sort()
      .map((name) => [name, binding[name] ?? null])
    return createHmac('sha256', key).update(JSON.stringify([offset, bound])).digest().subarray(0, 16)
  }
  const after = (offset: number, binding: CursorBinding) => `${offset.toString(36)}.${macOf(offset, binding).toString('base64url')}`
  return {
    after,
    offsetOf(cursor, binding) {
      const match = /^([0-9a-z]{1,8})\.([A-Za-z0-9_-]{22})$/.exec(cursor)
      if (!match) throw invalid()
      const offset = parseInt(match[1]!, 36)
      // the cursor as this server writes it, compared whole: a decoded comparison let other spellings
      // of one cursor through (the MAC's last character carries four unused bits; "05" reads as 5)
      const given = Buffer.from(cursor)
      const expected = Buffer.from(after(offset, binding))
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid()
      return offset
    },
  }
}
