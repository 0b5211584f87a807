import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { afterAll, describe, expect, test } from 'vitest'
import { devnetDeploymentFile } from '../../build/readPinnedDeployment'
import type { InvoiceMetadata } from '../../shared/metadata'
import type { WireInvoice } from '../../shared/wire'
import { errorHandler } from '../../server/http/errorHandler'
import { silentLogger } from '../../server/http/logger'
import { builtPayPage } from '../../server/routes/builtPayPage'
import { keptRenders } from '../../server/routes/keptRenders'
import { payPage, type PayPageParameters } from '../../server/routes/payPage'
import { sampleMetadata } from '../store/fixtures'

const dist = mkdtempSync(join(tmpdir(), 'svc-dist-'))
const shell = (title: string) => `<!doctype html><html lang="en"><head><title>${title}</title><style>body{margin:0}</style></head><body><div id="app"></div></body></html>`
writeFileSync(join(dist, 'index.html'), shell('Pay'))
copyFileSync(devnetDeploymentFile, join(dist, 'deployment.json'))
afterAll(() => rmSync(dist, { recursive: true, force: true }))

const token = `svc_tk_${'C'.repeat(43)}`
const issued: WireInvoice = {
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

/** The page over a document whose answer the test changes, as the chain and the token store would. */
function servedWith(answer: { invoice: WireInvoice; metadata: InvoiceMetadata | null }) {
  const document: PayPageParameters['document'] = async () => ({
    success: true,
    accessLevel: answer.metadata ? 'full' : 'onchain_only',
    data: answer.invoice,
    metadata: answer.metadata,
  })
  const app = new Hono()
  app.onError(errorHandler(silentLogger))
  app.route('/', payPage({ distDir: dist, frameAncestors: "'self'", connectSources: [], publicOrigin: () => 'https://pay.example', document }))
  const served = async () => {
    const html = await (await app.request(`/pay/7?token=${token}`)).text()
    return JSON.parse(/<script type="application\/json" id="svc-served">(.*?)<\/script>/.exec(html)![1]!) as { response: { data: WireInvoice; metadata: InvoiceMetadata | null } }
  }
  return { served }
}

describe('GET /pay/:id, rendered once per answer', () => {
  test('behavior: a paid invoice is served as paid from the first request after the chain read says so', async () => {
    const answer = { invoice: issued, metadata: sampleMetadata() }
    const { served } = servedWith(answer)
    expect((await served()).response.data.status).toBe('Issued')
    expect((await served()).response.data.status).toBe('Issued')
    answer.invoice = { ...issued, status: 'Paid', paidAt: '1760000100' }
    expect((await served()).response.data.status).toBe('Paid')
  })

  test('behavior: once the token opens nothing (revoked), the next request shows no metadata', async () => {
    const answer: { invoice: WireInvoice; metadata: InvoiceMetadata | null } = { invoice: issued, metadata: sampleMetadata() }
    const { served } = servedWith(answer)
    expect((await served()).response.metadata?.merchant.name).toBe('Northwind Studio Ltd')
    answer.metadata = null
    expect((await served()).response.metadata).toBeNull()
  })
})

describe('builtPayPage', () => {
  test('behavior: a rebuild is served without a restart, once the files are looked at again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-dist-'))
    try {
      let clock = 0
      const built = builtPayPage({ distDir: dir, frameAncestors: "'self'", connectSources: [], recheckMs: 1_000, now: () => clock })
      expect(built('')).toBeNull()
      writeFileSync(join(dir, 'index.html'), shell('First'))
      clock += 1_000
      const first = built('https://pay.example')!
      expect(first.shell.text).toContain('<title>First</title>')
      expect(first.shell.text).toContain('<meta name="svc-frame-ancestors" content="https://pay.example" />')
      expect(first.deployment).toBeNull()
      writeFileSync(join(dir, 'index.html'), shell('Second build'))
      expect(built('https://pay.example')).toBe(first)
      clock += 1_000
      expect(built('https://pay.example')!.shell.text).toContain('<title>Second build</title>')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('keptRenders', () => {
  test('behavior: a render is kept while every input is the same object, for the TTL, and for the most recent keys only', () => {
    let clock = 0
    const renders = keptRenders<string>({ ttlMs: 1_000, maxEntries: 2, now: () => clock })
    const read = { status: 'Issued' }
    renders.set('a', [read, null], 'page a')
    expect(renders.get('a', [read, null])).toBe('page a')
    expect(renders.get('a', [{ ...read }, null])).toBeUndefined()
    expect(renders.get('a', [read, null])).toBeUndefined()
    renders.set('a', [read], 'page a')
    renders.set('b', [read], 'page b')
    renders.set('c', [read], 'page c')
    expect([renders.get('a', [read]), renders.get('b', [read]), renders.get('c', [read])]).toEqual([undefined, 'page b', 'page c'])
    clock += 1_000
    expect(renders.get('c', [read])).toBeUndefined()
  })
})
