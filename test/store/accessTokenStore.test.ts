import { createHash, randomBytes } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import { createAccessTokenStore, DefaultTokenExistsError, type AccessTokenStore } from '../../server/store/accessTokenStore'
import type { Database } from '../../server/store/database'
import { createMetadataCipher } from '../../server/store/metadataCipher'
import { backends, useDatabases } from '../support/postgres'
import { randomInvoiceKey } from './fixtures'

const databases = useDatabases()
const hour = 3_600_000
const cipher = createMetadataCipher(randomBytes(32).toString('base64'))

describe.each(backends)('%s', (backend) => {
  let db: Database
  let second: Database
  let tokens: AccessTokenStore
  beforeAll(async () => {
    ;[db, second] = await databases.openTwo(backend)
    tokens = createAccessTokenStore(db, cipher)
  })

  test('default: a token opens its invoice, and is shown once in clear', async () => {
    const invoice = randomInvoiceKey()
    const created = await tokens.createToken({ invoice, label: 'accounts payable', isDefault: false })
    expect(created.token).toMatch(/^svc_tk_[A-Za-z0-9_-]{43}$/)
    expect(created.tokenId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(created.hint).toBe(`…${created.token.slice(-4)}`)
    expect(created.expiresAt).toBeNull()
    expect(await tokens.findValidToken(invoice, created.token)).toMatchObject({
      tokenId: created.tokenId,
      invoice,
      hint: created.hint,
      label: 'accounts payable',
      isDefault: false,
      expiresAt: null,
      revokedAt: null,
    })
  })

  test('behavior: the database holds only the SHA-256 of a token, never the token', async () => {
    const invoice = randomInvoiceKey()
    const { token, tokenId } = await tokens.createToken({ invoice, isDefault: true })
    const [row] = await db.query<Record<string, unknown>>('SELECT * FROM invoice_access_tokens WHERE token_id = $1', [tokenId])
    expect(Buffer.from(row!.token_hash as Uint8Array).equals(createHash('sha256').update(token).digest())).toBe(true)
    const secret = token.slice('svc_tk_'.length)
    const everyRow = await db.query<{ text: string }>('SELECT t::text AS text FROM invoice_access_tokens t')
    expect(everyRow.length).toBeGreaterThan(0)
    for (const { text } of everyRow) {
      expect(text).not.toContain(secret)
      expect(text).not.toContain(Buffer.from(secret, 'base64url').toString('hex'))
    }
  })

  test('behavior: wrong, malformed, foreign, expired and revoked tokens all give null', async () => {
    const invoice = randomInvoiceKey()
    const valid = await tokens.createToken({ invoice, isDefault: false })
    const expired = await tokens.createToken({ invoice, isDefault: false, expiresAt: new Date(Date.now() - 1000) })
    const revoked = await tokens.createToken({ invoice, isDefault: false })
    expect(await tokens.revokeToken(invoice, revoked.tokenId)).toBe(true)
    const otherInvoice = await tokens.createToken({ invoice: randomInvoiceKey(), isDefault: false })
    const unknown = `svc_tk_${'A'.repeat(43)}`

    for (const presented of [unknown, valid.token.slice(0, -1), `${valid.token}x`, '', 'svc_tk_', expired.token, revoked.token, otherInvoice.token]) {
      expect(await tokens.findValidToken(invoice, presented)).toBeNull()
    }
    expect(await tokens.findValidToken({ ...invoice, chainId: 1 }, valid.token)).toBeNull()
    expect(await tokens.findValidToken(invoice, valid.token)).not.toBeNull()
  })

  test('behavior: a token is valid until its expiry', async () => {
    const invoice = randomInvoiceKey()
    const expiresAt = new Date(Date.now() + hour)
    const created = await tokens.createToken({ invoice, isDefault: false, expiresAt })
    expect(created.expiresAt).toEqual(expiresAt)
    expect((await tokens.findValidToken(invoice, created.token))?.expiresAt).toEqual(expiresAt)
  })

  test('behavior: the registry address names the invoice in any spelling', async () => {
    const invoice = randomInvoiceKey()
    const { token } = await tokens.createToken({ invoice: { ...invoice, registry: invoice.registry.toLowerCase() as `0x${string}` }, isDefault: false })
    expect((await tokens.findValidToken(invoice, token))?.invoice).toEqual(invoice)
  })

  test('behavior: the list shows every token of the invoice and no secret', async () => {
    const invoice = randomInvoiceKey()
    const first = await tokens.createToken({ invoice, isDefault: true })
    const second = await tokens.createToken({ invoice, label: 'auditor', isDefault: false, expiresAt: new Date(Date.now() + hour) })
    await tokens.revokeToken(invoice, second.tokenId)
    await tokens.createToken({ invoice: randomInvoiceKey(), isDefault: false })

    const list = await tokens.listTokens(invoice)
    expect(list.map((record) => record.tokenId)).toEqual([first.tokenId, second.tokenId])
    for (const record of list) {
      expect(Object.keys(record).sort()).toEqual(['createdAt', 'expiresAt', 'hint', 'invoice', 'isDefault', 'label', 'revokedAt', 'tokenId'])
    }
    expect(list[1]).toMatchObject({ label: 'auditor', isDefault: false, revokedAt: expect.any(Date) })
    expect(list[0]?.revokedAt).toBeNull()
  })

  test('behavior: revocation is permanent and only for the invoice that owns the token', async () => {
    const invoice = randomInvoiceKey()
    const { token, tokenId } = await tokens.createToken({ invoice, isDefault: false })
    expect(await tokens.revokeToken(randomInvoiceKey(), tokenId)).toBe(false)
    expect(await tokens.findValidToken(invoice, token)).not.toBeNull()
    expect(await tokens.revokeToken(invoice, tokenId)).toBe(true)
    expect(await tokens.revokeToken(invoice, tokenId)).toBe(false)
    expect(await tokens.findValidToken(invoice, token)).toBeNull()
    expect(await tokens.revokeToken(invoice, 'not-a-uuid')).toBe(false)
    expect(await tokens.revokeToken(invoice, crypto.randomUUID())).toBe(false)
  })

  test('behavior: regenerating revokes only the old default; other tokens keep working', async () => {
    const invoice = randomInvoiceKey()
    const oldDefault = await tokens.createToken({ invoice, isDefault: true })
    const extra = await tokens.createToken({ invoice, label: 'bookkeeper', isDefault: false })
    const neighbourInvoice = randomInvoiceKey()
    const neighbour = await tokens.createToken({ invoice: neighbourInvoice, isDefault: true })

    const fresh = await tokens.regenerateDefault(invoice)
    expect(fresh.token).toMatch(/^svc_tk_/)
    expect(fresh.tokenId).not.toBe(oldDefault.tokenId)
    expect(await tokens.findValidToken(invoice, oldDefault.token)).toBeNull()
    expect(await tokens.findValidToken(invoice, fresh.token)).toMatchObject({ isDefault: true })
    expect(await tokens.findValidToken(invoice, extra.token)).toMatchObject({ label: 'bookkeeper' })
    expect(await tokens.findValidToken(neighbourInvoice, neighbour.token)).not.toBeNull()

    const list = await tokens.listTokens(invoice)
    expect(list.filter((record) => record.isDefault && !record.revokedAt).map((record) => record.tokenId)).toEqual([fresh.tokenId])
  })

  test('behavior: regenerating creates a default where there is none', async () => {
    const invoice = randomInvoiceKey()
    const fresh = await tokens.regenerateDefault(invoice)
    expect(await tokens.findValidToken(invoice, fresh.token)).toMatchObject({ isDefault: true })
  })

  test('behavior: the default token can be read back, encrypted at rest; other tokens cannot', async () => {
    const invoice = randomInvoiceKey()
    expect(await tokens.getDefaultToken(invoice)).toBeNull()
    const first = await tokens.createToken({ invoice, isDefault: true, label: 'share link' })
    const other = await tokens.createToken({ invoice, isDefault: false })
    expect(await tokens.getDefaultToken(invoice)).toMatchObject({ tokenId: first.tokenId, token: first.token, hint: first.hint, isDefault: true })

    const rows = await db.query<{ token_id: string; sealed: boolean; text: string }>(
      'SELECT token_id, share_token_ciphertext IS NOT NULL AS sealed, t::text AS text FROM invoice_access_tokens t WHERE token_id = ANY($1)',
      [[first.tokenId, other.tokenId]],
    )
    expect(Object.fromEntries(rows.map((row) => [row.token_id, row.sealed]))).toEqual({ [first.tokenId]: true, [other.tokenId]: false })
    for (const row of rows) expect(row.text).not.toContain(first.token.slice('svc_tk_'.length))

    const fresh = await tokens.regenerateDefault(invoice)
    expect(await tokens.getDefaultToken(invoice)).toMatchObject({ tokenId: fresh.tokenId, token: fresh.token })
    const [old] = await db.query<{ sealed: boolean }>('SELECT share_token_ciphertext IS NOT NULL AS sealed FROM invoice_access_tokens WHERE token_id = $1', [first.tokenId])
    expect(old?.sealed).toBe(false)
    expect(await tokens.revokeToken(invoice, fresh.tokenId)).toBe(true)
    expect(await tokens.getDefaultToken(invoice)).toBeNull()
  })

  test('behavior: a sealed default does not open on another token row', async () => {
    const donor = await tokens.createToken({ invoice: randomInvoiceKey(), isDefault: true })
    const invoice = randomInvoiceKey()
    const target = await tokens.regenerateDefault(invoice)
    await db.query(
      `UPDATE invoice_access_tokens SET (share_token_ciphertext, share_token_iv) =
         (SELECT share_token_ciphertext, share_token_iv FROM invoice_access_tokens WHERE token_id = $1) WHERE token_id = $2`,
      [donor.tokenId, target.tokenId],
    )
    await expect(tokens.getDefaultToken(invoice)).rejects.toMatchObject({ code: 'DECRYPTION_FAILED' })
  })

  test('behavior: a second default is refused; the way to replace one is regeneration', async () => {
    const invoice = randomInvoiceKey()
    await tokens.createToken({ invoice, isDefault: true })
    await expect(tokens.createToken({ invoice, isDefault: true })).rejects.toBeInstanceOf(DefaultTokenExistsError)
    await expect(tokens.createToken({ invoice, isDefault: true })).rejects.toMatchObject({ code: 'DEFAULT_TOKEN_EXISTS' })
  })

  test('behavior: concurrent regenerations from two instances leave exactly one unrevoked default', async () => {
    const invoice = randomInvoiceKey()
    await tokens.createToken({ invoice, isDefault: true })
    const extra = await tokens.createToken({ invoice, isDefault: false })
    const instances = [tokens, createAccessTokenStore(second, cipher)]

    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => instances[i % 2]!.regenerateDefault(invoice)))

    const live = (await tokens.listTokens(invoice)).filter((record) => record.isDefault && !record.revokedAt)
    expect(live).toHaveLength(1)
    const valid = await Promise.all(results.map((result) => tokens.findValidToken(invoice, result.token)))
    expect(valid.filter(Boolean).map((record) => record!.tokenId)).toEqual([live[0]!.tokenId])
    expect(await tokens.findValidToken(invoice, extra.token)).not.toBeNull()
  })
})
