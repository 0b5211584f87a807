import { createHash, randomBytes } from 'node:crypto'
import { privateKeyToAddress } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { demoLogo, drawPng } from '../../devnet/demoLogo'
import { createMerchantClient } from '../../cli/merchant/createMerchantClient'
import { useInProcessApp } from '../support/inProcessApp'
import { answerOf, signedRequest, type SignedRequest } from '../support/signedRequest'

const app = useInProcessApp()
const base = 'http://127.0.0.1'
const path = '/v1/studios/me/branding'

type Key = { keyId: string; secret: string }
const send = (request: SignedRequest, key: Key = app.apiKey) => signedRequest(base, key, request, app.fetch)
const put = (body: unknown, key?: Key) => send({ method: 'PUT', path, body: JSON.stringify(body) }, key)
const get = (key?: Key) => send({ method: 'GET', path }, key)
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

async function otherStudioKey(scopes: string[] = ['invoice:read', 'invoice:write']): Promise<Key> {
  const studio = await app.stores.studios.createStudio({ vaultAddress: privateKeyToAddress(`0x${randomBytes(32).toString('hex')}`), chainId: 31337 })
  const { keyId, secret } = await app.stores.apiKeys.createApiKey({ studioId: studio.id, name: 'other', scopes })
  return { keyId, secret }
}

/** A JPEG's marker structure (SOI, APP0, a 300×120 frame header, one scan, EOI): what the verifier reads. */
function jpeg(width: number, height: number, trailing: number[] = []): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]
  const sof0 = [0xff, 0xc0, 0x00, 0x0b, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x01, 0x01, 0x11, 0x00]
  const sos = [0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00]
  return new Uint8Array([0xff, 0xd8, ...app0, ...sof0, ...sos, 0x12, 0xff, 0x00, 0x34, 0xff, 0xd9, ...trailing])
}

/** A lossless WebP's header (RIFF, VP8L with its 14-bit sizes less one). */
function webp(width: number, height: number): Uint8Array {
  const bits = (width - 1) | ((height - 1) << 14)
  const vp8l = [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >>> 24) & 0xff, 0, 0, 0, 0, 0]
  const chunk = [...Buffer.from('VP8L'), vp8l.length, 0, 0, 0, ...vp8l]
  const riff = [...Buffer.from('WEBP'), ...chunk]
  return new Uint8Array([...Buffer.from('RIFF'), riff.length & 0xff, riff.length >> 8, 0, 0, ...riff])
}

const svg = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.domain)</script></svg>'

