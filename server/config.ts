import { CodedError } from '../shared/codedError'
import './zodLocale'
import ipaddr from 'ipaddr.js'
import { entryPoint07Address } from 'viem/account-abstraction'
import * as z from 'zod/mini'
import { addressSchema, hexSchema } from '../shared/deployment'
import { isCidr, type TrustedProxies } from './http/clientAddress'
import { defaultConnectionLimits, type ConnectionLimits } from './http/connectionLimits'
import { checkEncryptionKeyList, parseEncryptionKeyList } from './store/encryptionKeyList'
import type { EncryptionKeys } from './store/metadataCipher'

const optionalUrl = z.optional(z.url())
const port = z.coerce.number().check(z.int(), z.minimum(0), z.maximum(65_535))
const positiveInt = z.coerce.number().check(z.int(), z.positive())
const wholeNumber = z.coerce.number().check(z.int(), z.minimum(0))
/** Signatures a JWT may carry: public-key ones only. An HMAC algorithm would let anyone holding the
 * identity provider's public key (everyone) sign a token; `none` signs nothing. */
export const asymmetricJwtAlgorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'] as const
const listOf = (check: (item: string) => boolean, what: string) =>
  z.string().check(z.refine((value) => value.split(/[\s,]+/).filter(Boolean).every(check), what))
const items = (value: string) => value.split(/[\s,]+/).filter(Boolean)
const key32 = z.string().check(
  z.refine((value) => Buffer.from(value, 'base64').length === 32, 'a base64-encoded 32-byte key'),
)

