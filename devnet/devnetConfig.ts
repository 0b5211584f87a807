import { randomBytes } from 'node:crypto'
import { toHex, type HDAccount } from 'viem'
import { configSchema, type Config } from '../server/config'
import { chainEnvironment } from '../deploy/chainEnvironment'
import { devnetRoles } from './deploy'
import type { ReachableDevnet } from './startDevnet'
import { DevnetError } from './devnetError'

export function privateKeyOf(account: HDAccount) {
  const key = account.getHdKey().privateKey
  if (!key) throw new DevnetError('DEVNET_KEY_MISSING', 'a devnet role account has no private key: derive the devnet roles from their mnemonic (devnet/deploy.ts), not from an address')
  return toHex(key)
}

/** Server settings a devnet run may take from the environment; the chain, contract and key settings
 * always come from the devnet itself, and DATABASE_URL is startCheckoutDevnet's `databaseUrl`. */
const overridable = [
  'RATE_LIMIT_PER_MINUTE',
  'PERMIT_RATE_LIMIT_PER_MINUTE',
  'PREPARE_RATE_LIMIT_PER_MINUTE',
  'ALLOWED_FRAME_ANCESTORS',
  'SUBMIT_WAIT_MS',
  'PUBLIC_URL',
  'BUNDLER_URL',
  'PAYMASTER_URL',
  'SPONSORSHIP_WINDOW_SECONDS',
  'SPONSORSHIP_LIMIT_PER_INVOICE',
  'SPONSORSHIP_LIMIT_PER_OWNER',
  'SPONSORSHIP_LIMIT_PER_CLIENT',
] as const

export function serverOverrides(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(overridable.flatMap((name) => (env[name] ? [[name, env[name]]] : [])))
}

type DevnetServerParameters = { port: number; dataDir?: string; publicUrl?: string; overrides?: Record<string, string> }

/** The server's environment for a devnet: the devnet's own bundler and paymaster keys, a fresh
 * metadata key (the devnet's database is as new as its chain). */
export function devnetEnv(devnet: ReachableDevnet, { port, dataDir, publicUrl, overrides = {} }: DevnetServerParameters): Record<string, string> {
  const { anvil, deployment } = devnet
  return {
    PORT: String(port),
    ...chainEnvironment(deployment, anvil.rpcUrl),
    BUNDLER_PRIVATE_KEY: privateKeyOf(devnetRoles.bundler),
    PAYMASTER_SIGNER_PRIVATE_KEY: privateKeyOf(devnetRoles.paymasterSigner),
    // the key the seed started the demo vault's session for (none for a devnet described without its seed)
    ...(devnet.seed?.serverSigner ? { SERVER_SIGNER_PRIVATE_KEY: devnet.seed.serverSigner.privateKey } : {}),
    METADATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    SUBMIT_WAIT_MS: '10000',
    // anvil mines a block per transaction and none between them, and never reorganises: an event is
    // sent from the head block, not after two more transactions happen to come
    WEBHOOK_CONFIRMATIONS: '1',
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    ...(publicUrl ? { PUBLIC_URL: publicUrl } : {}),
    ...overrides,
  }
}

/** The server's configuration for a devnet (devnetEnv, parsed). */
export function devnetConfig(devnet: ReachableDevnet, options: DevnetServerParameters): Config {
  return configSchema.parse(devnetEnv(devnet, options))
}