describe('PUT /v1/studios/me/branding', () => {
  test('behavior: without HMAC headers, or with a signature over other bytes, nothing is stored', async () => {
    const body = JSON.stringify({ brandColor: '#ffff00' })
    const bare = await answerOf(await app.fetch(`${base}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body }))
    expect(bare.status).toBe(401)
    expect(bare.body).toMatchObject({ error: 'UNAUTHORIZED', code: 'UNAUTHORIZED' })
    const tampered = await send({ method: 'PUT', path, body, send: { body: JSON.stringify({ brandColor: '#000000' }) } })
    expect(tampered.status).toBe(401)
    expect((await get()).body).toEqual({ success: true, branding: null })
  })

  test('behavior: a key without invoice:write may not change what payers see', async () => {
    const readOnly = await otherStudioKey(['invoice:read'])
    const answer = await put({ brandColor: '#ffff00' }, readOnly)
    expect(answer.status).toBe(403)
    expect(answer.body.code).toBe('FORBIDDEN')
  })

  test('default: a colour and a PNG logo are stored, answered with the URL the logo is served at, and the logo is served from this origin as an image only', async () => {
    const logo = demoLogo()
    const answer = await put({ brandColor: '#FFFF00', logo: base64(logo) })
    expect(answer.status).toBe(200)
    const hash = sha256(logo)
    expect(answer.body).toEqual({
      success: true,
      branding: {
        brandColor: '#ffff00',
        logo: { url: `/v1/branding/logos/${hash}.png`, sha256: hash, contentType: 'image/png', bytes: logo.length, width: 96, height: 96 },
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    })
    expect((await get()).body).toEqual(answer.body)

    const served = await app.fetch(`${base}/v1/branding/logos/${hash}.png`)
    expect(served.status).toBe(200)
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(logo)
    expect(Object.fromEntries(['content-type', 'x-content-type-options', 'content-security-policy', 'cache-control', 'cross-origin-resource-policy'].map((name) => [name, served.headers.get(name)]))).toEqual({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'public, max-age=31536000, immutable',
      'cross-origin-resource-policy': 'cross-origin',
    })
  })

  test('behavior: JPEG and WebP logos are taken by their structure, with their sizes, and bytes after the image are cut off', async () => {
    const withTail = jpeg(300, 120, [...Buffer.from('<script>alert(1)</script>')])
    const stored = await put({ brandColor: '#0b5cad', logo: base64(withTail) })
    expect(stored.status).toBe(200)
    const image = withTail.subarray(0, withTail.length - 25)
    expect(stored.body.branding.logo).toMatchObject({ contentType: 'image/jpeg', width: 300, height: 120, bytes: image.length, sha256: sha256(image) })
    const served = await app.fetch(`${base}${stored.body.branding.logo.url}`)
    expect(served.headers.get('content-type')).toBe('image/jpeg')
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(image)
    // the name says the type: the same hash under another extension is not served
    expect((await app.fetch(`${base}/v1/branding/logos/${sha256(image)}.png`)).status).toBe(404)

    const lossless = await put({ brandColor: '#0b5cad', logo: base64(webp(640, 200)) })
    expect(lossless.body.branding.logo).toMatchObject({ contentType: 'image/webp', width: 640, height: 200 })
  })

  test('behavior: an SVG is refused as a type not accepted, whatever it is called', async () => {
    const answer = await put({ brandColor: '#0b5cad', logo: Buffer.from(svg).toString('base64') })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({ error: 'LOGO_TYPE_NOT_ACCEPTED', code: 'LOGO_TYPE_NOT_ACCEPTED', message: expect.stringContaining('SVG logos are not accepted') })
  })

  test('behavior: garbage, a truncated PNG and a PNG with a wrong checksum are refused as invalid', async () => {
    const png = drawPng(8, 8, () => [0, 0, 0, 255])
    const corrupted = png.slice()
    corrupted[20] = corrupted[20]! ^ 1 // inside IHDR: its CRC no longer holds
    for (const bytes of [randomBytes(300), png.subarray(0, png.length - 12), corrupted, Buffer.from('<html><body>hi</body></html>')]) {
      const answer = await put({ brandColor: '#0b5cad', logo: base64(bytes) })
      expect(answer.status).toBe(400)
      expect(answer.body.code).toBe('LOGO_INVALID')
    }
  })

  test('behavior: a logo over 64 KiB or over 1024 px a side is refused as too large, with the limit', async () => {
    const noise = drawPng(128, 130, () => [...randomBytes(4)] as [number, number, number, number])
    expect(noise.length).toBeGreaterThan(65_536)
    const heavy = await put({ brandColor: '#0b5cad', logo: base64(noise) })
    expect(heavy.status).toBe(400)
    expect(heavy.body).toMatchObject({ code: 'LOGO_TOO_LARGE', bytes: noise.length, maxBytes: 65_536 })
    const wide = await put({ brandColor: '#0b5cad', logo: base64(drawPng(1025, 1, () => [0, 0, 0, 255])) })
    expect(wide.body).toMatchObject({ code: 'LOGO_TOO_LARGE', width: 1025, height: 1, maxPixels: 1024 })
    const huge = await put({ brandColor: '#0b5cad', logo: base64(randomBytes(80_000)) })
    expect(huge.status).toBe(413)
    expect(huge.body.code).toBe('PAYLOAD_TOO_LARGE')
  })

  test('behavior: a colour that is not #RRGGBB, a logo that is not base64 and unknown fields are validation errors', async () => {
    for (const body of [{ brandColor: 'yellow' }, { brandColor: '#ff0' }, { brandColor: 'url(https://evil.example/x)' }, { brandColor: '#ffff00', logo: 'not base64!' }, { brandColor: '#ffff00', logoUrl: 'https://cdn.example/logo.png' }]) {
      const answer = await put(body)
      expect(answer.status).toBe(400)
      expect(answer.body.error).toBe('VALIDATION_ERROR')
    }
  })
})

describe('GET /v1/studios/me/branding', () => {
  test("behavior: each studio reads and sets only its own branding", async () => {
    const other = await otherStudioKey()
    expect((await get(other)).body).toEqual({ success: true, branding: null })
    await put({ brandColor: '#123456' }, other)
    expect((await get(other)).body.branding).toMatchObject({ brandColor: '#123456', logo: null })
    expect((await get()).body.branding?.brandColor).not.toBe('#123456')
  })
})

describe('DELETE /v1/studios/me/branding', () => {
  test('behavior: removes the branding and its logo, then answers 404 for a second removal', async () => {
    const other = await otherStudioKey()
    const logo = drawPng(4, 4, () => [9, 9, 9, 255])
    await put({ brandColor: '#654321', logo: base64(logo) }, other)
    const removed = await send({ method: 'DELETE', path }, other)
    expect(removed.status).toBe(200)
    expect(removed.body.success).toBe(true)
    expect((await get(other)).body).toEqual({ success: true, branding: null })
    expect((await app.fetch(`${base}/v1/branding/logos/${sha256(logo)}.png`)).status).toBe(404)
    const again = await send({ method: 'DELETE', path }, other)
    expect(again.status).toBe(404)
    expect(again.body.code).toBe('NOT_FOUND')
  })
})

describe('GET /v1/branding/logos/:file', () => {
  test('behavior: a name that is not a hash and a type is a validation error, an unknown hash a 404', async () => {
    expect((await app.fetch(`${base}/v1/branding/logos/logo.svg`)).status).toBe(400)
    expect((await app.fetch(`${base}/v1/branding/logos/${'0'.repeat(64)}.png`)).status).toBe(404)
  })
})

describe('the merchant client', () => {
  test('behavior: sets, reads and removes the branding with a logo as bytes, signing each request', async () => {
    const key = await otherStudioKey()
    const client = createMerchantClient({ baseUrl: base, ...key, fetch: ((url: URL, init: RequestInit) => app.app.request(url, init)) as typeof fetch })
    const logo = drawPng(3, 2, () => [200, 30, 30, 255])
    const set = await client.setBranding({ brandColor: '#C81E1E', logo })
    expect(set.branding).toMatchObject({ brandColor: '#c81e1e', logo: { sha256: sha256(logo), width: 3, height: 2, contentType: 'image/png' } })
    expect(await client.getBranding()).toEqual(set)
    expect((await client.deleteBranding()).success).toBe(true)
    expect(await client.getBranding()).toEqual({ success: true, branding: null })
  })
})
