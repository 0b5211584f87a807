import { afterEach, describe, expect, test, vi } from 'vitest'
import { startNoncePruning } from '../../server/auth/startNoncePruning'
import { ConfigError, readConfig } from '../../server/config'
import { jsonLogger } from '../../server/http/logger'

const address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const env = {
  RPC_URL: 'http://127.0.0.1:8545',
  CHAIN_ID: '31337',
  TOKEN_ADDRESS: address,
  REGISTRY_ADDRESS: address,
  VAULT_FACTORY_ADDRESS: address,
  PAYMASTER_ADDRESS: address,
  BUNDLER_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
  PAYMASTER_SIGNER_PRIVATE_KEY: `0x${'22'.repeat(32)}`,
  METADATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
}
const jwt = { JWT_JWKS_URL: 'https://idp.example.test/.well-known/jwks.json', JWT_ISSUER: 'https://idp.example.test/', JWT_AUDIENCE: 'svc-checkout' }

describe('authentication settings', () => {
  test('default: five minutes of skew, no identity provider, studio_id as the studio claim', () => {
    expect(readConfig(env)).toMatchObject({ HMAC_SKEW_SECONDS: 300, JWT_STUDIO_CLAIM: 'studio_id' })
    expect(readConfig(env).JWT_JWKS_URL).toBeUndefined()
  })

  test('parameters: the skew is configurable but never zero or negative', () => {
    expect(readConfig({ ...env, HMAC_SKEW_SECONDS: '60' }).HMAC_SKEW_SECONDS).toBe(60)
    for (const value of ['0', '-5', '1.5', 'five']) expect(() => readConfig({ ...env, HMAC_SKEW_SECONDS: value })).toThrow(ConfigError)
  })

  test('parameters: an identity provider needs its key set, issuer and audience together', () => {
    expect(readConfig({ ...env, ...jwt, JWT_STUDIO_CLAIM: 'org_id' })).toMatchObject({ ...jwt, JWT_STUDIO_CLAIM: 'org_id' })
    expect(() => readConfig({ ...env, JWT_JWKS_URL: jwt.JWT_JWKS_URL })).toThrow(/JWT_ISSUER/)
    expect(() => readConfig({ ...env, ...jwt, JWT_JWKS_URL: 'not a url' })).toThrow(ConfigError)
  })
})

describe('startNoncePruning', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  test('behavior: prunes on every period until stopped, and survives a failing prune', async () => {
    vi.useFakeTimers()
    const calls: Date[] = []
    const errors: string[] = []
    const pruneNonces = vi.fn(async (now: Date) => {
      calls.push(now)
      if (calls.length === 2) throw new Error('database gone')
      return 0
    })
    const stop = startNoncePruning({ pruneNonces }, { everyMs: 1_000, now: () => 1_767_225_600_000, logger: jsonLogger((line) => errors.push(JSON.parse(line).msg)) })
    await vi.advanceTimersByTimeAsync(3_000)
    expect(calls).toEqual([1, 2, 3].map(() => new Date(1_767_225_600_000)))
    expect(errors).toEqual(['nonce pruning failed'])
    await stop()
    await vi.advanceTimersByTimeAsync(5_000)
    expect(pruneNonces).toHaveBeenCalledTimes(3)
  })
})
