import { expect, test } from 'vitest'
import { idempotencyKeyRequiredOf, readConfig } from '../../server/config'
import { openApiDocument } from '../../server/openapi/openApiDocument'
import { apiRoutes } from '../../server/routes/apiRoutes'
import { readIdempotencyKey } from '../../server/merchant/idempotency/idempotencyKey'
import { dueAtOf } from '../../server/merchant/idempotency/dueAtOf'
import { issueFingerprint, type IssueFingerprintInput } from '../../server/merchant/idempotency/issueFingerprint'

test.each([
  ['a UUID', '8f14e45f-ceea-467a-9575-8d1a7e2b7c55'],
  ['one character', 'x'],
  ['128 characters', 'k'.repeat(128)],
  ['every visible ASCII punctuation', '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'],
])('behavior: %s is a key', (_, key) => {
  expect(readIdempotencyKey(key, { required: true })).toBe(key)
})

test.each([
  ['empty', ''],
  ['129 characters', 'k'.repeat(129)],
  ['a space inside', 'order 42'],
  ['a tab', 'order\t42'],
  ['a character outside ASCII', 'clé-42'],
  ['a control character', 'order\u007f42'],
])('behavior: %s is refused with IDEMPOTENCY_KEY_INVALID', (_, key) => {
  expect(() => readIdempotencyKey(key, { required: false })).toThrow(expect.objectContaining({ code: 'IDEMPOTENCY_KEY_INVALID' }))
})

test('behavior: no key is refused with IDEMPOTENCY_KEY_REQUIRED where the deployment requires one, and is no key where it does not', () => {
  expect(() => readIdempotencyKey(undefined, { required: true })).toThrow(expect.objectContaining({ code: 'IDEMPOTENCY_KEY_REQUIRED' }))
  expect(readIdempotencyKey(undefined, { required: false })).toBeUndefined()
})

test('behavior: a key is required by default everywhere but production, and as configured where set', () => {
  expect(idempotencyKeyRequiredOf({ IDEMPOTENCY_KEY_REQUIRED: undefined, NODE_ENV: undefined })).toBe(true)
  expect(idempotencyKeyRequiredOf({ IDEMPOTENCY_KEY_REQUIRED: undefined, NODE_ENV: 'test' })).toBe(true)
  expect(idempotencyKeyRequiredOf({ IDEMPOTENCY_KEY_REQUIRED: undefined, NODE_ENV: 'production' })).toBe(false)
  expect(idempotencyKeyRequiredOf({ IDEMPOTENCY_KEY_REQUIRED: true, NODE_ENV: 'production' })).toBe(true)
  expect(idempotencyKeyRequiredOf({ IDEMPOTENCY_KEY_REQUIRED: false, NODE_ENV: 'test' })).toBe(false)
})

test('behavior: IDEMPOTENCY_KEY_REQUIRED and IDEMPOTENCY_LEASE_MS read from the environment; a lease no longer than SUBMIT_WAIT_MS is refused', () => {
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
  expect(readConfig(valid)).toMatchObject({ IDEMPOTENCY_LEASE_MS: 60_000 })
  expect(idempotencyKeyRequiredOf(readConfig({ ...valid, NODE_ENV: 'production' }))).toBe(false)
  expect(idempotencyKeyRequiredOf(readConfig({ ...valid, NODE_ENV: 'production', IDEMPOTENCY_KEY_REQUIRED: 'true' }))).toBe(true)
  expect(() => readConfig({ ...valid, IDEMPOTENCY_KEY_REQUIRED: 'maybe' })).toThrow(/IDEMPOTENCY_KEY_REQUIRED is not valid: true or false/)
  expect(() => readConfig({ ...valid, SUBMIT_WAIT_MS: '15000', IDEMPOTENCY_LEASE_MS: '15000' })).toThrow(/IDEMPOTENCY_LEASE_MS is not valid: it must be larger than SUBMIT_WAIT_MS \(15000\)/)
})

const issue: IssueFingerprintInput = {
  studioId: '5d2c2f4e-7f0a-4f57-9b8e-3f7f6d1c2a10',
  chainId: 31337,
  customerId: '0b6f0a5e-2d55-4b8e-8a37-1c1d2e3f4a5b',
  amount: 248_000_000n,
  due: { dueDays: 30 },
  description: 'Harbour consulting, November',
  sendEmail: false,
}

test('behavior: the fingerprint covers each field of SPEC 7.4.2, whitespace in the description included', () => {
  const base = issueFingerprint(issue)
  const changed = [
    { ...issue, studioId: 'a5d2c2f4-7f0a-4f57-9b8e-3f7f6d1c2a10' },
    { ...issue, chainId: 8453 },
    { ...issue, customerId: '1b6f0a5e-2d55-4b8e-8a37-1c1d2e3f4a5b' },
    { ...issue, amount: 248_000_001n },
    { ...issue, due: { dueDays: 31 } },
    // the same day, asked for differently
    { ...issue, due: { dueAt: 1_767_225_600n } },
    { ...issue, description: 'Harbour consulting, November ' },
    { ...issue, description: 'Harbour  consulting, November' },
    { ...issue, description: undefined },
    { ...issue, description: '' },
    { ...issue, sendEmail: true },
  ].map(issueFingerprint)
  expect(new Set([base, ...changed]).size).toBe(changed.length + 1)
  // a UUID is the same UUID in either case
  expect(issueFingerprint({ ...issue, customerId: issue.customerId.toUpperCase() })).toBe(base)
})

test('behavior: dueDays counts whole days from the anchor; dueAt is taken as sent', () => {
  const anchor = new Date('2026-11-27T23:59:59.900Z')
  expect(dueAtOf({ dueDays: 30 }, anchor)).toBe(BigInt(Date.parse('2026-12-27T23:59:59Z') / 1000))
  expect(dueAtOf({ dueDays: 0 }, anchor)).toBe(BigInt(Date.parse('2026-11-27T23:59:59Z') / 1000))
  expect(dueAtOf({ dueAt: 1_767_225_600n }, anchor)).toBe(1_767_225_600n)
})

test('behavior: the OpenAPI document lists the Idempotency-Key header, with its pattern, on POST /v1/invoices/issue and on no route without idempotency', () => {
  const document = openApiDocument(apiRoutes, { version: 'test' }) as { paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema: { pattern?: string } }[] }>> }
  const header = document.paths['/v1/invoices/issue']!.post!.parameters!.find((parameter) => parameter.in === 'header')
  expect(header).toMatchObject({ name: 'Idempotency-Key', required: false, schema: { type: 'string', pattern: '^[!-~]{1,128}$' } })
  expect(new RegExp(header!.schema.pattern!).test('order 42')).toBe(false)
  expect(document.paths['/v1/customers']!.post!.parameters ?? []).not.toContainEqual(expect.objectContaining({ name: 'Idempotency-Key' }))
})
