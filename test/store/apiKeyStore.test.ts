import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import { bytesToHex, getAddress } from 'viem'
import { createApiKeyStore, type ApiKeyStore } from '../../server/store/apiKeyStore'
import type { Database } from '../../server/store/database'
import { createMetadataCipher, DecryptionError } from '../../server/store/metadataCipher'
import { createStudioStore, StudioNotFoundError } from '../../server/store/studioStore'
import { backends, useDatabases } from '../support/postgres'

const databases = useDatabases()
const serverKey = randomBytes(32).toString('base64')

describe.each(backends)('%s', (backend) => {
  let db: Database
  let keys: ApiKeyStore
  const newStudio = async () =>
    (await createStudioStore(db).createStudio({ name: 'Northwind', vaultAddress: getAddress(bytesToHex(randomBytes(20))), chainId: 31337 })).id
  beforeAll(async () => {
    db = await databases.open(backend)
    keys = createApiKeyStore(db, createMetadataCipher(serverKey))
  })

  test('default: the secret is shown once, and its HMAC key verifies what the secret signs', async () => {
    const studioId = await newStudio()
    const expiresAt = new Date(Date.now() + 86_400_000)
    const created = await keys.createApiKey({ studioId, name: 'backend', scopes: ['invoice:read', 'invoice:write'], expiresAt })
    expect(created).toMatchObject({ studioId, name: 'backend', scopes: ['invoice:read', 'invoice:write'], status: 'active', expiresAt, revokedAt: null })
    expect(created.keyId).toMatch(/^svc_pk_[A-Za-z0-9_-]{22}$/)
    expect(created.secret).toMatch(/^svc_sk_[A-Za-z0-9_-]{43}$/)
    expect(created.secretHint).toBe(`…${created.secret.slice(-4)}`)

    const forVerification = await keys.getApiKeyForVerification(created.keyId)
    expect(forVerification).toMatchObject({ keyId: created.keyId, studioId, scopes: ['invoice:read', 'invoice:write'], status: 'active', expiresAt })
    // SPEC 5.2: the HMAC key is the secret's base64url body decoded, so a client and the server agree.
    const clientKey = Buffer.from(created.secret.slice('svc_sk_'.length), 'base64url')
    const message = 'GET\n/v1/invoices\n\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n1767225600000\nnonce'
    expect(createHmac('sha256', forVerification!.hmacKey).update(message).digest('base64')).toBe(
      createHmac('sha256', clientKey).update(message).digest('base64'),
    )
  })

  test('behavior: the secret is stored only encrypted', async () => {
    const created = await keys.createApiKey({ studioId: await newStudio(), name: 'ci', scopes: ['read'] })
    const secretBody = created.secret.slice('svc_sk_'.length)
    const [row] = await db.query<{ text: string }>('SELECT k::text AS text FROM api_keys k WHERE key_id = $1', [created.keyId])
    expect(row!.text).not.toContain(secretBody)
    expect(row!.text).not.toContain(Buffer.from(secretBody, 'base64url').toString('hex'))
  })

  test('behavior: a secret moved onto another key, or read with another server key, does not open', async () => {
    const studioId = await newStudio()
    const a = await keys.createApiKey({ studioId, name: 'a', scopes: ['read'] })
    const b = await keys.createApiKey({ studioId, name: 'b', scopes: ['read'] })
    await db.query(
      `UPDATE api_keys SET (secret_ciphertext, secret_iv) = (SELECT secret_ciphertext, secret_iv FROM api_keys WHERE key_id = $1) WHERE key_id = $2`,
      [a.keyId, b.keyId],
    )
    await expect(keys.getApiKeyForVerification(b.keyId)).rejects.toBeInstanceOf(DecryptionError)
    const otherServer = createApiKeyStore(db, createMetadataCipher(randomBytes(32).toString('base64')))
    await expect(otherServer.getApiKeyForVerification(a.keyId)).rejects.toMatchObject({ code: 'DECRYPTION_FAILED' })
  })

  test('behavior: the list shows the studio keys without secrets', async () => {
    const studioId = await newStudio()
    const first = await keys.createApiKey({ studioId, name: 'first', scopes: ['read'] })
    const second = await keys.createApiKey({ studioId, name: 'second', scopes: ['write'] })
    await keys.createApiKey({ studioId: await newStudio(), name: 'another studio', scopes: ['read'] })
    const list = await keys.listApiKeys(studioId)
    expect(list.map((key) => key.keyId)).toEqual([first.keyId, second.keyId])
    for (const key of list) {
      expect(Object.keys(key).sort()).toEqual(['createdAt', 'expiresAt', 'keyId', 'name', 'revokedAt', 'scopes', 'secretHint', 'status', 'studioId'])
    }
    expect(await keys.listApiKeys('not-a-uuid')).toEqual([])
  })

  test('behavior: revocation is permanent, only by the owning studio, and shows in status', async () => {
    const studioId = await newStudio()
    const { keyId } = await keys.createApiKey({ studioId, name: 'old', scopes: ['read'] })
    expect(await keys.revokeApiKey(await newStudio(), keyId)).toBe(false)
    expect(await keys.revokeApiKey(studioId, keyId)).toBe(true)
    expect(await keys.revokeApiKey(studioId, keyId)).toBe(false)
    expect(await keys.getApiKeyForVerification(keyId)).toMatchObject({ status: 'revoked' })
    expect((await keys.listApiKeys(studioId))[0]).toMatchObject({ status: 'revoked', revokedAt: expect.any(Date) })
  })

  test('behavior: unknown keys and studios', async () => {
    expect(await keys.getApiKeyForVerification(`svc_pk_${randomBytes(16).toString('base64url')}`)).toBeNull()
    await expect(keys.createApiKey({ studioId: randomUUID(), name: 'x', scopes: ['read'] })).rejects.toBeInstanceOf(StudioNotFoundError)
    await expect(keys.createApiKey({ studioId: 'nope', name: 'x', scopes: ['read'] })).rejects.toMatchObject({ code: 'STUDIO_NOT_FOUND' })
  })

  test('parameters: a name of 1 to 100 characters and at least one scope', async () => {
    const studioId = await newStudio()
    for (const bad of [{ name: '', scopes: ['read'] }, { name: 'x'.repeat(101), scopes: ['read'] }, { name: 'no scopes', scopes: [] }]) {
      await expect(keys.createApiKey({ studioId, ...bad })).rejects.toMatchObject({ sqlState: '23514' })
    }
  })
})
