import { describe, expect, test } from 'vitest'
import { ConfigError, encryptionKeysOf, readConfig, readStoreConfig } from '../../server/config'

const valid = {
  RPC_URL: 'http://127.0.0.1:8545',
  CHAIN_ID: '31337',
  TOKEN_ADDRESS: '0x435b47c72448745a552d9698d3c0c8b2b2ddf001',
  REGISTRY_ADDRESS: '0xE1Cc16cE2DF6bDde2946dE46bd15168b5959A1aD',
  VAULT_FACTORY_ADDRESS: '0xBa93D7fe8840cfC5C63E5b3F2FC08e8cC806C522',
  PAYMASTER_ADDRESS: '0x4F893aCfe49eb35bD2850873E384e624bba8374c',
  METADATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  BUNDLER_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
  PAYMASTER_SIGNER_PRIVATE_KEY: `0x${'22'.repeat(32)}`,
}

describe('encryption keys', () => {
  const key = (fill: number) => Buffer.alloc(32, fill).toString('base64')
  const { METADATA_ENCRYPTION_KEY: _legacy, ...withoutLegacy } = valid

  test('default: METADATA_ENCRYPTION_KEYS alone, the highest id sealing; the single key of before is id 0', () => {
    const config = readConfig({ ...withoutLegacy, METADATA_ENCRYPTION_KEYS: `2:${key(2)}, 1:${key(1)}` })
    expect(encryptionKeysOf(config)).toEqual({ keys: new Map([[2, key(2)], [1, key(1)]]), activeKeyId: 2 })
    expect(encryptionKeysOf(readConfig(valid))).toEqual({ keys: new Map([[0, valid.METADATA_ENCRYPTION_KEY]]), activeKeyId: 0 })
    const both = readConfig({ ...valid, METADATA_ENCRYPTION_KEYS: `1:${key(1)}`, METADATA_ENCRYPTION_ACTIVE_KEY: '0' })
    expect(encryptionKeysOf(both)).toEqual({ keys: new Map([[1, key(1)], [0, valid.METADATA_ENCRYPTION_KEY]]), activeKeyId: 0 })
  })

  test('behavior: an active key id that names no configured key is refused, with the ids there are', () => {
    expect(() => readConfig({ ...withoutLegacy, METADATA_ENCRYPTION_KEYS: `1:${key(1)}`, METADATA_ENCRYPTION_ACTIVE_KEY: '3' })).toThrow(
      'METADATA_ENCRYPTION_ACTIVE_KEY is not valid: key id 3 is not in METADATA_ENCRYPTION_KEYS (ids 1)',
    )
    expect(() => readStoreConfig({ METADATA_ENCRYPTION_KEYS: `1:${key(1)}`, METADATA_ENCRYPTION_ACTIVE_KEY: '0' })).toThrow(
      'METADATA_ENCRYPTION_ACTIVE_KEY is not valid: 0 names METADATA_ENCRYPTION_KEY, which is not set',
    )
  })

  test('behavior: a malformed key list names the entry that is wrong, never a key', () => {
    const short = Buffer.alloc(16, 9).toString('base64')
    const message = (() => {
      try {
        readConfig({ ...withoutLegacy, METADATA_ENCRYPTION_KEYS: `1:${key(1)},1:${key(3)},2:${short},70000:${key(4)},nonsense` })
      } catch (error) {
        return error instanceof ConfigError ? error.message : ''
      }
      return ''
    })()
    expect(message).toContain('METADATA_ENCRYPTION_KEYS is not valid: key ids and keys separated by commas')
    expect(message).toContain("(key id 1 is listed twice; key id 2's key is not 32 bytes in standard base64; key id 70000 is outside 1-65535 (0 is METADATA_ENCRYPTION_KEY); entry 5 is not id:key)")
    for (const secret of [key(1), key(3), short, key(4)]) expect(message).not.toContain(secret)
  })
})
