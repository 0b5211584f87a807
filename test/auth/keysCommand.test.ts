import { spawn } from 'node:child_process'
import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bytesToHex, getAddress } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { ApiKeyNotFoundError, keysUsage, parseKeysCommand, runKeysCommand } from '../../cli/keysCommand'
import { UsageError } from '../../cli/usageError'
import { bundledCli } from '../support/cliBundle'
import { runCli, runCliWithTsx } from '../support/runCli'
import { lendDatabase } from '../../devnet/databaseSocket'
import { writeDevnetFile, type DevnetFile } from '../../devnet/devnetFile'
import { createApiKeyStore } from '../../server/store/apiKeyStore'
import { openDatabase, type Database } from '../../server/store/database'
import { createMetadataCipher } from '../../server/store/metadataCipher'
import { openMigratedDatabase } from '../../server/store/openStores'
import { createStudioStore, StudioNotFoundError } from '../../server/store/studioStore'
import { useMigratedDataDirs } from '../support/migratedDataDir'
import { useDatabases } from '../support/postgres'

const encryptionKey = randomBytes(32).toString('base64')
const databases = useDatabases()
const dataDirs = useMigratedDataDirs()
const day = 86_400_000

let db: Database
let stores: { studios: ReturnType<typeof createStudioStore>; apiKeys: ReturnType<typeof createApiKeyStore> }
const newStudio = async (database: Database = db) =>
  (await createStudioStore(database).createStudio({ name: 'Northwind', vaultAddress: getAddress(bytesToHex(randomBytes(20))), chainId: 31337 })).id

