import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { WireInvoice } from '../../shared/wire'
import { invoicePdf } from '../../server/pdf/invoicePdf'
import { requireSystemTools } from '../support/systemTools'
import { sampleMetadata } from '../store/fixtures'

const invoice: WireInvoice = {
  id: '42',
  invoiceNumber: '42',
  merchant: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  agent: null,
  payer: null,
  token: { address: '0x435b47c72448745A552d9698d3c0C8b2b2DDF001', symbol: 'USDC', decimals: 6 },
  amount: '1360000000',
  status: 'Issued',
  metaHash: `0x${'ab'.repeat(32)}`,
  tokenURI: '',
  issuedAt: '1793525400',
  dueAt: '1794734999',
  paidAt: null,
  effectiveFeeBps: null,
  settledFee: null,
  settledFeeBps: null,
  txHash: null,
}

let dir: string
beforeAll(() => {
  requireSystemTools(['poppler-utils'])
  dir = mkdtempSync(join(tmpdir(), 'invoice-pdf-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The text pdftotext (Debian's poppler-utils) reads back, one entry per line. */
function textOf(pdf: Uint8Array): string[] {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`)
  writeFileSync(file, pdf)
  return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).split('\n')
}

const names = {
  latin: 'Łódź Café Société',
  greek: 'Αθηνά Παπαδοπούλου',
  cyrillic: 'ООО «Ромашка»',
  japanese: '株式会社さくら商事',
  arabic: 'شركة الأمل للتجارة',
  devanagari: 'हिन्दी प्रकाशन संस्थान',
}

describe('invoicePdf', () => {
  test.each(Object.entries(names))('behavior: a merchant name in %s comes back exact from pdftotext', async (_script, name) => {
    const lines = textOf(await invoicePdf(invoice, sampleMetadata({ merchant: { name } })))
    // poppler marks a right-to-left line with RLE … PDF (U+202B, U+202C) around the text it read back
    const rtl = /\p{Script=Arabic}/u.test(name)
    expect(lines).toContain(rtl ? `\u202b${name}\u202c` : name)
  })

  test('behavior: Japanese, Arabic and Cyrillic names on one invoice all come back', async () => {
    const metadata = sampleMetadata({
      merchant: { name: names.japanese },
      payer: { name: names.arabic },
      description: names.cyrillic,
      lineItems: [{ description: names.devanagari, quantity: 1, unitPrice: '1360.00', amount: '1360.00' }],
      notes: names.greek,
    })
    const text = textOf(await invoicePdf(invoice, metadata)).join('\n')
    for (const name of Object.values(names).filter((name) => name !== names.latin)) expect(text).toContain(name)
  })

  test('behavior: a Latin-only invoice stays small: only the glyphs drawn are embedded', async () => {
    const pdf = await invoicePdf(invoice, sampleMetadata())
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-')
    expect(pdf.length).toBeLessThan(40_000)
    expect(textOf(pdf)).toContain('Invoice NW-0042')
  })
})