/** Everything the server needs to run against any EVM chain, read from the environment (docs/configuration.md). */
export const configSchema = z.object({
  PORT: z._default(port, 8787),
  HOST: z._default(z.string(), '127.0.0.1'),
  /** A second listener for /metrics and /readyz only; set, they leave the public one. */
  OPS_PORT: z.optional(port),
  OPS_HOST: z._default(z.string(), '127.0.0.1'),
  /** The origin payers reach the pay page at; share links are built on it. */
  PUBLIC_URL: z.optional(z.url()),
  /** A block explorer's origin: received payments and the vault's activity link `${EXPLORER_URL}/tx/<hash>`. */
  EXPLORER_URL: optionalUrl,
  RPC_URL: z.url(),
  CHAIN_ID: positiveInt,
  ENTRY_POINT_ADDRESS: z._default(addressSchema, entryPoint07Address),
  TOKEN_ADDRESS: addressSchema,
  REGISTRY_ADDRESS: addressSchema,
  VAULT_FACTORY_ADDRESS: addressSchema,
  PAYMASTER_ADDRESS: addressSchema,
  /** EntryPoint v0.6 and the VerifyingPaymaster on it (`npm run deploy` prints both): with both set, the
   * ERC-7677 service (POST /v1/paymaster) also sponsors v0.6 smart wallets (Coinbase Smart Wallet). */
  ENTRY_POINT_V06_ADDRESS: z.optional(addressSchema),
  PAYMASTER_V06_ADDRESS: z.optional(addressSchema),
  /** The merchant's side: the merchant vault factory and the session module (`npm run deploy` prints them). */
  MERCHANT_VAULT_FACTORY_ADDRESS: z.optional(addressSchema),
  SESSION_VALIDATOR_ADDRESS: z.optional(addressSchema),
  /** The block the registry was deployed in: where settlement-event searches start. */
  REGISTRY_FROM_BLOCK: z._default(z.coerce.bigint(), 0n),
  /** An ERC-4337 bundler (JSON-RPC); without it the server bundles itself with BUNDLER_PRIVATE_KEY. */
  BUNDLER_URL: optionalUrl,
  BUNDLER_PRIVATE_KEY: z.optional(hexSchema),
  /** An ERC-7677 paymaster service; without it the server signs for the VerifyingPaymaster itself. */
  PAYMASTER_URL: optionalUrl,
  PAYMASTER_SIGNER_PRIVATE_KEY: z.optional(hexSchema),
  /** The server signer (SPEC 2.9): the session key a studio's vault lets issue and cancel invoices on
   * the registry, and nothing else. Unset, server-signed issuance answers no_active_signer. */
  SERVER_SIGNER_PRIVATE_KEY: z.optional(z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'a 32-byte private key'))) as unknown as z.ZodMiniOptional<z.ZodMiniType<`0x${string}`>>,
  /** Vault operations (issue, cancel) our paymaster sponsors per studio per UTC day. */
  MERCHANT_DAILY_OPERATION_QUOTA: z._default(z.coerce.number().check(z.int(), z.minimum(0)), 500),
  /** The same operations per studio per UTC calendar month: a month of full days would otherwise be
   * thirty-one times the day's. */
  MERCHANT_MONTHLY_OPERATION_QUOTA: z._default(z.coerce.number().check(z.int(), z.minimum(0)), 10_000),
  /** The server signer's session starts (StartSession) our paymaster sponsors per studio per UTC day:
   * they spend no operation quota, so that ending a session never waits, and alternating them with
   * ends would otherwise be sponsored without bound. */
  MERCHANT_DAILY_SESSION_STARTS: z._default(z.coerce.number().check(z.int(), z.minimum(0)), 10),
  DATABASE_URL: z.optional(z.string()),
  /** PGlite's data directory when DATABASE_URL is not set. */
  DATA_DIR: z._default(z.string(), '.data'),
  /** The single key of before: key id 0. Optional once METADATA_ENCRYPTION_KEYS is set. */
  METADATA_ENCRYPTION_KEY: z.optional(key32),
  /** Keys by id, `1:<base64>,2:<base64>`: every one opens what it sealed; one seals new records. */
  METADATA_ENCRYPTION_KEYS: z.optional(z.string().check(z.refine((value) => checkEncryptionKeyList(value).length === 0))),
  /** The id new records are sealed under; unset, the highest of METADATA_ENCRYPTION_KEYS (else 0). */
  METADATA_ENCRYPTION_ACTIVE_KEY: z.optional(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(65_535))),
  /** How long POST /v1/pay/:id waits for a receipt before answering 202 pending. */
  SUBMIT_WAIT_MS: z._default(positiveInt, 15_000),
  /** How often each instance's reconciler looks for operations a bundler dropped (0: never; for tests
   * that watch a submission stay pending). */
  RECONCILE_INTERVAL_MS: z._default(z.coerce.number().check(z.int(), z.minimum(0)), 10_000),
  /** How long a reconciler's claim on an operation holds: an instance killed while holding one
   * leaves it to the others after this. Longer than a resend takes (the bundler's 15 s timeout). */
  RECONCILE_LEASE_MS: z._default(positiveInt, 60_000),
  /** Webhooks read a registry event once its block is this many deep (1: the block itself). 3 by
   * default: the block and two on top, past the one-block reorganisations a live chain has routinely,
   * for two block times of delay; the devnet, which never reorganises, sets 1 (devnet/devnetConfig.ts). */
  WEBHOOK_CONFIRMATIONS: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(10_000)), 3),
  /** Webhook URLs may name loopback and private addresses: for a devnet or a receiver on the same
   * network only, never where merchants register their own URLs on a shared server. */
  WEBHOOK_ALLOW_PRIVATE_URLS: z._default(z.stringbool(), false),
  /** How often each instance reads the registry's new logs and looks for due deliveries (0: never;
   * this instance neither reads nor sends). */
  WEBHOOK_INTERVAL_MS: z._default(wholeNumber, 2_000),
  /** How long a receiver has to answer a webhook. */
  WEBHOOK_TIMEOUT_MS: z._default(z.coerce.number().check(z.int(), z.minimum(100), z.maximum(60_000)), 10_000),
  /** How long an instance's claim on a delivery holds: one killed while sending leaves it to the
   * others after this. Longer than WEBHOOK_TIMEOUT_MS. */
  WEBHOOK_LEASE_MS: z._default(positiveInt, 60_000),
  /** Requests per minute per client IP on the public routes. */
  RATE_LIMIT_PER_MINUTE: z._default(positiveInt, 300),
  /** POST /v1/pay/:id/permit per client per minute; unset, a fifth of RATE_LIMIT_PER_MINUTE. */
  PERMIT_RATE_LIMIT_PER_MINUTE: z.optional(positiveInt),
  /** POST /v1/pay/:id/prepare per client per minute; unset, a tenth of RATE_LIMIT_PER_MINUTE. */
  PREPARE_RATE_LIMIT_PER_MINUTE: z.optional(positiveInt),
  /** POST /v1/paymaster per client per minute; unset, a fifth of RATE_LIMIT_PER_MINUTE. */
  PAYMASTER_RATE_LIMIT_PER_MINUTE: z.optional(positiveInt),
  /** How long a sponsorship lasts at most: an operation's paymaster window ends this many seconds
   * after /prepare, or with the permit when that comes first. The page prepares again past it. */
  SPONSORSHIP_WINDOW_SECONDS: z._default(z.coerce.number().check(z.int(), z.minimum(60), z.maximum(86_400)), 900),
  /** Live sponsored operations (prepared, within their window, neither paid nor superseded by a newer
   * prepare from the same vault) allowed per invoice, per vault owner and per client (IPv4 address or
   * IPv6 /64); 0 lifts that bound. */
  SPONSORSHIP_LIMIT_PER_INVOICE: z._default(wholeNumber, 3),
  SPONSORSHIP_LIMIT_PER_OWNER: z._default(wholeNumber, 10),
  SPONSORSHIP_LIMIT_PER_CLIENT: z._default(wholeNumber, 20),
  /** Calls that may wait for one of the 8 slots to the bundler, and as many to the paymaster service,
   * per instance; one more is refused at once (503, Retry-After). */
  UPSTREAM_QUEUE_LIMIT: z._default(wholeNumber, 64),
  /** Redis (`redis://…`): rate limits counted there are shared by every instance; without it each
   * instance counts alone. */
  REDIS_URL: optionalUrl,
  /** CSP frame-ancestors sources: 'self', 'none', or scheme/host sources; nothing that could end the directive. */
  ALLOWED_FRAME_ANCESTORS: z._default(
    z.string().check(z.regex(/^\s*('self'|'none'|[a-z][a-z0-9+.-]*:(\/\/[\w.*:-]+)?)(\s+('self'|'none'|[a-z][a-z0-9+.-]*:(\/\/[\w.*:-]+)?))*\s*$/i, "CSP sources separated by spaces, such as 'self' https://shop.example")),
    "'self'",
  ),
  /** Origins the pay page may connect to besides its own, space-separated: a WalletConnect build
   * needs its relay and RPC (e.g. "wss://relay.walletconnect.org https://rpc.walletconnect.org"). The
   * dashboard is allowed them too when the build offers the owner WalletConnect. Origins only, a
   * subdomain wildcard at most: the dashboard holds a bearer token, and a bare *, a scheme alone or a
   * ; (which would end the directive) would let its scripts reach anywhere. */
  PAY_PAGE_CONNECT_SRC: z._default(z.string().check(z.regex(/^\s*((https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d+)?\/?(\s+|$))*$/i, 'origins separated by spaces, such as wss://relay.walletconnect.org')), ''),
  TRUST_PROXY: z._default(z.stringbool(), false),
  /** How many proxies of ours stand in front: the client is that many entries from the right of
   * X-Forwarded-For. TRUST_PROXY=true is 1. */
  TRUSTED_PROXY_HOPS: z.optional(wholeNumber),
  /** Our proxies' networks: the client is the right-most X-Forwarded-For entry outside them. */
  TRUSTED_PROXY_CIDRS: z.optional(listOf(isCidr, 'addresses or networks in CIDR notation')),
  /** How far an HMAC request's x-svc-ts may lie from the server's clock, either way (SPEC 8). */
  HMAC_SKEW_SECONDS: z._default(positiveInt, 300),
  /** The listeners' timeouts and connection cap (server/http/connectionLimits.ts): Node's own
   * defaults let slow clients hold sockets for minutes, and any number of them. */
  HTTP_HEADERS_TIMEOUT_MS: z._default(z.coerce.number().check(z.int(), z.minimum(1_000), z.maximum(600_000)), defaultConnectionLimits.headersTimeoutMs),
  HTTP_REQUEST_TIMEOUT_MS: z._default(z.coerce.number().check(z.int(), z.minimum(1_000), z.maximum(3_600_000)), defaultConnectionLimits.requestTimeoutMs),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z._default(z.coerce.number().check(z.int(), z.minimum(1_000), z.maximum(600_000)), defaultConnectionLimits.keepAliveTimeoutMs),
  HTTP_MAX_CONNECTIONS: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(1_000_000)), defaultConnectionLimits.maxConnections),
  /** How long SIGTERM or SIGINT waits for requests in flight before the process exits anyway. A
   * submission can wait SUBMIT_WAIT_MS for its receipt: a larger value lets it finish. */
  SHUTDOWN_TIMEOUT_MS: z._default(positiveInt, 10_000),
  LOG_LEVEL: z._default(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  /** The identity provider whose JWTs sign users in (SPEC 5.1 item 3): all three, or none. */
  JWT_JWKS_URL: optionalUrl,
  JWT_ISSUER: z.optional(z.string().check(z.minLength(1))),
  JWT_AUDIENCE: z.optional(z.string().check(z.minLength(1))),
  /** The merchant dashboard's public client at that provider (authorization code with S256 PKCE,
   * redirect URI <PUBLIC_URL>/dashboard). Unset: /dashboard is served but cannot sign anyone in. */
  DASHBOARD_CLIENT_ID: z.optional(z.string().check(z.minLength(1))),
  /** This server's public client at that provider, for the CLI's and MCP's authorization server
   * (/oauth, SPEC 5.3 and 5.4; redirect URI <PUBLIC_URL>/oauth/signed-in). Unset: no /oauth and no /mcp. */
  OAUTH_IDENTITY_CLIENT_ID: z.optional(z.string().check(z.minLength(1))),
  /** What the dashboard's and /oauth's sign-ins ask that provider for: one list, so that both read
   * the same user the same way (a provider may name its API's scope otherwise than the devnet's). */
  IDENTITY_SCOPES: z._default(z.string().check(z.regex(/^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/)), 'openid email api'),
  /** The JWT claim that holds the user's studio id. */
  JWT_STUDIO_CLAIM: z._default(z.string().check(z.minLength(1)), 'studio_id'),
  /** The signature algorithms a JWT may use: asymmetric ones only. */
  JWT_ALGORITHMS: z._default(
    listOf((name) => (asymmetricJwtAlgorithms as readonly string[]).includes(name), 'asymmetric algorithms'),
    asymmetricJwtAlgorithms.join(','),
  ),
  /** How far a JWT's exp, nbf and iat may be off from the server's clock. */
  JWT_CLOCK_TOLERANCE_SECONDS: z._default(wholeNumber, 30),
  /** The SMTP server invoice mail goes through (smtp://host:port, smtps://; user and password in the
   * URL if it wants them). Unset, no mail is sent and every delivery answers not_configured. */
  SMTP_URL: z.optional(z.url({ protocol: /^smtps?$/, error: 'an smtp:// or smtps:// URL' })),
  /** The From of invoice mail: an address the SMTP server may send as. */
  MAIL_FROM: z._default(z.string().check(z.minLength(3), z.maxLength(254)), 'svc-checkout <invoices@localhost>'),
  /** Who is told of each enquiry from the public form (POST /v1/leads, SPEC 4.7), through SMTP_URL.
   * Unset: enquiries are kept and the enquirer confirmed, but nobody is told. */
  LEADS_NOTIFY_EMAIL: z.optional(z.email().check(z.maxLength(254))),
  /** Whether invoice creation refuses a request without an Idempotency-Key (SPEC 7.4.1); unset, it
   * does everywhere but in production (NODE_ENV=production): idempotencyKeyRequiredOf. */
  IDEMPOTENCY_KEY_REQUIRED: z.optional(z.stringbool()),
  /** How long a request holds its Idempotency-Key's record: a retry takes over one left by an instance
   * killed mid-issue after this. Longer than SUBMIT_WAIT_MS and a finalization. */
  IDEMPOTENCY_LEASE_MS: z._default(positiveInt, 60_000),
  /** `production` marks a production deployment; only IDEMPOTENCY_KEY_REQUIRED's default reads it. */
  NODE_ENV: z.optional(z.string()),
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
  OPS_PORT: 'the port /metrics and /readyz are served on instead of PORT, 0-65535',
  OPS_HOST: 'the address the OPS_PORT listener listens on, such as 127.0.0.1 (keep it private)',
  PUBLIC_URL: 'the origin payers reach the pay page at, such as https://pay.example',
  EXPLORER_URL: "a block explorer's URL, such as https://basescan.org, that transactions are linked under (/tx/<hash>)",
  RPC_URL: "the chain's JSON-RPC endpoint, an http(s) URL",
  CHAIN_ID: "the chain's id, a positive integer (31337 for anvil)",
  ENTRY_POINT_ADDRESS: 'the ERC-4337 EntryPoint v0.7, a 0x address',
  TOKEN_ADDRESS: 'the accepted token, a 0x address (`npm run deploy` prints it)',
  REGISTRY_ADDRESS: 'the InvoiceRegistry, a 0x address (`npm run deploy` prints it)',
  VAULT_FACTORY_ADDRESS: 'the PayerVaultFactory, a 0x address (`npm run deploy` prints it)',
  PAYMASTER_ADDRESS: 'the VerifyingPaymaster, a 0x address (`npm run deploy` prints it)',
  ENTRY_POINT_V06_ADDRESS: 'the ERC-4337 EntryPoint v0.6, a 0x address (`npm run deploy` prints it)',
  PAYMASTER_V06_ADDRESS: 'the VerifyingPaymaster on EntryPoint v0.6, a 0x address (`npm run deploy` prints it)',
  MERCHANT_VAULT_FACTORY_ADDRESS: 'the merchant vault factory, a 0x address (`npm run deploy` prints it)',
  SESSION_VALIDATOR_ADDRESS: "the merchant vaults' session module, a 0x address (`npm run deploy` prints it)",
  REGISTRY_FROM_BLOCK: "the registry's deployment block, a whole number (`npm run deploy` prints it)",
  BUNDLER_URL: "an ERC-4337 bundler's JSON-RPC URL",
  BUNDLER_PRIVATE_KEY: 'the key of an account with gas money that bundles itself, 0x and 64 hex digits',
  PAYMASTER_URL: "an ERC-7677 paymaster service's URL",
  PAYMASTER_SIGNER_PRIVATE_KEY: "the key of the VerifyingPaymaster's signer, 0x and 64 hex digits",
  SERVER_SIGNER_PRIVATE_KEY: "the server signer's session key, 0x and 64 hex digits (each studio's vault owner starts a session for its address)",
  MERCHANT_DAILY_OPERATION_QUOTA: 'sponsored vault operations per studio per day, a whole number',
  MERCHANT_MONTHLY_OPERATION_QUOTA: 'sponsored vault operations per studio per calendar month, a whole number',
  MERCHANT_DAILY_SESSION_STARTS: "sponsored starts of the server signer's session per studio per day, a whole number",
  DATABASE_URL: 'a PostgreSQL connection string, postgres://…',
  DATA_DIR: "PGlite's data directory",
  METADATA_ENCRYPTION_KEY: '32 random bytes, base64 (openssl rand -base64 32); keep it: the stored metadata and API keys are sealed under it (or set METADATA_ENCRYPTION_KEYS)',
  METADATA_ENCRYPTION_KEYS: 'key ids and keys separated by commas, such as 1:<32 random bytes, base64>,2:<…> (openssl rand -base64 32 makes a key); ids 1 to 65535, each once',
  METADATA_ENCRYPTION_ACTIVE_KEY: 'the id of the key new records are sealed under, one of METADATA_ENCRYPTION_KEYS (0: METADATA_ENCRYPTION_KEY); unset, the highest id listed',
  SUBMIT_WAIT_MS: 'milliseconds, a positive integer',
  RECONCILE_INTERVAL_MS: 'milliseconds, a whole number (0: never)',
  RECONCILE_LEASE_MS: 'milliseconds, a positive integer',
  WEBHOOK_CONFIRMATIONS: 'blocks, 1 to 10000 (1: an event is sent once its block is the head; 3 when unset)',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true or false (true only for a devnet or a private network)',
  WEBHOOK_INTERVAL_MS: 'milliseconds, a whole number (0: this instance sends no webhooks)',
  WEBHOOK_TIMEOUT_MS: 'milliseconds, 100 to 60000',
  WEBHOOK_LEASE_MS: 'milliseconds, a positive integer larger than WEBHOOK_TIMEOUT_MS',
  RATE_LIMIT_PER_MINUTE: 'requests per minute per client, a positive integer',
  PERMIT_RATE_LIMIT_PER_MINUTE: 'permit requests per minute per client, a positive integer',
  PREPARE_RATE_LIMIT_PER_MINUTE: 'prepare requests per minute per client, a positive integer',
  PAYMASTER_RATE_LIMIT_PER_MINUTE: 'paymaster service (POST /v1/paymaster) requests per minute per client, a positive integer',
  SPONSORSHIP_WINDOW_SECONDS: 'seconds a sponsorship lasts at most, 60 to 86400 (900: 15 minutes)',
  SPONSORSHIP_LIMIT_PER_INVOICE: 'live sponsored operations per invoice, a whole number (0: no limit)',
  SPONSORSHIP_LIMIT_PER_OWNER: 'live sponsored operations per vault owner, a whole number (0: no limit)',
  SPONSORSHIP_LIMIT_PER_CLIENT: 'live sponsored operations per client address (IPv6: per /64), a whole number (0: no limit)',
  UPSTREAM_QUEUE_LIMIT: 'how many calls may wait per upstream service, a whole number',
  REDIS_URL: 'a Redis URL, redis://…',
  ALLOWED_FRAME_ANCESTORS: "CSP sources separated by spaces, such as 'self' https://shop.example",
  PAY_PAGE_CONNECT_SRC: 'origins separated by spaces (http, https, ws or wss; *. before a host at most), such as wss://relay.walletconnect.org',
  TRUST_PROXY: 'true or false',
  TRUSTED_PROXY_HOPS: 'how many proxies of yours stand in front of the server, a whole number (1: one load balancer)',
  TRUSTED_PROXY_CIDRS: "your proxies' addresses or networks, such as 10.0.0.0/8 fd00::/8, separated by spaces or commas",
  HMAC_SKEW_SECONDS: 'seconds, a positive integer',
  HTTP_HEADERS_TIMEOUT_MS: 'milliseconds a client has to send a request\'s headers, 1000 to 600000 (10000 when unset)',
  HTTP_REQUEST_TIMEOUT_MS: 'milliseconds a client has to send a whole request, 1000 to 3600000, at least HTTP_HEADERS_TIMEOUT_MS (30000 when unset)',
  HTTP_KEEP_ALIVE_TIMEOUT_MS: 'milliseconds an idle kept-alive connection stays open, 1000 to 600000 (5000 when unset; above the load balancer\'s idle timeout)',
  HTTP_MAX_CONNECTIONS: 'open connections per listener, 1 to 1000000 (4096 when unset; below the open-file limit, ulimit -n)',
  SHUTDOWN_TIMEOUT_MS: 'milliseconds, a positive integer',
  LOG_LEVEL: 'one of fatal, error, warn, info, debug, trace, silent',
  JWT_JWKS_URL: "the identity provider's JWKS URL",
  JWT_ISSUER: "the identity provider's issuer (iss)",
  JWT_AUDIENCE: 'the audience (aud) its tokens carry for this server',
  DASHBOARD_CLIENT_ID: "the dashboard's client id at the identity provider",
  IDENTITY_SCOPES: 'scopes separated by single spaces, such as openid email api',
  JWT_STUDIO_CLAIM: "the JWT claim that holds the user's studio id",
  JWT_ALGORITHMS: `signature algorithms separated by commas, among ${asymmetricJwtAlgorithms.join(', ')} (never HS* or none)`,
  JWT_CLOCK_TOLERANCE_SECONDS: 'seconds, a whole number',
  SMTP_URL: 'an SMTP server, smtp://host:port or smtps://user:password@host:port',
  MAIL_FROM: 'the sender of invoice mail, such as Acme invoices <invoices@acme.example>',
  LEADS_NOTIFY_EMAIL: 'an email address, such as sales@acme.example',
  IDEMPOTENCY_KEY_REQUIRED: 'true or false (unset: true unless NODE_ENV is production)',
  IDEMPOTENCY_LEASE_MS: 'milliseconds, a positive integer larger than SUBMIT_WAIT_MS (60000 when unset)',
  NODE_ENV: 'production for a production deployment, anything else otherwise',
}

