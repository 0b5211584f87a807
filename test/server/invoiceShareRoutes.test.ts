import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { writeDevnetFile } from '../../devnet/devnetFile'
import { issueInvoice } from '../../devnet/seed'
import { jsonLogger } from '../../server/http/logger'
import { createMerchantClient, type MerchantClient } from '../../cli/merchant/createMerchantClient'
import { bundledCli } from '../support/cliBundle'
import { useInstances } from '../support/instances'
import { answerOf, signedRequest } from '../support/signedRequest'

const lines: string[] = []
const ctx = useInstances({ logger: jsonLogger((line) => lines.push(line)) })

/** The same merchant key against instance A and instance B of one deployment. */
const clients = () => ctx.servers.map((server) => createMerchantClient({ baseUrl: server.url, ...ctx.merchant.apiKey })) as [MerchantClient, MerchantClient]
const invoice = (index: number) => ctx.devnet.seed.invoices[index]!.id
const tokenOf = (shareLink: string) => new URL(shareLink).searchParams.get('token')!

/** What a payer gets with the token, from the given instance: metadata access level and PDF status. */
async function payerView(serverIndex: number, id: bigint, token: string) {
  const base = ctx.servers[serverIndex as 0 | 1].url
  const metadata = await answerOf(await fetch(`${base}/v1/pay/${id}/metadata?token=${token}`))
  const pdf = await fetch(`${base}/v1/pay/${id}/pdf?token=${token}`)
  await pdf.arrayBuffer()
  return { accessLevel: metadata.body.accessLevel, pdf: pdf.status }
}
const opens = { accessLevel: 'full', pdf: 200 }
const closed = { accessLevel: 'onchain_only', pdf: 401 }

describe('GET /v1/invoices/:id/share', () => {
  test('default: the current share link, on the public origin, with its hint', async () => {
    const [a, b] = clients()
    const seeded = ctx.shareLinks[0]!
    const share = await a.getShareLink(invoice(0))
    expect(share).toEqual({ success: true, invoiceId: String(invoice(0)), hasEncryption: true, shareLink: seeded.shareLink, tokenHint: `…${tokenOf(seeded.shareLink).slice(-4)}` })
    expect(share.shareLink).toMatch(/^https:\/\/checkout\.example\.test\/pay\/\d+\?token=svc_tk_[A-Za-z0-9_-]{43}$/)
    expect(await b.getShareLink(invoice(0))).toEqual(share)
    expect(await payerView(1, invoice(0), tokenOf(share.shareLink!))).toEqual(opens)
  })

  test('behavior: an invoice without metadata or default token has no link until one is regenerated', async () => {
    const { devnet } = ctx
    const { timestamp } = await devnet.clients.public.getBlock()
    const issued = await issueInvoice(devnet.anvil.rpcUrl, devnet.deployment, devnet.seed.merchant, { amount: 5_000_000n, dueAt: timestamp + 86_400n, metaHash: `0x${'ab'.repeat(32)}` })
    const [a, b] = clients()
    expect(await a.getShareLink(issued.id)).toEqual({ success: true, invoiceId: String(issued.id), hasEncryption: false, shareLink: null, tokenHint: null })
    const regenerated = await b.regenerateShareLink(issued.id)
    expect(await a.getShareLink(issued.id)).toMatchObject({ hasEncryption: false, shareLink: regenerated.shareLink, tokenHint: regenerated.hint })
  })
})

describe('DELETE /v1/invoices/:id/tokens/:tokenId', () => {
  test('default: create → the metadata and PDF open on the other instance; revoke there → they stop on the first at once', async () => {
    const [a, b] = clients()
    const id = invoice(1)
    const created = await a.createToken(id, { label: 'accounts payable' })
    expect(created).toEqual({
      success: true,
      tokenId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      token: expect.stringMatching(/^svc_tk_[A-Za-z0-9_-]{43}$/),
      shareLink: `https://checkout.example.test/pay/${id}?token=${created.token}`,
      hint: `…${created.token.slice(-4)}`,
      expiresAt: null,
    })
    expect(await payerView(1, id, created.token)).toEqual(opens)
    expect(await payerView(0, id, created.token)).toEqual(opens)

    expect(await b.revokeToken(id, created.tokenId)).toEqual({ success: true, message: expect.any(String) })
    expect(await payerView(0, id, created.token)).toEqual(closed)
    expect(await payerView(1, id, created.token)).toEqual(closed)
    // the seeded share link of the same invoice is untouched
    expect(await payerView(0, id, tokenOf(ctx.shareLinks[1]!.shareLink))).toEqual(opens)
    await expect(b.revokeToken(id, created.tokenId)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' })
  })
})

describe('POST /v1/invoices/:id/tokens', () => {
  test('behavior: an expiry takes effect at once, and the list says so', async () => {
    const [a] = clients()
    const id = invoice(1)
    // long enough to create and open it on a loaded machine, short enough to wait out
    const expiresAt = new Date(Date.now() + 4_000)
    const created = await a.createToken(id, { expiresAt })
    expect(created.expiresAt).toBe(expiresAt.toISOString())
    expect(await payerView(1, id, created.token)).toEqual(opens)
    await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 50))
    expect(await payerView(1, id, created.token)).toEqual(closed)
    const listed = (await a.listTokens(id)).tokens.find((token) => token.tokenId === created.tokenId)
    expect(listed).toMatchObject({ status: 'expired', revoked: false, expiresAt: expiresAt.toISOString() })
  })
})

