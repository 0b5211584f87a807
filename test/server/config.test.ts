import { expect, test } from 'vitest'
import { ConfigError, readConfig } from '../../server/config'

const valid = {
  RPC_URL: 'http://127.0.0.1:8545',
  CHAIN_ID: '31337',
  TOKEN_ADDRESS: '0xc78bf691a0e62dfe255dc429da4cad641e800927',
  REGISTRY_ADDRESS: '0xE1Cc16cE2DF6bDde2946dE46bd15168b5959A1aD',
  VAULT_FACTORY_ADDRESS: '0xBa93D7fe8840cfC5C63E5b3F2FC08e8cC806C522',
  PAYMASTER_ADDRESS: '0x4F893aCfe49eb35bD2850873E384e624bba8374c',
  METADATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  BUNDLER_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
  PAYMASTER_SIGNER_PRIVATE_KEY: `0x${'22'.repeat(32)}`,
}

test('default: a complete environment reads with the documented defaults', () => {
  expect(readConfig(valid)).toMatchObject({ PORT: 8787, HOST: '127.0.0.1', ALLOWED_FRAME_ANCESTORS: "'self'", RATE_LIMIT_PER_MINUTE: 300, CHAIN_ID: 31337 })
})

test('behavior: a missing setting is named, with what was expected', () => {
  expect(() => readConfig({ ...valid, RPC_URL: undefined })).toThrow(/RPC_URL: Invalid input: expected string/)
  expect(() => readConfig({ ...valid, BUNDLER_PRIVATE_KEY: undefined })).toThrow(/set BUNDLER_URL or BUNDLER_PRIVATE_KEY/)
})

test('behavior: frame ancestors take CSP sources and nothing that could end the directive', () => {
  expect(readConfig({ ...valid, ALLOWED_FRAME_ANCESTORS: "'self' https://shop.example http://127.0.0.1:8788" }).ALLOWED_FRAME_ANCESTORS).toContain('shop.example')
  expect(() => readConfig({ ...valid, ALLOWED_FRAME_ANCESTORS: "'self'; script-src *" })).toThrow(ConfigError)
  expect(() => readConfig({ ...valid, ALLOWED_FRAME_ANCESTORS: 'https://shop.example/checkout' })).toThrow(ConfigError)
})
