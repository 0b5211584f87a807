import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import type { Database } from '../../server/store/database'
import { createNonceStore, type NonceStore } from '../../server/store/nonceStore'
import { backends, useDatabases } from '../support/postgres'

const databases = useDatabases()
const inFiveMinutes = () => new Date(Date.now() + 300_000)
const keyId = () => `svc_pk_${randomUUID()}`

describe.each(backends)('%s', (backend) => {
  let db: Database
  let nonces: NonceStore
  let otherInstance: NonceStore
  beforeAll(async () => {
    const [first, second] = await databases.openTwo(backend)
    db = first
    nonces = createNonceStore(first)
    otherInstance = createNonceStore(second)
  })

  test('default: a nonce is accepted once per key', async () => {
    const key = keyId()
    const nonce = randomUUID()
    expect(await nonces.claimNonce(key, nonce, inFiveMinutes())).toBe(true)
    expect(await nonces.claimNonce(key, nonce, inFiveMinutes())).toBe(false)
    expect(await otherInstance.claimNonce(key, nonce, inFiveMinutes())).toBe(false)
  })

  test('behavior: the same nonce under another key is another nonce', async () => {
    const nonce = randomUUID()
    expect(await nonces.claimNonce(keyId(), nonce, inFiveMinutes())).toBe(true)
    expect(await nonces.claimNonce(keyId(), nonce, inFiveMinutes())).toBe(true)
  })

  test('behavior: of concurrent claims from two instances, exactly one succeeds', async () => {
    const key = keyId()
    const nonce = randomUUID()
    const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? otherInstance : nonces).claimNonce(key, nonce, inFiveMinutes())))
    expect(claims.filter(Boolean)).toHaveLength(1)
  })

  test('behavior: pruning deletes only expired nonces', async () => {
    const key = keyId()
    const now = new Date()
    await nonces.claimNonce(key, 'old-1', new Date(now.getTime() - 2000))
    await nonces.claimNonce(key, 'old-2', new Date(now.getTime() - 1000))
    await nonces.claimNonce(key, 'fresh', new Date(now.getTime() + 60_000))
    expect(await nonces.pruneNonces(now)).toBeGreaterThanOrEqual(2)
    const left = await db.query<{ nonce: string }>('SELECT nonce FROM hmac_nonces WHERE key_id = $1', [key])
    expect(left).toEqual([{ nonce: 'fresh' }])
    expect(await nonces.pruneNonces(now)).toBe(0)
  })
})
