import { expect, test } from 'vitest'
import { devnetEnv } from '../../devnet/devnetConfig'
import type { ReachableDevnet } from '../../devnet/startDevnet'
import { assertOperationsPrivate, ConfigError, connectionLimitsOf, jwtAlgorithmsOf, readConfig, readStoreConfig, trustedProxiesOf } from '../../server/config'
import devnetDeployment from '../../shared/devnet.deployment.json'

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

test('default: a complete environment reads with the documented defaults', () => {
  expect(readConfig(valid)).toMatchObject({ PORT: 8787, HOST: '127.0.0.1', ALLOWED_FRAME_ANCESTORS: "'self'", RATE_LIMIT_PER_MINUTE: 300, CHAIN_ID: 31337 })
})

test('behavior: a missing setting is named, with what was expected', () => {
  expect(() => readConfig({ ...valid, RPC_URL: undefined })).toThrow(/RPC_URL is missing: the chain's JSON-RPC endpoint, an http\(s\) URL/)
  expect(() => readConfig({ ...valid, BUNDLER_PRIVATE_KEY: undefined })).toThrow(/set BUNDLER_URL or BUNDLER_PRIVATE_KEY/)
})

test('behavior: frame ancestors take CSP sources and nothing that could end the directive', () => {
  expect(readConfig({ ...valid, ALLOWED_FRAME_ANCESTORS: "'self' https://shop.example http://127.0.0.1:8788" }).ALLOWED_FRAME_ANCESTORS).toContain('shop.example')
  expect(() => readConfig({ ...valid, ALLOWED_FRAME_ANCESTORS: "'self'; script-src *" })).toThrow(ConfigError)
  expect(() => readConfig({ ...valid, ALLOWED_FRAME_ANCESTORS: 'https://shop.example/checkout' })).toThrow(ConfigError)
})

test("behavior: the pay page's and the dashboard's extra connect sources are origins only, nothing that could widen them to anywhere or end the directive", () => {
  const sources = 'wss://relay.walletconnect.org https://*.walletconnect.com http://127.0.0.1:8545'
  expect(readConfig({ ...valid, PAY_PAGE_CONNECT_SRC: sources }).PAY_PAGE_CONNECT_SRC).toBe(sources)
  expect(readConfig(valid).PAY_PAGE_CONNECT_SRC).toBe('')
  for (const widening of ['*', 'https:', 'wss://relay.walletconnect.org *', "wss://relay.walletconnect.org; script-src 'unsafe-inline'", 'https://*', "'unsafe-eval'", 'data:']) {
    expect(() => readConfig({ ...valid, PAY_PAGE_CONNECT_SRC: widening }), widening).toThrow(/PAY_PAGE_CONNECT_SRC/)
  }
})

test('behavior: every missing variable is named on its own line with what it wants, never in the validator\'s words', () => {
  const message = (() => {
    try {
      readConfig({})
    } catch (error) {
      return error instanceof ConfigError ? error.message : ''
    }
    return ''
  })()
  for (const name of ['RPC_URL', 'CHAIN_ID', 'TOKEN_ADDRESS', 'REGISTRY_ADDRESS', 'VAULT_FACTORY_ADDRESS', 'PAYMASTER_ADDRESS', 'METADATA_ENCRYPTION_KEY']) {
    expect(message).toMatch(new RegExp(`^  ${name} is missing: \\S`, 'm'))
  }
  expect(message).toContain('METADATA_ENCRYPTION_KEY is missing: 32 random bytes, base64')
  expect(message).not.toMatch(/Invalid input|expected string|received undefined/)
})

test('behavior: a malformed variable is named with what it wants, its value never echoed', () => {
  const key = 'c2hvcnQta2V5LXNlY3JldA=='
  expect(() => readConfig({ ...valid, METADATA_ENCRYPTION_KEY: key })).toThrow(/METADATA_ENCRYPTION_KEY is not valid: 32 random bytes, base64/)
  expect(() => readConfig({ ...valid, METADATA_ENCRYPTION_KEY: key })).not.toThrow(new RegExp(key))
  expect(() => readConfig({ ...valid, PORT: '99999' })).toThrow(/PORT is not valid: the port to listen on, 0-65535/)
})

test('behavior: the tools\' database settings say the same: npm run keys without a key is told what to set', () => {
  expect(() => readStoreConfig({})).toThrow(/METADATA_ENCRYPTION_KEY is missing: 32 random bytes, base64/)
})

test('behavior: half an identity provider names the variables still missing', () => {
  expect(() => readConfig({ ...valid, JWT_ISSUER: 'https://id.example' })).toThrow(/JWT_JWKS_URL is missing .*JWT_AUDIENCE is missing/)
})

test('parameters: which X-Forwarded-For entry is the client: TRUST_PROXY=true is one hop; hops or networks, not both', () => {
  expect(trustedProxiesOf(readConfig(valid))).toEqual({ hops: 0 })
  expect(trustedProxiesOf(readConfig({ ...valid, TRUST_PROXY: 'true' }))).toEqual({ hops: 1 })
  expect(trustedProxiesOf(readConfig({ ...valid, TRUST_PROXY: 'true', TRUSTED_PROXY_HOPS: '2' }))).toEqual({ hops: 2 })
  expect(trustedProxiesOf(readConfig({ ...valid, TRUSTED_PROXY_CIDRS: '10.0.0.0/8, fd00::/8 192.0.2.1' }))).toEqual({ cidrs: ['10.0.0.0/8', 'fd00::/8', '192.0.2.1'] })
  expect(() => readConfig({ ...valid, TRUSTED_PROXY_CIDRS: '10.0.0.0/33' })).toThrow(/TRUSTED_PROXY_CIDRS is not valid: your proxies' addresses or networks/)
  expect(() => readConfig({ ...valid, TRUSTED_PROXY_HOPS: '-1' })).toThrow(/TRUSTED_PROXY_HOPS is not valid/)
  expect(() => readConfig({ ...valid, TRUSTED_PROXY_HOPS: '1', TRUSTED_PROXY_CIDRS: '10.0.0.0/8' })).toThrow(/TRUSTED_PROXY_HOPS is not valid: set it or TRUSTED_PROXY_CIDRS, not both/)
})

test('parameters: JWTs take asymmetric algorithms only, with 30 s of clock tolerance by default', () => {
  const config = readConfig(valid)
  expect(jwtAlgorithmsOf(config)).toEqual(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'])
  expect(config.JWT_CLOCK_TOLERANCE_SECONDS).toBe(30)
  expect(jwtAlgorithmsOf(readConfig({ ...valid, JWT_ALGORITHMS: 'RS256, ES256' }))).toEqual(['RS256', 'ES256'])
  for (const value of ['HS256', 'RS256,none', 'none']) expect(() => readConfig({ ...valid, JWT_ALGORITHMS: value })).toThrow(/JWT_ALGORITHMS is not valid: .*never HS\* or none/)
})

test('parameters: the operations listener, the tighter pay limits and the upstream queue', () => {
  expect(readConfig(valid)).toMatchObject({ OPS_HOST: '127.0.0.1', UPSTREAM_QUEUE_LIMIT: 64 })
  expect(readConfig(valid).OPS_PORT).toBeUndefined()
  expect(readConfig({ ...valid, OPS_PORT: '9464', PERMIT_RATE_LIMIT_PER_MINUTE: '40', PREPARE_RATE_LIMIT_PER_MINUTE: '15' })).toMatchObject({ OPS_PORT: 9464, PERMIT_RATE_LIMIT_PER_MINUTE: 40, PREPARE_RATE_LIMIT_PER_MINUTE: 15 })
  expect(() => readConfig({ ...valid, OPS_PORT: '70000' })).toThrow(/OPS_PORT is not valid/)
  expect(() => readConfig({ ...valid, PORT: '8787', OPS_PORT: '8787' })).toThrow(/OPS_PORT is not valid: it is PORT \(8787\)/)
  expect(() => readConfig({ ...valid, PREPARE_RATE_LIMIT_PER_MINUTE: '0' })).toThrow(/PREPARE_RATE_LIMIT_PER_MINUTE is not valid/)
})

test('behavior: webhooks default to three confirmations, no private URLs, a 10 s timeout and a minute\'s lease; a lease no longer than the timeout is refused', () => {
  expect(readConfig(valid)).toMatchObject({ WEBHOOK_CONFIRMATIONS: 3, WEBHOOK_ALLOW_PRIVATE_URLS: false, WEBHOOK_INTERVAL_MS: 2_000, WEBHOOK_TIMEOUT_MS: 10_000, WEBHOOK_LEASE_MS: 60_000 })
  expect(readConfig({ ...valid, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_CONFIRMATIONS: '12' })).toMatchObject({ WEBHOOK_ALLOW_PRIVATE_URLS: true, WEBHOOK_CONFIRMATIONS: 12 })
  expect(() => readConfig({ ...valid, WEBHOOK_LEASE_MS: '10000' })).toThrow('WEBHOOK_LEASE_MS is not valid: it must be larger than WEBHOOK_TIMEOUT_MS (10000)')
  expect(() => readConfig({ ...valid, WEBHOOK_CONFIRMATIONS: '0' })).toThrow(/WEBHOOK_CONFIRMATIONS is not valid: blocks, 1 to 10000/)
})

test('behavior: the devnet (npm start) sends webhooks from the head block: one confirmation', () => {
  const devnet = { anvil: { rpcUrl: 'http://127.0.0.1:8545' }, deployment: devnetDeployment } as unknown as ReachableDevnet
  expect(readConfig(devnetEnv(devnet, { port: 0 })).WEBHOOK_CONFIRMATIONS).toBe(1)
})

test("parameters: the paymaster service's v0.6 EntryPoint and paymaster come as a pair; its rate limit is a positive integer", () => {
  const entryPointV06 = '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789'
  const paymasterV06 = '0x82569dbd5Dc8C9Cf6Ac3f90Da2Cf60a3A6735bA4'
  expect(readConfig({ ...valid, ENTRY_POINT_V06_ADDRESS: entryPointV06, PAYMASTER_V06_ADDRESS: paymasterV06, PAYMASTER_RATE_LIMIT_PER_MINUTE: '12' })).toMatchObject({
    ENTRY_POINT_V06_ADDRESS: entryPointV06,
    PAYMASTER_V06_ADDRESS: paymasterV06,
    PAYMASTER_RATE_LIMIT_PER_MINUTE: 12,
  })
  expect(() => readConfig({ ...valid, ENTRY_POINT_V06_ADDRESS: entryPointV06 })).toThrow(/set both of ENTRY_POINT_V06_ADDRESS and PAYMASTER_V06_ADDRESS, or neither .*PAYMASTER_V06_ADDRESS is missing/)
  expect(() => readConfig({ ...valid, PAYMASTER_RATE_LIMIT_PER_MINUTE: '0' })).toThrow(/PAYMASTER_RATE_LIMIT_PER_MINUTE is not valid/)
})

test('behavior: npm run serve keeps /metrics and /readyz off a listener other machines reach: OPS_PORT, or HOST on loopback', () => {
  for (const host of ['127.0.0.1', '127.0.0.2', '::1', 'localhost']) expect(() => assertOperationsPrivate(readConfig({ ...valid, HOST: host }))).not.toThrow()
  for (const host of ['0.0.0.0', '::', '10.0.0.5', 'pay.example']) {
    expect(() => assertOperationsPrivate(readConfig({ ...valid, HOST: host }))).toThrow(ConfigError)
    expect(() => assertOperationsPrivate(readConfig({ ...valid, HOST: host, OPS_PORT: '9090' }))).not.toThrow()
  }
  expect(() => assertOperationsPrivate(readConfig({ ...valid, HOST: '0.0.0.0' }))).toThrow(
    'OPS_PORT is missing: HOST 0.0.0.0 is reachable from other machines, and without OPS_PORT /metrics and /readyz are answered there to anyone; set OPS_PORT (served on OPS_HOST, 127.0.0.1 by default), or HOST=127.0.0.1 behind a proxy on this machine',
  )
})

test('default: the listeners\' timeouts and connection cap are bounded unless configured otherwise', () => {
  expect(connectionLimitsOf(readConfig(valid))).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxConnections: 4_096 })
  const configured = { HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '20000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000', HTTP_MAX_CONNECTIONS: '1000' }
  expect(connectionLimitsOf(readConfig({ ...valid, ...configured }))).toEqual({ headersTimeoutMs: 5_000, requestTimeoutMs: 20_000, keepAliveTimeoutMs: 65_000, maxConnections: 1_000 })
})

test('behavior: a timeout or cap out of its range is named with what it wants, and the headers may not outlast the request', () => {
  expect(() => readConfig({ ...valid, HTTP_HEADERS_TIMEOUT_MS: '0' })).toThrow(/HTTP_HEADERS_TIMEOUT_MS is not valid: milliseconds a client has to send a request's headers, 1000 to 600000/)
  expect(() => readConfig({ ...valid, HTTP_MAX_CONNECTIONS: 'many' })).toThrow(/HTTP_MAX_CONNECTIONS is not valid: open connections per listener/)
  expect(() => readConfig({ ...valid, HTTP_KEEP_ALIVE_TIMEOUT_MS: '1.5' })).toThrow(/HTTP_KEEP_ALIVE_TIMEOUT_MS is not valid/)
  expect(() => readConfig({ ...valid, HTTP_HEADERS_TIMEOUT_MS: '40000' })).toThrow(
    'HTTP_REQUEST_TIMEOUT_MS is not valid: it must be at least HTTP_HEADERS_TIMEOUT_MS (40000)',
  )
})

test("behavior: a malformed SERVER_SIGNER_PRIVATE_KEY is named with what it must be, never quoted; unset, the server has no signer and a quota of 500 sponsored operations a day", () => {
  const key = `0x${'ab'.repeat(31)}`
  expect(() => readConfig({ ...valid, SERVER_SIGNER_PRIVATE_KEY: key })).toThrow(/SERVER_SIGNER_PRIVATE_KEY is not valid: the server signer's session key, 0x and 64 hex digits/)
  expect(() => readConfig({ ...valid, SERVER_SIGNER_PRIVATE_KEY: key })).not.toThrow(new RegExp(key))
  const unset = readConfig(valid)
  expect(unset.SERVER_SIGNER_PRIVATE_KEY).toBeUndefined()
  expect(unset.MERCHANT_DAILY_OPERATION_QUOTA).toBe(500)
  expect(unset.MERCHANT_DAILY_SESSION_STARTS).toBe(10)
  expect(readConfig({ ...valid, SERVER_SIGNER_PRIVATE_KEY: `0x${'ab'.repeat(32)}`, MERCHANT_DAILY_OPERATION_QUOTA: '0' })).toMatchObject({ MERCHANT_DAILY_OPERATION_QUOTA: 0 })
})
