import { parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { checkRoles, parseDeployCommand } from '../../cli/deployCommand'
import { UsageError } from '../../cli/usageError'
import { runCli, runCliWithTsx } from '../support/runCli'

const key = generatePrivateKey()
const deployer = privateKeyToAccount(key).address
const signer = privateKeyToAccount(generatePrivateKey()).address
const env = { RPC_URL: 'http://127.0.0.1:8545', DEPLOYER_PRIVATE_KEY: key }
const out = ['--out', '/tmp/deployment.json', '--paymaster-signer', signer]

function usageMessage(argv: string[], environment: Record<string, string> = env): string {
  try {
    parseDeployCommand(argv, environment)
  } catch (error) {
    if (error instanceof UsageError) return error.message
    throw error
  }
  throw new Error('parsed')
}

describe('npm run deploy: the command line', () => {
  test('default: RPC_URL and DEPLOYER_PRIVATE_KEY stand in for the flags; the deployer is treasury and owner unless told', () => {
    const command = parseDeployCommand([...out, '--test-token'], env)
    expect(command).toEqual({
      rpcUrl: 'http://127.0.0.1:8545',
      deployerKey: { privateKey: key, from: 'DEPLOYER_PRIVATE_KEY' },
      out: '/tmp/deployment.json',
      token: 'test',
      paymasterSigner: signer,
      owner: undefined,
      treasury: undefined,
      retailFeeBps: 100,
      paymasterFunding: { deposit: parseEther('0.1'), stake: parseEther('0.1'), unstakeDelaySec: 86_400 },
      publicRpcUrls: ['http://127.0.0.1:8545'],
      chainName: undefined,
      explorerUrl: undefined,
    })
    expect(checkRoles(command, deployer)).toEqual({ deployer, paymasterSigner: signer, owner: undefined, treasury: deployer })
  })

  test('behavior: flags win over the environment and every amount is taken as given', () => {
    const other = generatePrivateKey()
    const usdc = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'
    const command = parseDeployCommand(
      [
        ...out,
        '--rpc-url', 'https://rpc.example/key',
        '--private-key', other,
        '--token', usdc,
        '--paymaster-signer', deployer,
        '--owner', signer,
        '--retail-fee-bps', '50',
        '--paymaster-deposit', '0.25',
        '--paymaster-stake', '0',
        '--paymaster-unstake-delay', '3600',
        '--public-rpc-url', 'https://a.example',
        '--public-rpc-url', 'https://b.example',
        '--chain-name', 'Ethereum',
      ],
      env,
    )
    expect(command).toMatchObject({
      rpcUrl: 'https://rpc.example/key',
      deployerKey: { privateKey: other, from: '--private-key' },
      token: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      paymasterSigner: deployer,
      owner: signer,
      retailFeeBps: 50,
      paymasterFunding: { deposit: parseEther('0.25'), stake: 0n, unstakeDelaySec: 3600 },
      publicRpcUrls: ['https://a.example', 'https://b.example'],
      chainName: 'Ethereum',
    })
    expect(checkRoles(command, privateKeyToAccount(other).address).treasury).toBe(privateKeyToAccount(other).address)
  })

  test('behavior: one token, said once: both --token and --test-token, or neither, are refused', () => {
    expect(usageMessage([...out])).toMatch(/--token <address>.*--test-token/)
    expect(usageMessage([...out, '--test-token', '--token', deployer])).toMatch(/say which token/)
  })

  test('behavior: a malformed key, a fee above the registry cap or an unknown flag is refused, the key never echoed', () => {
    const bad = `0x${'z'.repeat(64)}`
    const message = usageMessage([...out, '--test-token', '--private-key', bad, '--retail-fee-bps', '1001'])
    expect(message).toMatch(/--private-key: a 0x-prefixed 32-byte hex key/)
    expect(message).toMatch(/--retail-fee-bps/)
    expect(message).not.toContain(bad)
    expect(usageMessage([...out, '--test-token', '--gas-price', '1'])).toMatch(/gas-price/)
  })

  test('behavior: the command refuses a missing key with a clear message, exit code 2 and no stack trace', async () => {
    const run = await runCli('cli/deploy.ts', [...out, '--test-token'], { RPC_URL: env.RPC_URL })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("--private-key: missing: the deployer's key: pass --private-key or set DEPLOYER_PRIVATE_KEY")
    expect(run.stderr).toContain('usage:')
    expect(run.stderr).not.toMatch(/^\s+at /m)
    expect(run.stdout).toBe('')
  })

  test('behavior: an unreachable chain fails in one line, exit code 1, no stack trace', async () => {
    const run = await runCli('cli/deploy.ts', [...out, '--test-token'], { ...env, RPC_URL: 'http://127.0.0.1:9' })
    expect(run.stderr).not.toContain('usage:')
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^deploy failed: /m)
    expect(run.stderr).not.toMatch(/^\s+at /m)
    expect(run.stderr).not.toContain(key.slice(2))
  })

  test('behavior: --help prints the usage to stdout and exits 0, whatever else is on the line', async () => {
    const run = await runCliWithTsx('cli/deploy.ts', ['--test-token', '--help'], {})
    expect(run).toMatchObject({ code: 0, stderr: '' })
    expect(run.stdout).toMatch(/^usage:\n  npm run deploy -- --rpc-url <url> --out <file> \(--token <address> \| --test-token\)\n +--paymaster-signer <address>/)
    for (const listed of ['--owner <address>', '--keystore <file>', 'DEPLOYER_KEYSTORE_PASSWORD', 'DEPLOYER_PRIVATE_KEY', 'acceptOwnership()', '--private-key <0x…>']) expect(run.stdout).toContain(listed)
  })

  test('behavior: an unknown flag, a flag without its value and a malformed number are each named with what is wrong', () => {
    expect(usageMessage([...out, '--test-token', '--gas-price', '1'])).toBe('--gas-price: unknown flag (--help lists them)')
    expect(usageMessage([...out, '--test-token', '--treasury'])).toBe('--treasury: missing its value')
    expect(usageMessage([...out, '--test-token', '--retail-fee-bps', 'ten'])).toBe('--retail-fee-bps: a fee in basis points from 0 to 1000')
    expect(usageMessage([...out, '--test-token', '--rpc-url', 'ftp://rpc.example'])).toBe("--rpc-url: the chain's JSON-RPC endpoint, an http(s) URL")
  })
})

