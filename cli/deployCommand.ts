import '../server/zodLocale'
import { getAddress, parseEther, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import * as z from 'zod/mini'
import { addressSchema } from '../shared/deployment'
import type { PaymasterFunding } from '../deploy/paymasterFunding'
import { parseFlags, UsageError } from './usageError'

export const deployUsage = `usage:
  npm run deploy -- --rpc-url <url> --private-key <0x…> --out <file> (--token <address> | --test-token)
    [--paymaster-signer <address>]        whose signatures the paymaster accepts (default: the deployer)
    [--treasury <address>]                where the registry sends its fee (default: the deployer)
    [--retail-fee-bps <0-1000>]           the registry's retail fee (default 100: 1%)
    [--paymaster-deposit <ether>]         the paymaster's EntryPoint deposit (default 0.1)
    [--paymaster-stake <ether>]           its stake, 0 for none (default 0.1)
    [--paymaster-unstake-delay <seconds>] the stake's unlock delay (default 86400)
    [--public-rpc-url <url>]…             the RPCs the page reads through (default: --rpc-url)
    [--chain-name <name>] [--explorer-url <url>]
  RPC_URL and DEPLOYER_PRIVATE_KEY stand in for --rpc-url and --private-key.
  npm run deploy -- --help                prints this`

export type DeployCommand = {
  rpcUrl: string
  privateKey: Hex
  out: string
  token: Address | 'test'
  paymasterSigner: Address
  treasury: Address
  retailFeeBps: number
  paymasterFunding: PaymasterFunding
  publicRpcUrls: string[]
  chainName: string | undefined
  explorerUrl: string | undefined
}

/** Missing: what to pass; present but malformed: `otherwise`, or the check's own message. */
const missing = (what: string, otherwise?: string) => (issue: { input?: unknown }) => (issue.input === undefined ? `missing: ${what}` : otherwise)
const ether = (fallback: string) =>
  z._default(z.pipe(z.string().check(z.regex(/^\d+(\.\d{1,18})?$/, 'an amount of ether such as 0.5')), z.transform((text) => parseEther(text))), parseEther(fallback))
const wholeNumber = (what: string, min: number, max: number) =>
  z.pipe(z.string().check(z.regex(/^\d{1,16}$/, what)), z.transform(Number)).check(z.refine((value) => value >= min && value <= max, what))
const httpUrl = z.url({ protocol: /^https?$/, error: 'an http(s) URL' })

const optionsSchema = z.object({
  'rpc-url': z.url({ protocol: /^https?$/, error: missing('the chain: pass --rpc-url or set RPC_URL', "the chain's JSON-RPC endpoint, an http(s) URL") }),
  // the message never echoes the input: it is a key
  'private-key': z.string({ error: missing("the deployer's key: pass --private-key or set DEPLOYER_PRIVATE_KEY") }).check(
    z.regex(/^0x[0-9a-fA-F]{64}$/, 'a 0x-prefixed 32-byte hex key'),
  ),
  out: z.string({ error: missing('the deployment file to write: pass --out <file>') }).check(z.minLength(1)),
  token: z.optional(addressSchema),
  'test-token': z._default(z.boolean(), false),
  'paymaster-signer': z.optional(addressSchema),
  treasury: z.optional(addressSchema),
  'retail-fee-bps': z._default(wholeNumber('a fee in basis points from 0 to 1000', 0, 1_000), 100),
  'paymaster-deposit': ether('0.1'),
  'paymaster-stake': ether('0.1'),
  'paymaster-unstake-delay': z._default(wholeNumber('a delay in seconds from 1 to 4294967295', 1, 2 ** 32 - 1), 86_400),
  'public-rpc-url': z.optional(z.array(httpUrl)),
  'chain-name': z.optional(z.string().check(z.minLength(1))),
  'explorer-url': z.optional(httpUrl),
})

const string = { type: 'string' } as const

/** Flags first, then RPC_URL and DEPLOYER_PRIVATE_KEY; checked before anything reaches the chain. */
export function parseDeployCommand(argv: readonly string[], env: Record<string, string | undefined>): DeployCommand {
  const values = parseFlags(argv, {
    'rpc-url': string,
    'private-key': string,
    out: string,
    token: string,
    'test-token': { type: 'boolean' },
    'paymaster-signer': string,
    treasury: string,
    'retail-fee-bps': string,
    'paymaster-deposit': string,
    'paymaster-stake': string,
    'paymaster-unstake-delay': string,
    'public-rpc-url': { type: 'string', multiple: true },
    'chain-name': string,
    'explorer-url': string,
  })
  const parsed = optionsSchema.safeParse({ ...values, 'rpc-url': values['rpc-url'] ?? env.RPC_URL, 'private-key': values['private-key'] ?? env.DEPLOYER_PRIVATE_KEY })
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => `--${String(issue.path[0] ?? '')}: ${issue.message}`).join('\n'))
  const options = parsed.data
  if (Boolean(options.token) === options['test-token']) throw new UsageError('say which token: --token <address> for an existing one, or --test-token to deploy ours')
  const deployer = privateKeyToAccount(options['private-key'] as Hex).address
  return {
    rpcUrl: options['rpc-url'],
    privateKey: options['private-key'] as Hex,
    out: options.out,
    token: options.token ? getAddress(options.token) : 'test',
    paymasterSigner: getAddress(options['paymaster-signer'] ?? deployer),
    treasury: getAddress(options.treasury ?? deployer),
    retailFeeBps: options['retail-fee-bps'],
    paymasterFunding: { deposit: options['paymaster-deposit'], stake: options['paymaster-stake'], unstakeDelaySec: options['paymaster-unstake-delay'] },
    publicRpcUrls: options['public-rpc-url'] ?? [options['rpc-url']],
    chainName: options['chain-name'],
    explorerUrl: options['explorer-url'],
  }
}