beforeAll(async () => {
  db = await databases.open('pglite')
  stores = { studios: createStudioStore(db), apiKeys: createApiKeyStore(db, createMetadataCipher(encryptionKey)) }
})

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
    // the server's database after its first start
    const dir = await dataDirs.create()
    try {
      const setup = await openMigratedDatabase({ DATA_DIR: dir })
      const studio = await newStudio(setup)
      await setup.close()

      const child = spawn(process.execPath, [await bundledCli('cli/keys.ts'), 'create', '--studio', studio, '--scopes', 'invoice:read'], {
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

  test('behavior: create-studio makes the studio that keys are then created for', async () => {
    const vault = getAddress(bytesToHex(randomBytes(20)))
    const studio = (await runKeysCommand(parseKeysCommand(['create-studio', '--vault', vault.toLowerCase(), '--chain-id', '31337', '--name', 'Northwind']), stores)) as Record<string, unknown>
    expect(studio).toEqual({ studio_id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Northwind', vault, chain_id: 31337, created_at: expect.any(String) })
    const created = await runKeysCommand(parseKeysCommand(['create', '--studio', studio.studio_id as string, '--scopes', 'invoice:read']), stores)
    expect(created).toMatchObject({ key_id: expect.stringMatching(/^svc_pk_/), scopes: ['invoice:read'] })
  })

  test('behavior: a studio that does not exist is refused with the command that creates one', async () => {
    const missing = randomUUID()
    await expect(runKeysCommand(parseKeysCommand(['list', '--studio', missing]), stores)).rejects.toThrow(
      `no studio ${missing} in this database: create one with npm run keys -- create-studio --vault <address> --chain-id <id>`,
    )
  })

  test.each([
    ['no studio', ['list'], "--studio: missing: the studio's id, a UUID"],
    ['a studio that is no UUID', ['list', '--studio', 'northwind'], "--studio: not the studio's id, a UUID"],
    ['no scopes', ['create', '--studio', randomUUID()], "--scopes: missing: the key's scopes, comma-separated: invoice:read"],
    ['an unknown scope', ['create', '--studio', randomUUID(), '--scopes', 'invoice:delete'], '--scopes: an unknown scope: the scopes are invoice:read'],
    ['366 days', ['create', '--studio', randomUUID(), '--scopes', 'read', '--expires-in-days', '366'], '--expires-in-days: not a whole number of days from 1 to 365'],
    ['an unknown flag', ['list', '--studio', randomUUID(), '--all'], '--all: unknown flag'],
    ['a flag without its value', ['list', '--studio'], '--studio: missing its value'],
    ['no key to revoke', ['revoke', '--studio', randomUUID()], '--key: missing: the full svc_pk_… key id'],
    ['a studio without its vault and chain', ['create-studio'], "--vault: missing: the merchant's vault, a 0x address; --chain-id: missing: the vault's chain id"],
    ['an unknown command', ['rotate'], '"rotate": unknown command; the commands are create-studio, create, list and revoke'],
  ])('parameters: %s names the flag and what it wants', (_, argv, message) => {
    expect(() => parseKeysCommand(argv)).toThrow(message)
  })

  test('behavior: --help prints the usage, where a studio is defined, and exits 0 without a database', async () => {
    const run = await runCliWithTsx('cli/keys.ts', ['--help'], {})
    expect(run).toMatchObject({ code: 0, stderr: '' })
    // the usage whole, every command's line
    expect(run.stdout).toBe(`${keysUsage}\n`)
    expect(run.stdout).toContain('npm run keys -- create-studio --vault <address> --chain-id <id>')
    // defined where the usage first names it
    expect(run.stdout).toMatch(/^usage:\n  npm run keys -- create-studio [^\n]*\n\s+\(a studio is a merchant's workspace: it owns the invoices of one vault/)
  })

  test('behavior: without a database setting or a devnet, the command line names what to set and exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-keys-'))
    try {
      const run = await runCli('cli/keys.ts', ['list', '--studio', randomUUID()], { SVC_DEVNET_DIR: dir })
      expect(run.code).toBe(1)
      expect(run.stderr).toContain('METADATA_ENCRYPTION_KEY is missing: 32 random bytes, base64')
      expect(run.stderr).not.toMatch(/Invalid input|^\s+at /m)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('npm run keys on the devnet', () => {
  const address = () => getAddress(bytesToHex(randomBytes(20)))
  const key = `0x${'ab'.repeat(32)}` as const
  /** devnet.json as npm start writes it, for a devnet whose database is `database`. */
  const writeDevnetFileFor = (dir: string, studio: string, database: DevnetFile['database']) =>
    writeDevnetFile(dir, {
      chainId: 31337,
      rpcUrl: 'http://127.0.0.1:8545',
      serverUrl: 'http://127.0.0.1:8787',
      storefrontUrl: 'http://127.0.0.1:8788',
      contracts: { entryPoint: address(), token: address(), registry: address(), vaultFactory: address(), paymaster: address() },
      merchant: { vault: address(), owner: address(), ownerPrivateKey: key, studioId: studio, apiKey: { keyId: 'svc_pk_devnet', secret: 'svc_sk_devnet' } },
      payer: { owner: address(), ownerPrivateKey: key, vault: address() },
      invoices: [],
      startedAt: new Date().toISOString(),
      database,
    })

  test('behavior: with no database settings it reaches the devnet\'s database, through the devnet while it runs and directly once it stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-keys-devnet-'))
    // the devnet's database as npm start leaves it (devnet/devnetDatabase.ts: new and migrated)
    const database = { socket: join(dir, 'database.sock'), dataDir: await dataDirs.create(), metadataEncryptionKey: encryptionKey }
    try {
      const devnetDb = await openMigratedDatabase({ DATA_DIR: database.dataDir })
      const studio = await newStudio(devnetDb)
      const lent = await lendDatabase(devnetDb, database.socket)
      writeDevnetFileFor(dir, studio, database)
      const keys = (args: string[]) => runCli('cli/keys.ts', args, { SVC_DEVNET_DIR: dir })

      const created = await keys(['create', '--studio', studio, '--scopes', 'invoice:read'])
      expect(created).toMatchObject({ code: 0 })
      expect(created.stderr).toContain(`database: the running devnet's database (${database.socket})`)
      const { key_id: keyId, secret } = JSON.parse(created.stdout) as { key_id: string; secret: string }
      // the devnet's server opens the key under its own METADATA_ENCRYPTION_KEY
      const stored = await createApiKeyStore(devnetDb, createMetadataCipher(encryptionKey)).getApiKeyForVerification(keyId)
      expect(Buffer.from(stored!.hmacKey).toString('base64url')).toBe(secret.slice('svc_sk_'.length))

      await lent.close()
      await devnetDb.close()
      const listed = await keys(['list', '--studio', studio])
      expect(listed).toMatchObject({ code: 0 })
      expect(listed.stderr).toContain(`database: the stopped devnet's database (${database.dataDir})`)
      expect((JSON.parse(listed.stdout) as { key_id: string }[]).map((listedKey) => listedKey.key_id)).toEqual([keyId])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  test('behavior: a stopped devnet that stored on PostgreSQL (DATABASE_URL) is reached there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-keys-devnet-pg-'))
    const databaseUrl = await databases.postgresUrl()
    try {
      const devnetDb = await openMigratedDatabase({ DATABASE_URL: databaseUrl, DATA_DIR: '' })
      const studio = await newStudio(devnetDb)
      await devnetDb.close()
      writeDevnetFileFor(dir, studio, { socket: join(dir, 'database.sock'), databaseUrl, metadataEncryptionKey: encryptionKey })

      const created = await runCli('cli/keys.ts', ['create', '--studio', studio, '--scopes', 'invoice:read'], { SVC_DEVNET_DIR: dir })
      expect(created).toMatchObject({ code: 0 })
      expect(created.stderr).toContain("database: the stopped devnet's database (its DATABASE_URL)")
      const { key_id: keyId } = JSON.parse(created.stdout) as { key_id: string }
      const stored = await openDatabase({ url: databaseUrl })
      try {
        expect(await stored.query('SELECT key_id FROM api_keys')).toEqual([{ key_id: keyId }])
      } finally {
        await stored.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  test('behavior: the socket carries what the stores store: dates, bytes and the constraint a refusal names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-keys-socket-'))
    const lent = await lendDatabase(db, join(dir, 'database.sock'))
    const { borrowDatabase } = await import('../../devnet/databaseSocket')
    const borrowed = (await borrowDatabase(join(dir, 'database.sock')))!
    try {
      const studios = createStudioStore(borrowed)
      const vault = address()
      const studio = await studios.createStudio({ name: 'Over the socket', vaultAddress: vault, chainId: 31337 })
      expect(studio.createdAt).toBeInstanceOf(Date)
      await expect(studios.createStudio({ vaultAddress: vault, chainId: 31337 })).rejects.toThrow('another studio already has this vault on this chain')
      const apiKeys = createApiKeyStore(borrowed, createMetadataCipher(encryptionKey))
      const { keyId, secret } = await apiKeys.createApiKey({ studioId: studio.id, name: 'socket', scopes: ['read'] })
      const verified = await apiKeys.getApiKeyForVerification(keyId)
      expect(Buffer.from(verified!.hmacKey).toString('base64url')).toBe(secret.slice('svc_sk_'.length))
      expect(await borrowDatabase(join(dir, 'nobody.sock'))).toBeNull()
    } finally {
      await borrowed.close()
      await lent.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