describe('npm run deploy: the roles', () => {
  test('behavior: without --paymaster-signer the command is refused, naming the flag and what it wants', () => {
    expect(usageMessage(['--out', '/tmp/deployment.json', '--test-token'])).toBe(
      "--paymaster-signer: missing: the paymaster's signer: pass --paymaster-signer <address>, the address of a key only the server holds (not the deployer's)",
    )
    expect(usageMessage([...out, '--test-token', '--paymaster-signer', 'server'])).toBe('--paymaster-signer: an EVM address')
  })

  test('behavior: the deployer as signer, or the signer as owner, is refused: the server would hold owner powers', () => {
    expect(usageMessage([...out, '--test-token', '--paymaster-signer', deployer.toLowerCase()])).toBe(
      `--paymaster-signer: ${deployer} is the deployer, which owns the registry and the paymaster: pass the address of another key, one only the server holds`,
    )
    expect(usageMessage([...out, '--test-token', '--owner', signer.toLowerCase()])).toBe(
      `--owner: ${signer} is also --paymaster-signer, the server's key: pass the owner's own address (a multisig)`,
    )
  })

  test('behavior: --owner the deployer itself is no hand-over; a keystore is opened later, so its roles are checked then', () => {
    expect(checkRoles(parseDeployCommand([...out, '--test-token', '--owner', deployer], env), deployer).owner).toBeUndefined()
    const command = parseDeployCommand([...out, '--test-token', '--keystore', '/keys/deployer.json'], { ...env, DEPLOYER_KEYSTORE_PASSWORD: 'pw' })
    expect(command.deployerKey).toEqual({ keystore: '/keys/deployer.json', password: 'pw' })
    expect(() => checkRoles(command, signer)).toThrow(UsageError)
  })

  test('behavior: one deployer key: --private-key and --keystore together are refused; a flag wins over DEPLOYER_PRIVATE_KEY', () => {
    expect(usageMessage([...out, '--test-token', '--private-key', key, '--keystore', '/k.json'])).toBe('--private-key, --keystore: pass one deployer key, not both')
    expect(parseDeployCommand([...out, '--test-token', '--keystore', '/k.json'], env).deployerKey).toEqual({ keystore: '/k.json', password: undefined })
  })
})

describe('npm run share-link: the command line', () => {
  test('behavior: --help prints the usage and exits 0 without a devnet', async () => {
    const run = await runCliWithTsx('cli/shareLink.ts', ['--help'], { SVC_DEVNET_DIR: '/nonexistent' })
    expect(run).toMatchObject({ code: 0, stderr: '' })
    expect(run.stdout).toContain('npm run share-link -- --invoice <id> [--label <label>]')
  })

  test('behavior: a missing invoice is named with what it wants, exit code 2', async () => {
    const run = await runCli('cli/shareLink.ts', [], { SVC_DEVNET_DIR: '/nonexistent' })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("--invoice: missing: the invoice's id on the registry, a whole number")
  })
})
