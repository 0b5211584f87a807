import { CodedError } from '../shared/codedError'
import './zodLocale'
import { entryPoint07Address } from 'viem/account-abstraction'
import * as z from 'zod/mini'
import { addressSchema, hexSchema } from '../shared/deployment'

const optionalUrl = z.optional(z.url())
const port = z.coerce.number().check(z.int(), z.minimum(0), z.maximum(65_535))
const positiveInt = z.coerce.number().check(z.int(), z.positive())
const key32 = z.string().check(
  z.refine((value) => Buffer.from(value, 'base64').length === 32, 'a base64-encoded 32-byte key'),
)

/** Everything the server needs to run against any EVM chain, read from the environment (docs/configuration.md). */
export const configSchema = z.object({
  PORT: z._default(port, 8787),
  HOST: z._default(z.string(), '127.0.0.1'),
  /** The origin payers reach the pay page at; share links are built on it. */
  PUBLIC_URL: z.optional(z.url()),
  RPC_URL: z.url(),
  CHAIN_ID: positiveInt,
  ENTRY_POINT_ADDRESS: z._default(addressSchema, entryPoint07Address),
  TOKEN_ADDRESS: addressSchema,
  REGISTRY_ADDRESS: addressSchema,
  VAULT_FACTORY_ADDRESS: addressSchema,
  PAYMASTER_ADDRESS: addressSchema,
  /** The block the registry was deployed in: where settlement-event searches start. */
  REGISTRY_FROM_BLOCK: z._default(z.coerce.bigint(), 0n),
  /** An ERC-4337 bundler (JSON-RPC); without it the server bundles itself with BUNDLER_PRIVATE_KEY. */
  BUNDLER_URL: optionalUrl,
  BUNDLER_PRIVATE_KEY: z.optional(hexSchema),
  /** An ERC-7677 paymaster service; without it the server signs for the VerifyingPaymaster itself. */
  PAYMASTER_URL: optionalUrl,
  PAYMASTER_SIGNER_PRIVATE_KEY: z.optional(hexSchema),
  DATABASE_URL: z.optional(z.string()),
  /** PGlite's data directory when DATABASE_URL is not set. */
  DATA_DIR: z._default(z.string(), '.data'),
  METADATA_ENCRYPTION_KEY: key32,
  /** How long POST /v1/pay/:id waits for a receipt before answering 202 pending. */
  SUBMIT_WAIT_MS: z._default(positiveInt, 15_000),
  /** How often each instance's reconciler looks for operations a bundler dropped (0: never; for tests
   * that watch a submission stay pending). */
  RECONCILE_INTERVAL_MS: z._default(z.coerce.number().check(z.int(), z.minimum(0)), 10_000),
  /** How long a reconciler's claim on an operation holds: an instance killed while holding one
   * leaves it to the others after this. Longer than a resend takes (the bundler's 15 s timeout). */
  RECONCILE_LEASE_MS: z._default(positiveInt, 60_000),
  /** Requests per minute per client IP on the public routes. */
  RATE_LIMIT_PER_MINUTE: z._default(positiveInt, 300),
  /** Redis (`redis://…`): rate limits counted there are shared by every instance; without it each
   * instance counts alone. */
  REDIS_URL: optionalUrl,
  /** CSP frame-ancestors sources: 'self', 'none', or scheme/host sources; nothing that could end the directive. */
  ALLOWED_FRAME_ANCESTORS: z._default(
    z.string().check(z.regex(/^\s*('self'|'none'|[a-z][a-z0-9+.-]*:(\/\/[\w.*:-]+)?)(\s+('self'|'none'|[a-z][a-z0-9+.-]*:(\/\/[\w.*:-]+)?))*\s*$/i, "CSP sources separated by spaces, such as 'self' https://shop.example")),
    "'self'",
  ),
  /** Origins the pay page may connect to besides its own, space-separated: a WalletConnect build
   * needs its relay and RPC (e.g. "wss://relay.walletconnect.org https://rpc.walletconnect.org"). */
  PAY_PAGE_CONNECT_SRC: z._default(z.string(), ''),
  TRUST_PROXY: z._default(z.stringbool(), false),
  /** How far an HMAC request's x-svc-ts may lie from the server's clock, either way (SPEC 8). */
  HMAC_SKEW_SECONDS: z._default(positiveInt, 300),
  /** How long SIGTERM or SIGINT waits for requests in flight before the process exits anyway. A
   * submission can wait SUBMIT_WAIT_MS for its receipt: a larger value lets it finish. */
  SHUTDOWN_TIMEOUT_MS: z._default(positiveInt, 10_000),
  LOG_LEVEL: z._default(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  /** The identity provider whose JWTs sign users in (SPEC 5.1 item 3): all three, or none. */
  JWT_JWKS_URL: optionalUrl,
  JWT_ISSUER: z.optional(z.string().check(z.minLength(1))),
  JWT_AUDIENCE: z.optional(z.string().check(z.minLength(1))),
  /** The JWT claim that holds the user's studio id. */
  JWT_STUDIO_CLAIM: z._default(z.string().check(z.minLength(1)), 'studio_id'),
})

export type Config = z.infer<typeof configSchema>

export class ConfigError extends CodedError {
  override name = 'ConfigError'
  readonly code = 'CONFIG_INVALID'
}

/** What each variable wants, in the words an operator reads when it is missing or malformed. */
const wants: { [name in keyof Config]: string } = {
  PORT: 'the port to listen on, 0-65535',
  HOST: 'the address to listen on, such as 127.0.0.1 or 0.0.0.0',
  PUBLIC_URL: 'the origin payers reach the pay page at, such as https://pay.example',
  RPC_URL: "the chain's JSON-RPC endpoint, an http(s) URL",
  CHAIN_ID: "the chain's id, a positive integer (31337 for anvil)",
  ENTRY_POINT_ADDRESS: 'the ERC-4337 EntryPoint v0.7, a 0x address',
  TOKEN_ADDRESS: 'the accepted token, a 0x address (`npm run deploy` prints it)',
  REGISTRY_ADDRESS: 'the InvoiceRegistry, a 0x address (`npm run deploy` prints it)',
  VAULT_FACTORY_ADDRESS: 'the PayerVaultFactory, a 0x address (`npm run deploy` prints it)',
  PAYMASTER_ADDRESS: 'the VerifyingPaymaster, a 0x address (`npm run deploy` prints it)',
  REGISTRY_FROM_BLOCK: "the registry's deployment block, a whole number (`npm run deploy` prints it)",
  BUNDLER_URL: "an ERC-4337 bundler's JSON-RPC URL",
  BUNDLER_PRIVATE_KEY: 'the key of an account with gas money that bundles itself, 0x and 64 hex digits',
  PAYMASTER_URL: "an ERC-7677 paymaster service's URL",
  PAYMASTER_SIGNER_PRIVATE_KEY: "the key of the VerifyingPaymaster's signer, 0x and 64 hex digits",
  DATABASE_URL: 'a PostgreSQL connection string, postgres://…',
  DATA_DIR: "PGlite's data directory",
  METADATA_ENCRYPTION_KEY: '32 random bytes, base64 (openssl rand -base64 32); keep it: the stored metadata and API keys are sealed under it',
  SUBMIT_WAIT_MS: 'milliseconds, a positive integer',
  RECONCILE_INTERVAL_MS: 'milliseconds, a whole number (0: never)',
  RECONCILE_LEASE_MS: 'milliseconds, a positive integer',
  RATE_LIMIT_PER_MINUTE: 'requests per minute per client, a positive integer',
  REDIS_URL: 'a Redis URL, redis://…',
  ALLOWED_FRAME_ANCESTORS: "CSP sources separated by spaces, such as 'self' https://shop.example",
  PAY_PAGE_CONNECT_SRC: 'origins separated by spaces',
  TRUST_PROXY: 'true or false',
  HMAC_SKEW_SECONDS: 'seconds, a positive integer',
  SHUTDOWN_TIMEOUT_MS: 'milliseconds, a positive integer',
  LOG_LEVEL: 'one of fatal, error, warn, info, debug, trace, silent',
  JWT_JWKS_URL: "the identity provider's JWKS URL",
  JWT_ISSUER: "the identity provider's issuer (iss)",
  JWT_AUDIENCE: 'the audience (aud) its tokens carry for this server',
  JWT_STUDIO_CLAIM: "the JWT claim that holds the user's studio id",
}

/** One line per variable: named, missing or not, and what it wants. The value is never echoed: it may be a key. */
function parseEnv<S extends z.ZodMiniType>(schema: S, env: Record<string, string | undefined>): z.infer<S> {
  const result = schema.safeParse(env)
  if (!result.success) {
    const names = [...new Set(result.error.issues.map((issue) => String(issue.path[0] ?? '')))]
    const lines = names.map((name) => {
      const wanted = wants[name as keyof Config] ?? 'see docs/configuration.md'
      return `  ${name} is ${env[name] === undefined || env[name] === '' ? 'missing' : 'not valid'}: ${wanted}`
    })
    throw new ConfigError(`the server's configuration, read from the environment, is missing or malformed:\n${lines.join('\n')}`)
  }
  return result.data
}

export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  const config = parseEnv(configSchema, env)
  const either = (a: keyof Config, b: keyof Config) => `set ${a} or ${b}: both are missing; ${a} is ${wants[a]}, ${b} is ${wants[b]}`
  if (!config.BUNDLER_URL && !config.BUNDLER_PRIVATE_KEY) throw new ConfigError(either('BUNDLER_URL', 'BUNDLER_PRIVATE_KEY'))
  if (!config.PAYMASTER_URL && !config.PAYMASTER_SIGNER_PRIVATE_KEY) throw new ConfigError(either('PAYMASTER_URL', 'PAYMASTER_SIGNER_PRIVATE_KEY'))
  const jwt = ['JWT_JWKS_URL', 'JWT_ISSUER', 'JWT_AUDIENCE'] as const
  const unset = jwt.filter((name) => !config[name])
  if (unset.length > 0 && unset.length < jwt.length) {
    throw new ConfigError(`set all of JWT_JWKS_URL, JWT_ISSUER and JWT_AUDIENCE, or none: ${unset.map((name) => `${name} is missing (${wants[name]})`).join(', ')}`)
  }
  return config
}

/** What the command-line tools need: the server's database and the key its secrets are sealed under. */
export const storeConfigSchema = z.pick(configSchema, { DATABASE_URL: true, DATA_DIR: true, METADATA_ENCRYPTION_KEY: true })

export type StoreConfig = z.infer<typeof storeConfigSchema>

export function readStoreConfig(env: Record<string, string | undefined> = process.env): StoreConfig {
  return parseEnv(storeConfigSchema, env)
}