/** One line per variable: named, missing or not, and what it wants. The value is never echoed: it may be a key. */
function parseEnv<S extends z.ZodMiniType>(schema: S, env: Record<string, string | undefined>): z.infer<S> {
  const result = schema.safeParse(env)
  // one of the two must seal the records; the single key of before is the one asked for
  const sealedUnder = env.METADATA_ENCRYPTION_KEY || env.METADATA_ENCRYPTION_KEYS ? [] : ['METADATA_ENCRYPTION_KEY']
  if (!result.success || sealedUnder.length > 0) {
    const issues = result.success ? [] : result.error.issues.map((issue) => String(issue.path[0] ?? ''))
    const names = [...new Set([...issues, ...sealedUnder])]
    const lines = names.map((name) => {
      const wanted = wants[name as keyof Config] ?? 'see docs/configuration.md'
      // which entry is wrong, never its key
      const which = name === 'METADATA_ENCRYPTION_KEYS' && env[name] ? ` (${checkEncryptionKeyList(env[name]).join('; ')})` : ''
      return `  ${name} is ${env[name] === undefined || env[name] === '' ? 'missing' : 'not valid'}: ${wanted}${which}`
    })
    throw new ConfigError(`the server's configuration, read from the environment, is missing or malformed:\n${lines.join('\n')}`)
  }
  return result.data
}