describe('POST /v1/invoices/:id/share/regenerate', () => {
  test('behavior: regenerate revokes the old default only; other tokens keep working', async () => {
    const [a, b] = clients()
    const id = invoice(2)
    const oldDefault = await a.getShareLink(id)
    const extra = await a.createToken(id, { label: 'bookkeeper' })
    const fresh = await b.regenerateShareLink(id)
    expect(fresh).toEqual({
      success: true,
      tokenId: expect.any(String),
      token: expect.stringMatching(/^svc_tk_/),
      shareLink: `https://checkout.example.test/pay/${id}?token=${fresh.token}`,
      hint: `…${fresh.token.slice(-4)}`,
    })
    expect(await payerView(0, id, tokenOf(oldDefault.shareLink!))).toEqual(closed)
    expect(await payerView(0, id, fresh.token)).toEqual(opens)
    expect(await payerView(0, id, extra.token)).toEqual(opens)
    expect(await a.getShareLink(id)).toMatchObject({ shareLink: fresh.shareLink, tokenHint: fresh.hint })

    const defaults = (await a.listTokens(id)).tokens.filter((token) => token.isDefault)
    expect(defaults.map(({ status }) => status)).toEqual(['revoked', 'active'])
  })
})

describe('GET /v1/invoices/:id/tokens', () => {
  test('behavior: the list describes every token and exposes no secret', async () => {
    const [a] = clients()
    const id = invoice(3)
    const created = await a.createToken(id, { label: 'auditor', expiresAt: new Date(Date.now() + 86_400_000).toISOString() })
    const share = await a.getShareLink(id)
    const answer = await signedRequest(ctx.servers[1].url, ctx.merchant.apiKey, { method: 'GET', path: `/v1/invoices/${id}/tokens` })
    expect(answer.status).toBe(200)
    const text = JSON.stringify(answer.body)
    expect(text).not.toContain('svc_tk_')
    expect(text).not.toContain(created.token.slice('svc_tk_'.length))
    expect(text).not.toContain(tokenOf(share.shareLink!).slice('svc_tk_'.length))
    for (const token of answer.body.tokens) {
      expect(Object.keys(token).sort()).toEqual(['createdAt', 'expiresAt', 'hint', 'isDefault', 'label', 'revoked', 'status', 'tokenId'])
    }
    expect(answer.body.tokens).toContainEqual({
      tokenId: created.tokenId,
      label: 'auditor',
      hint: created.hint,
      createdAt: expect.any(String),
      expiresAt: created.expiresAt,
      revoked: false,
      status: 'active',
      isDefault: false,
    })
    expect(answer.body.tokens).toContainEqual(expect.objectContaining({ isDefault: true, label: 'share link', status: 'active', hint: share.tokenHint }))
  })
})

