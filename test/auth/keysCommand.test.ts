import { spawn } from 'node:child_process'
import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bytesToHex, getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ApiKeyNotFoundError, parseKeysCommand, runKeysCommand } from '../../cli/keysCommand'
import { UsageError } from '../../cli/usageError'
import { createApiKeyStore } from '../../server/store/apiKeyStore'
import { openDatabase, type Database } from '../../server/store/database'
import { createMetadataCipher } from '../../server/store/metadataCipher'
import { migrate } from '../../server/store/migrations'
import { openMigratedDatabase } from '../../server/store/openStores'
import { createStudioStore, StudioNotFoundError } from '../../server/store/studioStore'

const encryptionKey = randomBytes(32).toString('base64')
const day = 86_400_000

let db: Database
let stores: { studios: ReturnType<typeof createStudioStore>; apiKeys: ReturnType<typeof createApiKeyStore> }
const newStudio = async (database: Database = db) =>
  (await createStudioStore(database).createStudio({ name: 'Northwind', vaultAddress: getAddress(bytesToHex(randomBytes(20))), chainId: 31337 })).id

beforeAll(async () => {
  db = await openDatabase()
  await migrate(db)
  stores = { studios: createStudioStore(db), apiKeys: createApiKeyStore(db, createMetadataCipher(encryptionKey)) }
})
afterAll(() => db?.close())

describe('npm run keys', () => {
  test('default: create shows the secret once; list shows no secret; revoke stops the key', async () => {
    const studio = await newStudio()
    const now = Date.parse('2026-11-01T00:00:00Z')
    const created = await runKeysCommand(
      parseKeysCommand(['create', '--studio', studio, '--name', 'backend', '--scopes', 'invoice:read,invoice:write', '--expires-in-days', '30']),
      stores,
      () => now,
    )
    expect(created).toEqual({
      key_id: expect.stringMatching(/^svc_pk_/),
      name: 'backend',
      scopes: ['invoice:read', 'invoice:write'],
      secret_hint: expect.stringMatching(/^…/),
      status: 'active',
      created_at: expect.any(String),
      expiry: new Date(now + 30 * day).toISOString(),
      secret: expect.stringMatching(/^svc_sk_[A-Za-z0-9_-]{43}$/),
    })
    const { key_id: keyId } = created as { key_id: string }

    const listed = await runKeysCommand(parseKeysCommand(['list', '--studio', studio]), stores)
    const { secret: _, ...shown } = created as Record<string, unknown>
    expect(listed).toEqual([shown])
    expect(JSON.stringify(listed)).not.toContain('svc_sk_')

    expect(await runKeysCommand(parseKeysCommand(['revoke', '--studio', studio, '--key', keyId]), stores)).toEqual({ key_id: keyId, status: 'revoked' })
    expect(await stores.apiKeys.getApiKeyForVerification(keyId)).toMatchObject({ status: 'revoked' })
    await expect(runKeysCommand(parseKeysCommand(['revoke', '--studio', studio, '--key', keyId]), stores)).rejects.toBeInstanceOf(ApiKeyNotFoundError)
  })

  test("behavior: a key is a studio's own: unknown studios and other studios' keys are refused", async () => {
    const [mine, theirs] = [await newStudio(), await newStudio()]
    const created = (await runKeysCommand(parseKeysCommand(['create', '--studio', mine, '--scopes', 'read']), stores)) as { key_id: string; name: string }
    expect(created.name).toBe('api key')
    await expect(runKeysCommand(parseKeysCommand(['revoke', '--studio', theirs, '--key', created.key_id]), stores)).rejects.toBeInstanceOf(ApiKeyNotFoundError)
    await expect(runKeysCommand(parseKeysCommand(['list', '--studio', randomUUID()]), stores)).rejects.toBeInstanceOf(StudioNotFoundError)
    await expect(runKeysCommand(parseKeysCommand(['create', '--studio', randomUUID(), '--scopes', 'read']), stores)).rejects.toBeInstanceOf(StudioNotFoundError)
    expect(await runKeysCommand(parseKeysCommand(['list', '--studio', theirs]), stores)).toEqual([])
  })

  test.each([
    ['no command', []],
    ['an unknown command', ['rotate', '--studio', randomUUID()]],
    ['a studio that is no UUID', ['list', '--studio', 'northwind']],
    ['no scopes', ['create', '--studio', randomUUID()]],
    ['an unknown scope', ['create', '--studio', randomUUID(), '--scopes', 'invoice:read,invoice:delete']],
    ['an empty scope list', ['create', '--studio', randomUUID(), '--scopes', '']],
    ['a name past 100 characters', ['create', '--studio', randomUUID(), '--scopes', 'read', '--name', 'x'.repeat(101)]],
    ['zero days', ['create', '--studio', randomUUID(), '--scopes', 'read', '--expires-in-days', '0']],
    ['366 days', ['create', '--studio', randomUUID(), '--scopes', 'read', '--expires-in-days', '366']],
    ['an unknown option', ['list', '--studio', randomUUID(), '--all']],
    ['revoke without a key', ['revoke', '--studio', randomUUID()]],
  ])('parameters: %s is a usage error, before the database is opened', (_, argv) => {
    expect(() => parseKeysCommand(argv)).toThrow(UsageError)
  })

  test('behavior: the command line works on the server database from DATA_DIR and METADATA_ENCRYPTION_KEY', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-keys-'))
    try {
      const setup = await openMigratedDatabase({ DATA_DIR: dir })
      const studio = await newStudio(setup)
      await setup.close()

      const child = spawn(process.execPath, ['--import', 'tsx', 'cli/keys.ts', 'create', '--studio', studio, '--scopes', 'invoice:read'], {
        env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', METADATA_ENCRYPTION_KEY: encryptionKey },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk) => (stdout += chunk))
      child.stderr.on('data', (chunk) => (stderr += chunk))
      expect({ code: await new Promise((resolve) => child.once('exit', resolve)), stderr }).toMatchObject({ code: 0 })
      expect(stderr).toContain('shown this once')
      const created = JSON.parse(stdout) as { key_id: string; secret: string }

      const after = await openMigratedDatabase({ DATA_DIR: dir })
      const stored = await createApiKeyStore(after, createMetadataCipher(encryptionKey)).getApiKeyForVerification(created.key_id)
      await after.close()
      // the server recovers the very HMAC key the printed secret holds
      const message = 'GET\n/v1/invoices/1/share\n\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n1767225600000\nnonce-0001'
      const fromSecret = createHmac('sha256', Buffer.from(created.secret.slice('svc_sk_'.length), 'base64url')).update(message).digest('base64')
      expect(createHmac('sha256', stored!.hmacKey).update(message).digest('base64')).toBe(fromSecret)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
