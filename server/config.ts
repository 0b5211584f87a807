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

/** Everything the server needs to run against any EVM chain, read from the environment (README). */
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

function parseEnv<S extends z.ZodMiniType>(schema: S, env: Record<string, string | undefined>): z.infer<S> {
  const result = schema.safeParse(env)
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`)
  }
  return result.data
}

export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  const config = parseEnv(configSchema, env)
  if (!config.BUNDLER_URL && !config.BUNDLER_PRIVATE_KEY) throw new ConfigError('set BUNDLER_URL or BUNDLER_PRIVATE_KEY')
  if (!config.PAYMASTER_URL && !config.PAYMASTER_SIGNER_PRIVATE_KEY) {
    throw new ConfigError('set PAYMASTER_URL or PAYMASTER_SIGNER_PRIVATE_KEY')
  }
  const jwt = [config.JWT_JWKS_URL, config.JWT_ISSUER, config.JWT_AUDIENCE]
  if (jwt.some(Boolean) && !jwt.every(Boolean)) throw new ConfigError('set all of JWT_JWKS_URL, JWT_ISSUER and JWT_AUDIENCE, or none')
  return config
}

/** What the command-line tools need: the server's database and the key its secrets are sealed under. */
export const storeConfigSchema = z.pick(configSchema, { DATABASE_URL: true, DATA_DIR: true, METADATA_ENCRYPTION_KEY: true })

export type StoreConfig = z.infer<typeof storeConfigSchema>

export function readStoreConfig(env: Record<string, string | undefined> = process.env): StoreConfig {
  return parseEnv(storeConfigSchema, env)
}
