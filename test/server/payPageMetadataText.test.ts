import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Window } from 'happy-dom'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { devnetDeploymentFile } from '../../build/readPinnedDeployment'
import type { InvoiceMetadata } from '../../shared/metadata'
import { hashMetadata } from '../../shared/metadataHash'
import { useServer } from '../support/server'

// a page shaped like the build's: every part String.replace's patterns could splice back in
const dist = mkdtempSync(join(tmpdir(), 'svc-dist-'))
const shell =
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Pay</title><style>body{margin:0}</style></head>' +
  '<body><div id="app"></div><script type="module" src="/assets/boot-abc123.js"></script></body></html>'
writeFileSync(join(dist, 'index.html'), shell)
copyFileSync(devnetDeploymentFile, join(dist, 'deployment.json'))
afterAll(() => rmSync(dist, { recursive: true, force: true }))

const ctx = useServer({ payPageDir: dist })

/** What String.replace reads as patterns ($` the text before the match, $' the text after it, $& the
 * match), and what would end the data's script element, with the field's name to tell them apart. */
const hostile = (field: string) => `${field} $\` $' $& $$ </script><img src=x onerror=alert(1)><!--`

function hostileMetadata(): InvoiceMetadata {
  const party = (who: string) => ({
    name: hostile(`${who}.name`),
    email: `${who}@example.test`,
    address: { street: hostile(`${who}.street`), city: hostile(`${who}.city`), postal: hostile(`${who}.postal`), country: 'DE' },
    registrationNumber: hostile(`${who}.registrationNumber`),
    vatNumber: hostile(`${who}.vatNumber`),
    taxId: hostile(`${who}.taxId`),
  })
  return {
    version: '1.0',
    invoiceNumber: hostile('invoiceNumber'),
    issuedAt: '2026-11-01',
    dueAt: '2026-11-15',
    merchant: party('merchant'),
    payer: party('payer'),
    token: { address: ctx.devnet.deployment.token, symbol: hostile('token.symbol'), decimals: 6, chainId: ctx.devnet.deployment.chainId },
    amount: '12.50',
    amountRaw: '12500000',
    lineItems: [{ description: hostile('lineItems.description'), quantity: 1, unitPrice: '12.50', amount: '12.50' }],
    createdBy: hostile('createdBy'),
    createdAt: hostile('createdAt'),
    description: hostile('description'),
    notes: hostile('notes'),
    paymentTerms: hostile('paymentTerms'),
    purchaseOrder: hostile('purchaseOrder'),
    externalRef: hostile('externalRef'),
    quoteId: hostile('quoteId'),
    deliverables: [hostile('deliverables.0'), hostile('deliverables.1')],
    legalText: hostile('legalText'),
  }
}

let html: string
let metadata: InvoiceMetadata
beforeAll(async () => {
  metadata = hostileMetadata()
  const { id } = await ctx.devnet.newInvoice(12_500_000n, hashMetadata(metadata))
  const key = ctx.server.stores.invoiceKey(id)
  await ctx.server.stores.metadata.putMetadata(key, metadata, hashMetadata(metadata))
  const { token } = await ctx.server.stores.tokens.createToken({ invoice: key, isDefault: true, label: 'share link' })
  const answer = await fetch(`${ctx.server.url}/pay/${id}?token=${token}`)
  expect(answer.status).toBe(200)
  html = await answer.text()
})

describe('GET /pay/:id with merchant text that String.replace would read as patterns', () => {
  test('behavior: the template is filled once: none of its parts is spliced in again by $`, $\' or $&', () => {
    const count = (needle: string) => html.split(needle).length - 1
    expect({
      doctype: count('<!doctype html>'),
      html: count('<html lang='),
      head: count('<head>'),
      title: count('<title>'),
      app: count('<div id="app">'),
      module: count('<script type="module"'),
      end: count('</html>'),
    }).toEqual({ doctype: 1, html: 1, head: 1, title: 1, app: 1, module: 1, end: 1 })
    // the data's script element and the module: no </script> of the merchant's ends either
    expect(count('</script>')).toBe(2)
    expect(html).not.toContain('<img src=x')
  })

  test('behavior: every metadata field reaches the page as text, exactly as the merchant wrote it', () => {
    const { document } = new Window()
    document.write(html)
    expect(document.querySelectorAll('img').length).toBe(0)
    expect(document.querySelectorAll('script').length).toBe(2)
    expect(document.title).toBe(`Invoice ${metadata.invoiceNumber}`)
    const served = JSON.parse(document.getElementById('svc-served')!.textContent!) as { response: { metadata: InvoiceMetadata } }
    expect(served.response.metadata).toEqual(metadata)
    // what the page shows (the rest travels in the data above, and the invoice number in the title)
    const shown = ['description', 'paymentTerms', 'purchaseOrder', 'lineItems.description', 'token.symbol', 'notes']
    for (const who of ['merchant', 'payer']) shown.push(...['name', 'street', 'postal', 'city', 'vatNumber', 'registrationNumber'].map((field) => `${who}.${field}`))
    const text = document.getElementById('app')!.textContent!
    for (const field of shown) expect(text, field).toContain(hostile(field))
  })
})
