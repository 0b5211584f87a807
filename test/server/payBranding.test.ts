import { createHash, randomBytes } from 'node:crypto'
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { devnetDeploymentFile } from '../../build/readPinnedDeployment'
import { demoLogo, drawPng } from '../../devnet/demoLogo'
import { verifyLogo } from '../../server/branding/verifyLogo'
import { inlineLogoMaxBytes } from '../../shared/inlineLogo'
import { api, useServer } from '../support/server'

// a page built as Vite builds it, with the deployment beside it: the server renders the invoice into it
const dist = mkdtempSync(join(tmpdir(), 'svc-dist-'))
writeFileSync(join(dist, 'index.html'), '<!doctype html><html lang="en"><head><title>Pay</title><style>body{margin:0}</style></head><body><div id="app"></div></body></html>')
copyFileSync(devnetDeploymentFile, join(dist, 'deployment.json'))
afterAll(() => rmSync(dist, { recursive: true, force: true }))

const ctx = useServer({ payPageDir: dist })
const logo = verifyLogo(Buffer.from(demoLogo()).toString('base64'))
const file = `${logo.sha256}.png`
let studioId: string

beforeAll(async () => {
  const { stores } = ctx.server
  // the demo merchant's studio, which the test server registered
  const studio = (await stores.studios.findStudioByVault(ctx.devnet.deployment.chainId, ctx.devnet.seed.merchant.vault))!
  studioId = studio.id
  await stores.branding.setBranding(studioId, { brandColor: '#ffff00', logo })
})

describe('GET /v1/pay/:id/branding', () => {
  test("default: the colour and logo of the studio whose vault the chain names as the invoice's merchant, with no URL", async () => {
    const answer = await api(ctx.server.url, `/v1/pay/${ctx.devnet.seed.invoices[0]!.id}/branding`)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('access-control-allow-origin')).toBe('*')
    expect(answer.body).toEqual({ success: true, branding: { brandColor: '#ffff00', logo: { file, width: 96, height: 96 } } })
  })

  test('behavior: an invoice the chain does not hold is a 404, not branding', async () => {
    const answer = await api(ctx.server.url, '/v1/pay/424242/branding')
    expect(answer.status).toBe(404)
    expect(answer.body.code).toBe('NOT_FOUND')
  })
})

describe('the server-rendered pay page', () => {
  test('behavior: paints in the brand colour from the first response: a band with the small logo in the page itself, its bytes exactly the file our origin serves, a style its policy allows by hash and no other, and the branding beside the data', async () => {
    const { id } = ctx.devnet.seed.invoices[0]!
    const response = await fetch(`${ctx.server.url}/pay/${id}`)
    const html = await response.text()
    expect(response.status).toBe(200)
    const style = '--svc-brand:#ffff00;--svc-brand-text:#000000;--svc-brand-edge:#999900'
    // a 1 kB logo: no request of its own before the first screen is whole
    const data = `data:image/png;base64,${Buffer.from(demoLogo()).toString('base64')}`
    expect(html).toContain(`<div class="svc-brand-scope svc-branded" style="${style}"><div class="svc-brand-band"><div class="svc-brand-inner"><img class="svc-brand-logo" src="${data}" width="96" height="96" alt/>`)
    expect(html).toContain(`,"branding":{"brandColor":"#ffff00","logo":{"file":"${file}","width":96,"height":96,"data":"${data}"}}}</script>`)
    expect(Buffer.from(await (await fetch(`${ctx.server.url}/v1/branding/logos/${file}`)).arrayBuffer()).toString('base64')).toBe(data.slice('data:image/png;base64,'.length))
    const policy = response.headers.get('content-security-policy')!
    const styleSrc = policy.split('; ').find((directive) => directive.startsWith('style-src '))
    const bodyStyle = `'sha256-${createHash('sha256').update('body{margin:0}').digest('base64')}'`
    expect(styleSrc).toBe(`style-src 'self' ${bodyStyle} 'unsafe-hashes' 'sha256-${createHash('sha256').update(style).digest('base64')}'`)
    expect(policy).toContain("img-src 'self' data:")
  })

  test('behavior: a logo over 4 kB stays a link to the file on our origin, and the page carries no copy of it', async () => {
    // noise does not compress: a 96 px square of it is some 36 kB
    const noise = randomBytes(96 * 96 * 3)
    const large = verifyLogo(Buffer.from(drawPng(96, 96, (x, y) => [noise[(y * 96 + x) * 3]!, noise[(y * 96 + x) * 3 + 1]!, noise[(y * 96 + x) * 3 + 2]!, 255])).toString('base64'))
    expect(large.bytes.length).toBeGreaterThan(inlineLogoMaxBytes)
    await ctx.server.stores.branding.setBranding(studioId, { brandColor: '#ffff00', logo: large })
    try {
      const html = await (await fetch(`${ctx.server.url}/pay/${ctx.devnet.seed.invoices[0]!.id}`)).text()
      expect(html).toContain(`<img class="svc-brand-logo" src="/v1/branding/logos/${large.sha256}.png" width="96" height="96" alt/>`)
      expect(html).toContain(`,"branding":{"brandColor":"#ffff00","logo":{"file":"${large.sha256}.png","width":96,"height":96}}}</script>`)
      expect(html).not.toContain('data:image/png')
    } finally {
      await ctx.server.stores.branding.setBranding(studioId, { brandColor: '#ffff00', logo })
    }
  })

  test('behavior: without branding the page is as before: no band, no extra style allowed, and the client told there is none', async () => {
    await ctx.server.stores.branding.deleteBranding(studioId)
    try {
      const response = await fetch(`${ctx.server.url}/pay/${ctx.devnet.seed.invoices[0]!.id}`)
      const html = await response.text()
      expect(html).toContain('<div class="svc-brand-scope"><main')
      expect(html).toContain(',"branding":null}</script>')
      expect(response.headers.get('content-security-policy')).not.toContain('unsafe-hashes')
    } finally {
      await ctx.server.stores.branding.setBranding(studioId, { brandColor: '#ffff00', logo })
    }
  })
})
