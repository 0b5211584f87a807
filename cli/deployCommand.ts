import '../server/zodLocale'
import { getAddress, parseEther, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import * as z from 'zod/mini'
import { addressSchema } from '../shared/deployment'
import type { PaymasterFunding } from '../deploy/paymasterFunding'
import { parseFlags, UsageError } from './usageError'

export const deployUsage = `usage:
  npm run deploy -- --rpc-url <url> --out <file> (--token <address> | --test-token)
                    --paymaster-signer <address> [--owner <address>] [--keystore <file>]
    --paymaster-signer <address>          whose signatures the paymaster accepts: the server's key, not the deployer's
    [--owner <address>]                   who takes over the registry and the paymaster (a multisig): it must
                                          then call acceptOwnership() on each (default: the deployer keeps them)
    [--treasury <address>]                where the registry sends its fee (default: the deployer)
    [--retail-fee-bps <0-1000>]           the registry's retail fee (default 100: 1%)
    [--paymaster-deposit <ether>]         the paymaster's EntryPoint deposit (default 0.1)
    [--paymaster-stake <ether>]           its stake, 0 for none (default 0.1)
    [--paymaster-unstake-delay <seconds>] the stake's unlock delay (default 86400)
    [--public-rpc-url <url>]…             the RPCs the page reads through (default: --rpc-url)
    [--chain-name <name>] [--explorer-url <url>]
  the deployer's key: DEPLOYER_PRIVATE_KEY, or --keystore <file> (a version 3 JSON keystore; its password
    from DEPLOYER_KEYSTORE_PASSWORD, else asked on the terminal); --private-key <0x…> works but lands in
    shell history and ps. RPC_URL stands in for --rpc-url.
  npm run deploy -- --help                prints this`

/** Where the deployer's key comes from. A keystore is opened only once the command is otherwise valid. */
export type DeployerKeySource =
  | { privateKey: Hex; from: '--private-key' | 'DEPLOYER_PRIVATE_KEY' }
  | { keystore: string; password: string | undefined }

export type DeployCommand = {
  rpcUrl: string
  deployerKey: DeployerKeySource
  out: string
  token: Address | 'test'
  paymasterSigner: Address
  /** Undefined: the deployer keeps the registry and the paymaster. */
  owner: Address | undefined
  /** Undefined: the deployer. */
  treasury: Address | undefined
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
  'private-key': z.optional(z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'a 0x-prefixed 32-byte hex key'))),
  keystore: z.optional(z.string().check(z.minLength(1, 'the path of a version 3 JSON keystore'))),
  out: z.string({ error: missing('the deployment file to write: pass --out <file>') }).check(z.minLength(1)),
  token: z.optional(addressSchema),
  'test-token': z._default(z.boolean(), false),
  'paymaster-signer': z
    .string({ error: missing("the paymaster's signer: pass --paymaster-signer <address>, the address of a key only the server holds (not the deployer's)") })
    .check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'an EVM address')),
  owner: z.optional(addressSchema),
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

/** Flags first, then RPC_URL, DEPLOYER_PRIVATE_KEY and DEPLOYER_KEYSTORE_PASSWORD; checked before anything
 * reaches the chain. The roles are checked against the deployer once its key is open (`checkRoles`). */
export function parseDeployCommand(argv: readonly string[], env: Record<string, string | undefined>): DeployCommand {
  const values = parseFlags(argv, {
    'rpc-url': string,
    'private-key': string,
    keystore: string,
    owner: string,
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
  if (values['private-key'] !== undefined && values.keystore !== undefined) throw new UsageError('--private-key, --keystore: pass one deployer key, not both')
  const keyFromEnv = values['private-key'] === undefined && values.keystore === undefined ? env.DEPLOYER_PRIVATE_KEY : undefined
  const parsed = optionsSchema.safeParse({ ...values, 'rpc-url': values['rpc-url'] ?? env.RPC_URL, 'private-key': values['private-key'] ?? keyFromEnv })
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => `--${String(issue.path[0] ?? '')}: ${issue.message}`)
  if (values['private-key'] === undefined && values.keystore === undefined && keyFromEnv === undefined) {
    problems.unshift("--private-key: missing: the deployer's key: pass --private-key or set DEPLOYER_PRIVATE_KEY (which stays out of shell history), or pass --keystore <file>")
  }
  if (!parsed.success || problems.length > 0) throw new UsageError(problems.join('\n'))
  const options = parsed.data
  if (Boolean(options.token) === options['test-token']) throw new UsageError('say which token: --token <address> for an existing one, or --test-token to deploy ours')
  const deployerKey: DeployerKeySource = options.keystore
    ? { keystore: options.keystore, password: env.DEPLOYER_KEYSTORE_PASSWORD }
    : { privateKey: options['private-key'] as Hex, from: values['private-key'] === undefined ? 'DEPLOYER_PRIVATE_KEY' : '--private-key' }
  const command: DeployCommand = {
    rpcUrl: options['rpc-url'],
    deployerKey,
    out: options.out,
    token: options.token ? getAddress(options.token) : 'test',
    paymasterSigner: getAddress(options['paymaster-signer']),
    owner: options.owner ? getAddress(options.owner) : undefined,
    treasury: options.treasury ? getAddress(options.treasury) : undefined,
    retailFeeBps: options['retail-fee-bps'],
    paymasterFunding: { deposit: options['paymaster-deposit'], stake: options['paymaster-stake'], unstakeDelaySec: options['paymaster-unstake-delay'] },
    publicRpcUrls: options['public-rpc-url'] ?? [options['rpc-url']],
    chainName: options['chain-name'],
    explorerUrl: options['explorer-url'],
  }
  // a plain key is known now: its roles are refused here, before a keystore prompt or the chain
  if ('privateKey' in deployerKey) checkRoles(command, privateKeyToAccount(deployerKey.privateKey).address)
  return command
}

export type DeployRoles = { deployer: Address; paymasterSigner: Address; owner: Address | undefined; treasury: Address }

/**
 * The server holds the paymaster signer's key; the owner's powers (fee, treasury, deposit, stake) must
 * never be on it. So the signer is neither the deployer (who owns everything until `--owner` accepts)
 * nor `--owner`.
 */
export function checkRoles(command: DeployCommand, deployer: Address): DeployRoles {
  if (command.paymasterSigner === deployer) {
    throw new UsageError(
      `--paymaster-signer: ${deployer} is the deployer, which owns the registry and the paymaster: pass the address of another key, one only the server holds`,
    )
  }
  if (command.owner === command.paymasterSigner) {
    throw new UsageError(`--owner: ${command.owner} is also --paymaster-signer, the server's key: pass the owner's own address (a multisig)`)
  }
  return { deployer, paymasterSigner: command.paymasterSigner, owner: command.owner === deployer ? undefined : command.owner, treasury: command.treasury ?? deployer }
}