/**
 * The keys the configuration seals and opens records with: METADATA_ENCRYPTION_KEYS by id, and
 * METADATA_ENCRYPTION_KEY as id 0; the active one METADATA_ENCRYPTION_ACTIVE_KEY, else the highest
 * id listed, else 0. Throws a ConfigError when the active id names no configured key.
 */
export function encryptionKeysOf(
  config: Pick<Config, 'METADATA_ENCRYPTION_KEY' | 'METADATA_ENCRYPTION_KEYS' | 'METADATA_ENCRYPTION_ACTIVE_KEY'>,
): EncryptionKeys {
  const keys = config.METADATA_ENCRYPTION_KEYS ? parseEncryptionKeyList(config.METADATA_ENCRYPTION_KEYS) : new Map<number, string>()
  const listed = [...keys.keys()].sort((a, b) => a - b)
  if (config.METADATA_ENCRYPTION_KEY) keys.set(0, config.METADATA_ENCRYPTION_KEY)
  const activeKeyId = config.METADATA_ENCRYPTION_ACTIVE_KEY ?? listed.at(-1) ?? 0
  if (!keys.has(activeKeyId)) {
    throw new ConfigError(
      activeKeyId === 0
        ? 'METADATA_ENCRYPTION_ACTIVE_KEY is not valid: 0 names METADATA_ENCRYPTION_KEY, which is not set'
        : `METADATA_ENCRYPTION_ACTIVE_KEY is not valid: key id ${activeKeyId} is not in METADATA_ENCRYPTION_KEYS (${listed.length > 0 ? `ids ${listed.join(', ')}` : 'not set'})`,
    )
  }
  return { keys, activeKeyId }
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
  const v06 = ['ENTRY_POINT_V06_ADDRESS', 'PAYMASTER_V06_ADDRESS'] as const
  const unsetV06 = v06.filter((name) => !config[name])
  if (unsetV06.length === 1) {
    throw new ConfigError(`set both of ENTRY_POINT_V06_ADDRESS and PAYMASTER_V06_ADDRESS, or neither (the paymaster service then serves v0.7 only): ${unsetV06[0]} is missing (${wants[unsetV06[0]!]})`)
  }
  if (config.OPS_PORT !== undefined && config.OPS_PORT !== 0 && config.OPS_PORT === config.PORT) {
    throw new ConfigError(`OPS_PORT is not valid: it is PORT (${config.PORT}); give the operations listener a port of its own, or leave OPS_PORT unset to serve /readyz and /metrics on PORT`)
  }
  if (config.IDEMPOTENCY_LEASE_MS <= config.SUBMIT_WAIT_MS) {
    // a lease that runs out while its request still waits on the chain is taken over by a retry, which waits too
    throw new ConfigError(`IDEMPOTENCY_LEASE_MS is not valid: it must be larger than SUBMIT_WAIT_MS (${config.SUBMIT_WAIT_MS})`)
  }
  if (config.WEBHOOK_LEASE_MS <= config.WEBHOOK_TIMEOUT_MS) {
    // a lease that runs out while its instance still waits on the receiver lets a second one send the same event at once
    throw new ConfigError(`WEBHOOK_LEASE_MS is not valid: it must be larger than WEBHOOK_TIMEOUT_MS (${config.WEBHOOK_TIMEOUT_MS})`)
  }
  if (config.HTTP_HEADERS_TIMEOUT_MS > config.HTTP_REQUEST_TIMEOUT_MS) {
    // the headers are part of the request: Node refuses a listener whose headers may take longer
    throw new ConfigError(`HTTP_REQUEST_TIMEOUT_MS is not valid: it must be at least HTTP_HEADERS_TIMEOUT_MS (${config.HTTP_HEADERS_TIMEOUT_MS})`)
  }
  if (config.TRUSTED_PROXY_HOPS !== undefined && config.TRUSTED_PROXY_CIDRS !== undefined) {
    throw new ConfigError('TRUSTED_PROXY_HOPS is not valid: set it or TRUSTED_PROXY_CIDRS, not both (they are two ways to say which X-Forwarded-For entry is the client)')
  }
  encryptionKeysOf(config)
  return config
}

