import {
  beginText,
  endText,
  popGraphicsState,
  pushGraphicsState,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames,
  rgb,
  setFillingColor,
  setFontAndSize,
  setTextMatrix,
  showText,
  type PDFFont,
  type PDFPage,
} from '@cantoo/pdf-lib'
import { formatUnits } from 'viem'
import type { InvoiceMetadata } from '../../shared/metadata'
import type { WireInvoice } from '../../shared/wire'
import { fontFaceBytes, type FontFace, type FontWeight } from './fontFaces'
import { parsedFonts, textRuns, type TextRun } from './textRuns'

const margin = 56
const ink = rgb(0.1, 0.12, 0.16)
const muted = rgb(0.38, 0.42, 0.48)

function date(unixSeconds: string): string {
  return new Date(Number(unixSeconds) * 1000).toISOString().slice(0, 10)
}

/** At most `length` characters, never half of one (a surrogate pair) */
function clip(text: string, length: number): string {
  return Array.from(text).slice(0, length).join('')
}

/** `maxWidth`: a line wider than this is set smaller until it fits. */
type TextParameters = { weight?: FontWeight; size?: number; color?: typeof ink; maxWidth?: number }

/** Draws lines in whatever scripts they hold: each run in a Noto face embedded as a subset of the
 * glyphs drawn, so a name in Japanese, Arabic or Devanagari prints and can be copied back out. */
function writer(pdf: PDFDocument, page: PDFPage) {
  const embedded = new Map<string, Promise<PDFFont>>()
  const fontFor = (face: FontFace) => {
    let font = embedded.get(face.key)
    if (!font) embedded.set(face.key, (font = pdf.embedFont(fontFaceBytes(face), { subset: true })))
    return font
  }
  const laidOut = async (value: string, { weight = 400, size = 10 }: TextParameters) => {
    const runs = await Promise.all(textRuns(value, weight).map(async (run) => ({ ...run, font: await fontFor(run.face) })))
    return { runs, width: runs.reduce((sum, run) => sum + run.glyphs.reduce((advance, glyph) => advance + glyph.advance, 0), 0) * size }
  }
  const draw = (runs: (TextRun & { font: PDFFont })[], x: number, y: number, { size = 10, color = ink }: TextParameters) => {
    // PDF 32000 14.9.4: the text a reader extracts for glyphs that do not spell it in drawing order
    // (an Indic vowel sign drawn before its consonant). Said for the whole line: pdftotext breaks a
    // line where one replacement ends and glyphs of its own begin.
    const actualText = runs.some((run) => run.actualText)
    if (actualText) {
      const text = runs.map((run) => run.text).join('')
      // inline, not a named resource: poppler reads ActualText only from an inline property list;
      // pdf-lib's operator type omits dictionaries, which it writes all the same
      const properties = pdf.context.obj({ ActualText: PDFHexString.fromText(text) }) as unknown as PDFName
      page.pushOperators(PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of('Span'), properties]))
    }
    page.pushOperators(pushGraphicsState(), beginText(), setFillingColor(color))
    for (const run of runs) {
      // each glyph where shaping put it: pdf-lib's drawText would set them side by side by their
      // advance, dropping the offsets that put Arabic dots and Devanagari signs on their letters
      const codes = run.font.encodeText(run.text).asString().match(/.{4}/g) ?? []
      page.pushOperators(setFontAndSize(page.node.newFontDictionary(run.font.name, run.font.ref), size))
      if (codes.length !== run.glyphs.length) {
        // never seen: both lay out the same text in the same file; then at least every glyph prints
        page.pushOperators(setTextMatrix(1, 0, 0, 1, x, y), showText(PDFHexString.of(codes.join(''))))
        x += run.glyphs.reduce((advance, glyph) => advance + glyph.advance, 0) * size
        continue
      }
      // glyphs on the pen go out together, kerned in one TJ; one moved off it (a mark) gets a matrix of its own
      let shown: (PDFHexString | PDFNumber)[] = []
      const flush = () => {
        if (shown.length > 0) page.pushOperators(PDFOperator.of(PDFOperatorNames.ShowTextAdjusted, [pdf.context.obj(shown)]))
        shown = []
      }
      let onPen = false
      run.glyphs.forEach((glyph, i) => {
        const code = PDFHexString.of(codes[i]!)
        if (glyph.x === 0 && glyph.y === 0) {
          if (!onPen) {
            flush()
            page.pushOperators(setTextMatrix(1, 0, 0, 1, x, y))
            onPen = true
          }
          shown.push(code)
          // TJ moves the pen back by n/1000 em: what shaping took from, or added to, the glyph's advance
          const kern = Math.round((glyph.natural - glyph.advance) * 1000)
          if (kern !== 0) shown.push(PDFNumber.of(kern))
        } else {
          flush()
          page.pushOperators(setTextMatrix(1, 0, 0, 1, x + glyph.x * size, y + glyph.y * size), showText(code))
          onPen = false
        }
        x += glyph.advance * size
      })
      flush()
    }
    page.pushOperators(endText(), popGraphicsState())
    if (actualText) page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent))
  }
  return {
    async left(value: string, x: number, y: number, options: TextParameters = {}) {
      const { runs, width } = await laidOut(value, options)
      const size = options.size ?? 10
      draw(runs, x, y, options.maxWidth && width > options.maxWidth ? { ...options, size: (size * options.maxWidth) / width } : options)
    },
    async right(value: string, x: number, y: number, options: TextParameters = {}) {
      const { runs, width } = await laidOut(value, options)
      draw(runs, x - width, y, options)
    },
  }
}

