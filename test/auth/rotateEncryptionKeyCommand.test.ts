import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { bytesToHex, getAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { keysUsage, parseKeysCommand } from '../../cli/keysCommand'
import { UsageError } from '../../cli/usageError'
import { hashMetadata } from '../../shared/metadataHash'
import { createAccessTokenStore } from '../../server/store/accessTokenStore'
import { createApiKeyStore } from '../../server/store/apiKeyStore'
import { createInvoiceMetadataStore } from '../../server/store/invoiceMetadataStore'
import { createSealingCiphers } from '../../server/store/metadataCipher'
import { openMigratedDatabase } from '../../server/store/openStores'
import { createStudioStore } from '../../server/store/studioStore'
import { createWebhookEndpointStore } from '../../server/store/webhookEndpointStore'
import { useMigratedDataDirs } from '../support/migratedDataDir'
import { runCli } from '../support/runCli'
import { randomInvoiceKey, sampleMetadata } from '../store/fixtures'

const dataDirs = useMigratedDataDirs()

describe('npm run keys -- rotate-encryption-key', () => {
  test('parameters: --batch-size is a whole number of rows from 1 to 10000, 500 unless said', () => {
    expect(parseKeysCommand(['rotate-encryption-key'])).toEqual({ command: 'rotate-encryption-key', batchSize: 500 })
    expect(parseKeysCommand(['rotate-encryption-key', '--batch-size', '50'])).toEqual({ command: 'rotate-encryption-key', batchSize: 50 })
    for (const bad of ['0', '10001', 'all']) {
      expect(() => parseKeysCommand(['rotate-encryption-key', '--batch-size', bad])).toThrow(UsageError)
      expect(() => parseKeysCommand(['rotate-encryption-key', '--batch-size', bad])).toThrow('--batch-size: not a whole number of rows from 1 to 10000')
    }
  })

  test('behavior: --help names the command', () => {
    // what --help prints (test/auth/keysCommand.test.ts runs it)
    expect(keysUsage).toContain('npm run keys -- rotate-encryption-key [--batch-size <1-10000>]')
  })

  test('behavior: re-seals the single key\'s records under METADATA_ENCRYPTION_KEYS\'s active key, which then reads them alone', async () => {
    // the server's database after its first start
    const dir = await dataDirs.create()
    const legacyKey = randomBytes(32).toString('base64')
    const key1 = randomBytes(32).toString('base64')
    const key2 = randomBytes(32).toString('base64')
    try {
      // what a server with the single key wrote
      const setup = await openMigratedDatabase({ DATA_DIR: dir })
      const before = createSealingCiphers(legacyKey)
      const studio = await createStudioStore(setup).createStudio({ name: 'Northwind', vaultAddress: getAddress(bytesToHex(randomBytes(20))), chainId: 31337 })
      const invoice = randomInvoiceKey()
      const metadata = sampleMetadata({ payer: { name: 'شركة الأمل' } })
      await createInvoiceMetadataStore(setup, before.metadata).putMetadata(invoice, metadata, hashMetadata(metadata))
      const { keyId, secret } = await createApiKeyStore(setup, before['api-key-secret']).createApiKey({ studioId: studio.id, name: 'ci', scopes: ['invoice:read'] })
      const { token } = await createAccessTokenStore(setup, before['share-token']).createToken({ invoice, isDefault: true })
      const { endpoint, secret: webhookSecret } = await createWebhookEndpointStore(setup, before['webhook-secret']).createEndpoint({ studioId: studio.id, url: 'https://hooks.example/', events: ['invoice.paid'] })
      await setup.close()

      const rotate = (env: Record<string, string>) => runCli('cli/keys.ts', ['rotate-encryption-key', '--batch-size', '2'], { DATA_DIR: dir, ...env })
      const run = await rotate({ METADATA_ENCRYPTION_KEY: legacyKey, METADATA_ENCRYPTION_KEYS: `1:${key1}` })
      expect(run).toMatchObject({ code: 0 })
      expect(JSON.parse(run.stdout)).toEqual({
        active_key_id: 1,
        tables: {
          invoice_metadata: { resealed: 1, changed: 0 },
          api_keys: { resealed: 1, changed: 0 },
          invoice_access_tokens: { resealed: 1, changed: 0 },
          webhook_secrets: { resealed: 1, changed: 0 },
        },
        sealed_under: { 1: 4 },
      })
      expect(run.stderr).toContain('re-sealing under key id 1, 2 rows at a time')
      expect(run.stderr).toContain('invoice_metadata: 1 rows read, 1 re-sealed, 0 changed meanwhile (left as they are)')
      expect(run.stderr).toContain('every record is sealed under key id 1: the other keys can be removed from every server')
      for (const secretText of [legacyKey, key1]) expect(run.stdout + run.stderr).not.toContain(secretText)

      // key id 1 alone opens everything now
      const after = await openMigratedDatabase({ DATA_DIR: dir })
      const ciphers = createSealingCiphers({ keys: new Map([[1, key1]]), activeKeyId: 1 })
      expect(await createInvoiceMetadataStore(after, ciphers.metadata).getMetadata(invoice)).toEqual(metadata)
      const verified = await createApiKeyStore(after, ciphers['api-key-secret']).getApiKeyForVerification(keyId)
      expect(Buffer.from(verified!.hmacKey).toString('base64url')).toBe(secret.slice('svc_sk_'.length))
      expect((await createAccessTokenStore(after, ciphers['share-token']).getDefaultToken(invoice))?.token).toBe(token)
      expect((await createWebhookEndpointStore(after, ciphers['webhook-secret']).getTarget(endpoint.id))?.secrets).toEqual([webhookSecret])
      await after.close()

      // a configuration that dropped key id 1 too early is told to add it back, and nothing is rewritten
      const early = await rotate({ METADATA_ENCRYPTION_KEYS: `2:${key2}` })
      expect(early.code).toBe(1)
      expect(early.stderr).toContain('rows sealed with key id 1, which METADATA_ENCRYPTION_KEYS lacks: add it back until rotation finishes')
      expect(early.stderr).not.toMatch(/^\s+at /m)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