/** Which X-Forwarded-For entry is the client, by the configuration. */
export function trustedProxiesOf(config: Pick<Config, 'TRUST_PROXY' | 'TRUSTED_PROXY_HOPS' | 'TRUSTED_PROXY_CIDRS'>): TrustedProxies {
  if (config.TRUSTED_PROXY_CIDRS !== undefined) return { cidrs: items(config.TRUSTED_PROXY_CIDRS) }
  return { hops: config.TRUSTED_PROXY_HOPS ?? (config.TRUST_PROXY ? 1 : 0) }
}

/** The listeners' timeouts and connection cap, by the configuration. */
export function connectionLimitsOf(
  config: Pick<Config, 'HTTP_HEADERS_TIMEOUT_MS' | 'HTTP_REQUEST_TIMEOUT_MS' | 'HTTP_KEEP_ALIVE_TIMEOUT_MS' | 'HTTP_MAX_CONNECTIONS'>,
): ConnectionLimits {
  return {
    headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    maxConnections: config.HTTP_MAX_CONNECTIONS,
  }
}

/** Whether invoice creation requires an Idempotency-Key: as set, else everywhere but production, so
 * that integrations built against a devnet or staging send one from their first request (SPEC 7.4.1). */
export function idempotencyKeyRequiredOf(config: Pick<Config, 'IDEMPOTENCY_KEY_REQUIRED' | 'NODE_ENV'>): boolean {
  return config.IDEMPOTENCY_KEY_REQUIRED ?? config.NODE_ENV !== 'production'
}

