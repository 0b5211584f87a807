import { describe, expect, test } from 'vitest'
import { builtPage } from '../support/builtPage'
import { useServer } from '../support/server'

// the server serves the page from dist/, as `npm run build` built it
await builtPage()
const ctx = useServer()

/** The share link as a browser without JavaScript would get it: the HTML alone. */
async function firstPaint(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${ctx.server.url}${path}`, { headers })
  const html = await response.text()
  // what a reader sees before any script runs: the text of the body, scripts, data blocks and styles aside
  const text = html
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
  return { response, html, text }
}

const sharePath = (link: string) => {
  const url = new URL(link)
  return `${url.pathname}${url.search}`
}

describe('GET /pay/:id, first paint', () => {
  test('default: the invoice is readable in the HTML itself: number, parties, lines, total, due date, marked unconfirmed', async () => {
    const link = ctx.shareLinks[0]!
    const { response, text, html } = await firstPaint(sharePath(link.shareLink))
    expect(response.status).toBe(200)
    expect(text).toContain('Invoice NW-')
    expect(text).toContain('Northwind Studio Ltd')
    expect(text).toContain('Acme Robotics GmbH')
    expect(text).toContain('UX research and wireframes')
    expect(text).toContain('4,540.00 USDC')
    expect(text).toMatch(/Due [A-Z][a-z]+ \d{1,2}, \d{4}/)
    expect(text).toContain('Unconfirmed')
    expect(text).toContain('Not yet confirmed on-chain')
    expect(html).toMatch(/<title>Invoice NW-\d{4}<\/title>/)
  })

  test('behavior: no script runs inline: the data the page hydrates is a JSON block, and the policy stays self', async () => {
    const { response, html } = await firstPaint(sharePath(ctx.shareLinks[0]!.shareLink))
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((match) => match[1]!)
    expect(scripts.filter((attributes) => !/type="module"[^>]*src="\/assets\//.test(attributes))).toEqual([' type="application/json" id="svc-served"'])
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self';")
  })

  test('behavior: a German browser gets the page in German, and the page says so', async () => {
    const { response, html, text } = await firstPaint(sharePath(ctx.shareLinks[0]!.shareLink), { 'accept-language': 'fr;q=0.9, de-DE, en;q=0.5' })
    expect(html).toContain('<html lang="de"')
    expect(response.headers.get('content-language')).toBe('de')
    expect(text).toContain('4.540,00 USDC')
  })

  test('behavior: without the token only the on-chain record is rendered, and no metadata is in the page', async () => {
    const id = ctx.shareLinks[0]!.invoiceId
    const { text, html } = await firstPaint(`/pay/${id}`)
    expect(text).toContain('Only the on-chain record is shown')
    expect(text).not.toContain('Acme Robotics GmbH')
    expect(html).not.toContain('Acme Robotics')
  })

  test('behavior: an invoice the registry does not have is a 404 page', async () => {
    const { response, text } = await firstPaint('/pay/424242')
    expect(response.status).toBe(404)
    expect(text).toContain('Invoice not found')
  })
})