/** A one-page A4 invoice from the on-chain record and its decrypted metadata. */
export async function invoicePdf(invoice: WireInvoice, metadata: InvoiceMetadata): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  pdf.setTitle(`Invoice ${metadata.invoiceNumber}`)
  pdf.setCreator('svc-checkout')
  pdf.setProducer('svc-checkout')
  pdf.registerFontkit(parsedFonts)
  const page = pdf.addPage([595.28, 841.89])
  const write = writer(pdf, page)
  let y = page.getHeight() - margin

  await write.left(`Invoice ${metadata.invoiceNumber}`, margin, y, { weight: 700, size: 20, maxWidth: page.getWidth() - 2 * margin - 100 })
  await write.right(invoice.status, page.getWidth() - margin, y, { weight: 700, size: 12 })
  y -= 22
  await write.left(`On-chain invoice #${invoice.id}  ·  issued ${metadata.issuedAt}  ·  due ${metadata.dueAt}`, margin, y, { color: muted })
  y -= 32

  const party = async (title: string, p: InvoiceMetadata['merchant'], x: number) => {
    let line = y
    const lines = [p.name, p.address?.street, p.address && `${p.address.postal} ${p.address.city}, ${p.address.country}`, p.email, p.vatNumber && `VAT ${p.vatNumber}`]
    await write.left(title, x, line, { weight: 700, size: 9, color: muted })
    for (const value of lines) {
      if (!value) continue
      line -= 14
      await write.left(value, x, line, { maxWidth: page.getWidth() / 2 - margin - 12 })
    }
    return line
  }
  y = Math.min(await party('FROM', metadata.merchant, margin), await party('BILL TO', metadata.payer, page.getWidth() / 2)) - 32

  if (metadata.description) {
    await write.left(metadata.description, margin, y, { weight: 700, size: 12, maxWidth: page.getWidth() - 2 * margin })
    y -= 24
  }
  const columns = { qty: 360, unit: 450, amount: page.getWidth() - margin }
  const heading = { weight: 700, size: 9, color: muted } as const
  await write.left('Description', margin, y, heading)
  await write.right('Qty', columns.qty, y, heading)
  await write.right('Unit price', columns.unit, y, heading)
  await write.right('Amount', columns.amount, y, heading)
  y -= 8
  page.drawLine({ start: { x: margin, y }, end: { x: columns.amount, y }, thickness: 0.5, color: muted })
  for (const item of metadata.lineItems) {
    y -= 18
    await write.left(clip(item.description, 60), margin, y, { maxWidth: columns.qty - margin - 48 })
    await write.right(String(item.quantity), columns.qty, y)
    await write.right(item.unitPrice, columns.unit, y)
    await write.right(item.amount, columns.amount, y)
  }
  y -= 10
  page.drawLine({ start: { x: margin, y }, end: { x: columns.amount, y }, thickness: 0.5, color: muted })
  y -= 20
  await write.right(`Total ${formatUnits(BigInt(invoice.amount), invoice.token.decimals)} ${invoice.token.symbol}`, columns.amount, y, { weight: 700, size: 12 })
  y -= 36

  const footer = [
    metadata.paymentTerms && `Terms: ${metadata.paymentTerms}`,
    metadata.purchaseOrder && `Purchase order: ${metadata.purchaseOrder}`,
    metadata.notes,
    `Pay to vault ${invoice.merchant} in ${invoice.token.symbol} (${invoice.token.address}).`,
    `Metadata hash ${invoice.metaHash}`,
    invoice.status === 'Paid' && invoice.txHash ? `Paid ${invoice.paidAt ? date(invoice.paidAt) : ''} in transaction ${invoice.txHash}` : undefined,
  ]
  for (const line of footer) {
    if (!line) continue
    await write.left(clip(line, 110), margin, y, { size: 9, color: muted, maxWidth: page.getWidth() - 2 * margin })
    y -= 14
  }
  return pdf.save()
}
