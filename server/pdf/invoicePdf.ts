import { PDFDocument, StandardFonts, rgb, type PDFFont } from 'pdf-lib'
import { formatUnits } from 'viem'
import type { InvoiceMetadata } from '../../shared/metadata'
import type { WireInvoice } from '../../shared/wire'

const margin = 56
const ink = rgb(0.1, 0.12, 0.16)
const muted = rgb(0.38, 0.42, 0.48)

/** WinAnsi (the standard fonts' encoding) cannot draw every character a party's name may hold. */
function printable(text: string): string {
  return text.normalize('NFKD').replace(/[^\x20-\x7e\xa0-\xff]/g, '')
}

function date(unixSeconds: string): string {
  return new Date(Number(unixSeconds) * 1000).toISOString().slice(0, 10)
}

/** A one-page A4 invoice from the on-chain record and its decrypted metadata. */
export async function invoicePdf(invoice: WireInvoice, metadata: InvoiceMetadata): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  pdf.setTitle(`Invoice ${metadata.invoiceNumber}`)
  pdf.setCreator('svc-checkout')
  pdf.setProducer('svc-checkout')
  const page = pdf.addPage([595.28, 841.89])
  const regular = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  let y = page.getHeight() - margin

  const text = (value: string, x: number, options: { font?: PDFFont; size?: number; color?: typeof ink } = {}) =>
    page.drawText(printable(value), { x, y, font: options.font ?? regular, size: options.size ?? 10, color: options.color ?? ink })
  const right = (value: string, x: number, font: PDFFont = regular, size = 10) =>
    page.drawText(printable(value), { x: x - font.widthOfTextAtSize(printable(value), size), y, font, size, color: ink })

  text(`Invoice ${metadata.invoiceNumber}`, margin, { font: bold, size: 20 })
  right(invoice.status, page.getWidth() - margin, bold, 12)
  y -= 22
  text(`On-chain invoice #${invoice.id}  ·  issued ${metadata.issuedAt}  ·  due ${metadata.dueAt}`.replace(/·/g, '-'), margin, { color: muted })
  y -= 32

  const party = (title: string, p: InvoiceMetadata['merchant'], x: number) => {
    let line = y
    const lines = [p.name, p.address?.street, p.address && `${p.address.postal} ${p.address.city}, ${p.address.country}`, p.email, p.vatNumber && `VAT ${p.vatNumber}`]
    page.drawText(title, { x, y: line, font: bold, size: 9, color: muted })
    for (const value of lines) {
      if (!value) continue
      line -= 14
      page.drawText(printable(value), { x, y: line, font: regular, size: 10, color: ink })
    }
    return line
  }
  y = Math.min(party('FROM', metadata.merchant, margin), party('BILL TO', metadata.payer, page.getWidth() / 2)) - 32

  if (metadata.description) {
    text(metadata.description, margin, { font: bold, size: 12 })
    y -= 24
  }
  const columns = { qty: 360, unit: 450, amount: page.getWidth() - margin }
  text('Description', margin, { font: bold, size: 9, color: muted })
  right('Qty', columns.qty, bold, 9)
  right('Unit price', columns.unit, bold, 9)
  right('Amount', columns.amount, bold, 9)
  y -= 8
  page.drawLine({ start: { x: margin, y }, end: { x: columns.amount, y }, thickness: 0.5, color: muted })
  for (const item of metadata.lineItems) {
    y -= 18
    text(item.description.slice(0, 60), margin)
    right(String(item.quantity), columns.qty)
    right(item.unitPrice, columns.unit)
    right(item.amount, columns.amount)
  }
  y -= 10
  page.drawLine({ start: { x: margin, y }, end: { x: columns.amount, y }, thickness: 0.5, color: muted })
  y -= 20
  right(`Total ${formatUnits(BigInt(invoice.amount), invoice.token.decimals)} ${invoice.token.symbol}`, columns.amount, bold, 12)
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
    text(line.slice(0, 110), margin, { size: 9, color: muted })
    y -= 14
  }
  return pdf.save()
}
