import { parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { parseDeployCommand } from '../../cli/deployCommand'
import { UsageError } from '../../cli/usageError'
import { runCli } from '../support/runCli'

const key = generatePrivateKey()
const deployer = privateKeyToAccount(key).address
const env = { RPC_URL: 'http://127.0.0.1:8545', DEPLOYER_PRIVATE_KEY: key }
const out = ['--out', '/tmp/deployment.json']

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
  test('default: RPC_URL and DEPLOYER_PRIVATE_KEY stand in for the flags; the deployer is signer, treasury and owner unless told', () => {
    expect(parseDeployCommand([...out, '--test-token'], env)).toEqual({
      rpcUrl: 'http://127.0.0.1:8545',
      privateKey: key,
      out: '/tmp/deployment.json',
      token: 'test',
      paymasterSigner: deployer,
      treasury: deployer,
      retailFeeBps: 100,
      paymasterFunding: { deposit: parseEther('0.1'), stake: parseEther('0.1'), unstakeDelaySec: 86_400 },
      publicRpcUrls: ['http://127.0.0.1:8545'],
      chainName: undefined,
      explorerUrl: undefined,
    })
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
      privateKey: other,
      token: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      treasury: privateKeyToAccount(other).address,
      retailFeeBps: 50,
      paymasterFunding: { deposit: parseEther('0.25'), stake: 0n, unstakeDelaySec: 3600 },
      publicRpcUrls: ['https://a.example', 'https://b.example'],
      chainName: 'Ethereum',
    })
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
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^deploy failed: /m)
    expect(run.stderr).not.toMatch(/^\s+at /m)
    expect(run.stderr).not.toContain(key.slice(2))
  })

  test('behavior: --help prints the usage to stdout and exits 0, whatever else is on the line', async () => {
    const run = await runCli('cli/deploy.ts', ['--test-token', '--help'], {})
    expect(run).toMatchObject({ code: 0, stderr: '' })
    expect(run.stdout).toMatch(/^usage:\n  npm run deploy -- --rpc-url <url> --private-key <0x…> --out <file>/)
  })

  test('behavior: an unknown flag, a flag without its value and a malformed number are each named with what is wrong', () => {
    expect(usageMessage([...out, '--test-token', '--gas-price', '1'])).toBe('--gas-price: unknown flag (--help lists them)')
    expect(usageMessage([...out, '--test-token', '--treasury'])).toBe('--treasury: missing its value')
    expect(usageMessage([...out, '--test-token', '--retail-fee-bps', 'ten'])).toBe('--retail-fee-bps: a fee in basis points from 0 to 1000')
    expect(usageMessage([...out, '--test-token', '--rpc-url', 'ftp://rpc.example'])).toBe("--rpc-url: the chain's JSON-RPC endpoint, an http(s) URL")
  })
})

describe('npm run share-link: the command line', () => {
  test('behavior: --help prints the usage and exits 0 without a devnet', async () => {
    const run = await runCli('cli/shareLink.ts', ['--help'], { SVC_DEVNET_DIR: '/nonexistent' })
    expect(run).toMatchObject({ code: 0, stderr: '' })
    expect(run.stdout).toContain('npm run share-link -- --invoice <id> [--label <label>]')
  })

  test('behavior: a missing invoice is named with what it wants, exit code 2', async () => {
    const run = await runCli('cli/shareLink.ts', [], { SVC_DEVNET_DIR: '/nonexistent' })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("--invoice: missing: the invoice's id on the registry, a whole number")
  })
})