/** The JWT algorithms allowed, as a list. */
export function jwtAlgorithmsOf(config: Pick<Config, 'JWT_ALGORITHMS'>): string[] {
  return items(config.JWT_ALGORITHMS)
}

/**
 * `npm run serve`'s own rule: the database must be named. Without DATABASE_URL each instance would
 * open its own PGlite directory, and with it its own store of spent HMAC nonces: a request signed
 * once could be replayed on every other instance. PGlite is for one instance, chosen explicitly.
 */
export function assertDatabaseNamed(env: Record<string, string | undefined>): void {
  if (env.DATABASE_URL || env.DATA_DIR) return
  throw new ConfigError(
    [
      'DATABASE_URL is missing: the server needs PostgreSQL (postgres://…) to run as several instances.',
      'Without it each instance would keep its own PGlite database, and with it its own record of spent',
      'HMAC nonces, so a signed merchant request could be replayed once on every other instance.',
      'For one instance only, set DATA_DIR to the PGlite directory (such as DATA_DIR=.data) to say so.',
    ].join('\n'),
  )
}

/** Whether `host` is this machine's loopback: nothing another machine sends reaches it. */
function isLoopback(host: string): boolean {
  if (host === 'localhost') return true
  return ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback'
}

/**
 * `npm run serve`'s own rule: /metrics (what the server does, to whom, how often) and /readyz (which
 * dependency is down) are for the platform, not the public. Without OPS_PORT they are on the public
 * listener, so that listener must then be loopback (a proxy on this machine forwards what it chooses).
 * The devnet and the tests start the server themselves, on loopback.
 */
export function assertOperationsPrivate(config: Pick<Config, 'HOST' | 'OPS_PORT'>): void {
  if (config.OPS_PORT !== undefined || isLoopback(config.HOST)) return
  throw new ConfigError(
    `OPS_PORT is missing: HOST ${config.HOST} is reachable from other machines, and without OPS_PORT /metrics and /readyz are answered there to anyone; set OPS_PORT (served on OPS_HOST, 127.0.0.1 by default), or HOST=127.0.0.1 behind a proxy on this machine`,
  )
}

/** What the command-line tools need: the server's database and the key its secrets are sealed under. */
export const storeConfigSchema = z.pick(configSchema, {
  DATABASE_URL: true,
  DATA_DIR: true,
  METADATA_ENCRYPTION_KEY: true,
  METADATA_ENCRYPTION_KEYS: true,
  METADATA_ENCRYPTION_ACTIVE_KEY: true,
})

export type StoreConfig = z.infer<typeof storeConfigSchema>

export function readStoreConfig(env: Record<string, string | undefined> = process.env): StoreConfig {
  const config = parseEnv(storeConfigSchema, env)
  encryptionKeysOf(config)
  return config
}