describe('ownership and validation', () => {
  test("behavior: another studio's key gets 404 on every route, exactly as for a missing invoice", async () => {
    const { stores } = ctx.servers[0]
    const studio = await stores.studios.createStudio({ name: 'Someone else', vaultAddress: ctx.devnet.seed.payer.vault, chainId: ctx.devnet.deployment.chainId })
    const stranger = await stores.apiKeys.createApiKey({ studioId: studio.id, name: 'stranger', scopes: ['write'] })
    const { tokenId } = ctx.shareLinks[0]!
    const routes = (id: string) => [
      { method: 'GET', path: `/v1/invoices/${id}/share` },
      { method: 'GET', path: `/v1/invoices/${id}/tokens` },
      { method: 'POST', path: `/v1/invoices/${id}/tokens`, body: '{"label":"mine now"}' },
      { method: 'DELETE', path: `/v1/invoices/${id}/tokens/${tokenId}` },
      { method: 'POST', path: `/v1/invoices/${id}/share/regenerate` },
    ]
    const foreign = routes(String(invoice(0)))
    const missing = routes('987654321')
    for (const [index, request] of foreign.entries()) {
      const theirs = await signedRequest(ctx.servers[1].url, stranger, request)
      const none = await signedRequest(ctx.servers[1].url, stranger, missing[index]!)
      expect({ route: request, status: theirs.status }).toEqual({ route: request, status: 404 })
      expect(theirs.body).toEqual(none.body)
    }
    // nothing changed for the owner
    expect((await clients()[0].getShareLink(invoice(0))).shareLink).toBe(ctx.shareLinks[0]!.shareLink)
  })

  // input refused before the invoice is read: test/server/requestValidation.test.ts, without a chain
  test('behavior: expiries out of range and unknown or foreign token ids are refused on an owned invoice, touching nothing', async () => {
    const key = ctx.merchant.apiKey
    const base = ctx.servers[0].url
    const id = invoice(1)
    const tokens = `/v1/invoices/${id}/tokens`
    const otherInvoiceToken = ctx.shareLinks[0]!.tokenId
    const inAWhile = (ms: number) => new Date(Date.now() + ms).toISOString()
    const cases = [
      { name: 'a past expiry', request: { method: 'POST', path: tokens, body: JSON.stringify({ expiresAt: inAWhile(-1_000) }) }, status: 400, code: 'VALIDATION_ERROR' },
      { name: 'an expiry past a year', request: { method: 'POST', path: tokens, body: JSON.stringify({ expiresAt: inAWhile(366 * 86_400_000) }) }, status: 400, code: 'VALIDATION_ERROR' },
      { name: 'an unknown token id', request: { method: 'DELETE', path: `${tokens}/${crypto.randomUUID()}` }, status: 404, code: 'NOT_FOUND' },
      { name: "another invoice's token", request: { method: 'DELETE', path: `${tokens}/${otherInvoiceToken}` }, status: 404, code: 'NOT_FOUND' },
    ]
    for (const { name, request, status, code } of cases) {
      const answer = await signedRequest(base, key, request)
      expect({ name, status: answer.status, code: answer.body.code ?? answer.body.error }).toEqual({ name, status, code })
      expect(answer.body.error).toEqual(expect.any(String))
    }
    // the other invoice's token still works: the refused DELETE touched nothing
    expect(await payerView(0, invoice(0), tokenOf(ctx.shareLinks[0]!.shareLink))).toEqual(opens)
    // no body at all is an empty request
    expect((await signedRequest(base, key, { method: 'POST', path: tokens })).status).toBe(201)
  })

  test('behavior: logs carry neither tokens nor secrets', () => {
    const logged = lines.join('\n')
    expect(logged).toContain('/v1/invoices/')
    expect(logged).not.toContain('svc_tk_')
    expect(logged).not.toContain('svc_sk_')
    expect(logged).not.toContain(ctx.merchant.apiKey.secret.slice('svc_sk_'.length))
  })
})

describe('npm run share-link', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-share-link-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test('default: prints a fresh share link made with the devnet key from devnet.json', async () => {
    const { devnet, servers, merchant, shareLinks } = ctx
    const { deployment } = devnet
    writeDevnetFile(dir, {
      chainId: deployment.chainId,
      rpcUrl: devnet.anvil.rpcUrl,
      serverUrl: servers[0].url,
      storefrontUrl: 'http://127.0.0.1:8788',
      contracts: { entryPoint: deployment.entryPoint, token: deployment.token, registry: deployment.registry, vaultFactory: deployment.vaultFactory, paymaster: deployment.paymaster },
      merchant: { ...devnet.seed.merchant, ...merchant },
      payer: devnet.seed.payer,
      invoices: devnet.seed.invoices.map((seeded, index) => ({
        id: String(seeded.id),
        amount: String(seeded.amount),
        invoiceNumber: seeded.metadata.invoiceNumber,
        dueAt: String(seeded.dueAt),
        shareLink: shareLinks[index]!.shareLink,
      })),
      startedAt: new Date().toISOString(),
    })
    const child = spawn(process.execPath, [await bundledCli('cli/shareLink.ts'), '--invoice', String(invoice(0))], {
      env: { ...process.env, SVC_DEVNET_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect({ code, output }).toMatchObject({ code: 0 })
    const link = output.trim()
    expect(link).toMatch(new RegExp(`^https://checkout\\.example\\.test/pay/${invoice(0)}\\?token=svc_tk_[A-Za-z0-9_-]{43}$`))
    expect(link).not.toBe(shareLinks[0]!.shareLink)
    expect(await payerView(1, invoice(0), tokenOf(link))).toEqual(opens)
    expect(await payerView(1, invoice(0), tokenOf(shareLinks[0]!.shareLink))).toEqual(opens)
  })
})
