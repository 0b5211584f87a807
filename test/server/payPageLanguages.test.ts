import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { afterAll, describe, expect, test } from 'vitest'
import { devnetDeploymentFile } from '../../build/readPinnedDeployment'
import type { WireInvoice } from '../../shared/wire'
import { errorHandler } from '../../server/http/errorHandler'
import { silentLogger } from '../../server/http/logger'
import { payPage, type PayPageParameters } from '../../server/routes/payPage'
import { languageCodes, languageNames } from '../../src/ui/languages'
import { loadLocale } from '../../src/ui/strings'
import { sampleMetadata } from '../store/fixtures'

const dist = mkdtempSync(join(tmpdir(), 'svc-dist-'))
writeFileSync(join(dist, 'index.html'), `<!doctype html><html lang="en"><head><title>Pay</title></head><body><div id="app"></div></body></html>`)
copyFileSync(devnetDeploymentFile, join(dist, 'deployment.json'))
afterAll(() => rmSync(dist, { recursive: true, force: true }))

const token = `svc_tk_${'C'.repeat(43)}`
const invoice: WireInvoice = {
  id: '7',
  invoiceNumber: '7',
  merchant: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  agent: null,
  payer: null,
  token: { address: '0x435b47c72448745A552d9698d3c0C8b2b2DDF001', symbol: 'USDC', decimals: 6 },
  amount: '1360000000',
  status: 'Issued',
  metaHash: `0x${'ab'.repeat(32)}`,
  tokenURI: '',
  issuedAt: '1760000000',
  dueAt: '4102444800',
  paidAt: null,
  effectiveFeeBps: 100,
  settledFee: null,
  settledFeeBps: null,
  txHash: null,
}

const document: PayPageParameters['document'] = async () => ({ success: true, accessLevel: 'full', data: invoice, metadata: sampleMetadata({ invoiceNumber: 'NW-7' }) })
const app = new Hono()
app.onError(errorHandler(silentLogger))
app.route('/', payPage({ distDir: dist, frameAncestors: "'self'", connectSources: [], publicOrigin: () => 'https://pay.example', document }))

const get = (query: string, headers: Record<string, string> = {}) => app.request(`/pay/7?token=${token}${query}`, { headers })
const htmlTag = (html: string) => /<html[^>]*>/.exec(html)![0]
// the server page's text, as a reader sees it (tags out, the few entities Preact writes undone)
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'")

describe('the pay page in the payer\'s language, before any script', () => {
  test.each(languageCodes)('behavior: Accept-Language %s renders the page in it, with its lang and direction', async (code) => {
    const answer = await get('', { 'accept-language': `${code};q=0.9, sw;q=0.95` })
    const html = await answer.text()
    const { strings } = await loadLocale([code])
    expect(htmlTag(html)).toBe(`<html lang="${code}" dir="${code === 'ar' ? 'rtl' : 'ltr'}">`)
    expect(answer.headers.get('content-language')).toBe(code)
    expect(/<title>([^<]*)<\/title>/.exec(html)![1]).toBe(strings.invoiceTitle('NW-7'))
    expect(text(html)).toContain(strings.amountDue)
    expect(text(html)).toContain(strings.unconfirmed)
  })

  test('behavior: the payer\'s pick beats a remembered one, which beats the merchant\'s locale, which beats Accept-Language', async () => {
    const lang = async (query: string, headers: Record<string, string> = {}) => /<html lang="([^"]+)"/.exec(await (await get(query, headers)).text())![1]
    expect(await lang('', { 'accept-language': 'fr-FR,fr;q=0.9' })).toBe('fr')
    expect(await lang('&locale=de', { 'accept-language': 'fr-FR' })).toBe('de')
    expect(await lang('&locale=de', { 'accept-language': 'fr-FR', cookie: 'svc_lang=ko' })).toBe('ko')
    expect(await lang('&locale=de&lang=ja', { 'accept-language': 'fr-FR', cookie: 'svc_lang=ko' })).toBe('ja')
    expect(await lang('', { 'accept-language': 'sw, fi;q=0.5' })).toBe('en')
  })

  test('behavior: a pick in the switch is remembered in a cookie for the payer\'s next share link; a page without one sets none', async () => {
    const picked = await get('&lang=pt-br')
    expect(picked.headers.get('set-cookie')).toBe('svc_lang=pt-BR; Path=/pay; Max-Age=31536000; SameSite=Lax; Secure')
    expect((await get('')).headers.get('set-cookie')).toBeNull()
    expect((await get('&lang=sw')).headers.get('set-cookie')).toBeNull()
  })

  test('behavior: the switch names every language in itself and links each to this page with the token kept', async () => {
    const html = await (await get('&embed=1', { 'accept-language': 'ar' })).text()
    const nav = /<nav class="svc-lang"[^>]*>([\s\S]*?)<\/nav>/.exec(html)![1]!
    const links = [...nav.matchAll(/<a href="([^"]+)" lang="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map(([, href, lang, name]) => ({ query: new URLSearchParams(href!.replace(/&amp;/g, '&')), lang, name }))
    expect(links.map(({ lang, name }) => [lang, name])).toEqual(languageCodes.map((code) => [code, languageNames[code]]))
    for (const { query, lang } of links) expect([query.get('token'), query.get('embed'), query.get('lang')]).toEqual([token, '1', lang])
    expect(/<summary>[\s\S]*?<\/summary>/.exec(nav)![0]).toContain('العربية')
  })
})
