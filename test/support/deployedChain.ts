import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseEther, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { parseDeployCommand } from '../../cli/deployCommand'
import { runDeploy } from '../../cli/runDeploy'
import { configSchema, type Config } from '../../server/config'
import { startAnvil, type Anvil } from '../../devnet/anvil'
import { devnetClients } from '../../devnet/deploy'
import { createMerchant, createPayer, issueInvoice } from '../../devnet/seed'
import { readPinnedDeployment } from '../../build/readPinnedDeployment'

/** Fresh keys, not anvil's: the addresses follow from the contracts and their arguments, nothing else. */
export const deployKeys = { deployer: generatePrivateKey(), paymasterSigner: generatePrivateKey(), bundler: generatePrivateKey() }
export const deployer = privateKeyToAccount(deployKeys.deployer)

export type FreshChain = { anvil: Anvil; chainId: number; out: string }

/** An anvil with nothing of ours on it, the deployer and the bundler funded; `out` is where its deployment file goes. */
export async function freshChain(chainId: number): Promise<FreshChain> {
  const anvil = await startAnvil({ chainId })
  const { public: client } = devnetClients(anvil.rpcUrl, chainId)
  for (const address of [deployer.address, privateKeyToAccount(deployKeys.bundler).address]) {
    await client.request({ method: 'anvil_setBalance' as never, params: [address, `0x${parseEther('1000').toString(16)}`] as never })
  }
  // where the deployment file goes: the chain's own, gone when it stops
  const outDir = mkdtempSync(join(tmpdir(), 'svc-deploy-'))
  const stop = async () => {
    await anvil.stop()
    rmSync(outDir, { recursive: true, force: true })
  }
  return { anvil: { ...anvil, stop }, chainId, out: join(outDir, `deployment-${chainId}.json`) }
}

/** `npm run deploy`'s arguments and environment for a chain. */
export function deployArgs(chain: FreshChain, token: ['--test-token'] | ['--token', Address] = ['--test-token']) {
  return ['--out', chain.out, ...token, '--paymaster-signer', privateKeyToAccount(deployKeys.paymasterSigner).address, '--paymaster-deposit', '5']
}

export const deployEnv = (chain: FreshChain) => ({ RPC_URL: chain.anvil.rpcUrl, DEPLOYER_PRIVATE_KEY: deployKeys.deployer as Hex })

/** The command's work in this process. */
export function deployTo(chain: FreshChain, report: (line: string) => void = () => {}, token?: ['--token', Address]) {
  return runDeploy(parseDeployCommand(deployArgs(chain, token), deployEnv(chain)), report)
}

/** A merchant with one open invoice and a payer whose undeployed vault holds enough, on a chain the
 * command deployed to (our test token: the deployer is its faucet). */
export async function seedPayment(chain: FreshChain, amount: bigint) {
  const clients = devnetClients(chain.anvil.rpcUrl, chain.chainId, deployer)
  const deployment = readPinnedDeployment(chain.out)
  const merchant = await createMerchant(clients, deployment)
  const { timestamp } = await clients.public.getBlock()
  const invoice = await issueInvoice(chain.anvil.rpcUrl, deployment, merchant, { amount, dueAt: timestamp + 86_400n, metaHash: `0x${'ab'.repeat(32)}` })
  const payer = await createPayer(clients, deployment, amount * 4n)
  return { clients, deployment, merchant, invoice, payer }
}

/** The server as an operator runs it from the environment `npm run deploy` printed, plus its own keys. */
export function deployedServerConfig(serverEnvironment: Record<string, string>): Config {
  return configSchema.parse({
    ...serverEnvironment,
    PORT: '0',
    DATA_DIR: 'memory://',
    METADATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    BUNDLER_PRIVATE_KEY: deployKeys.bundler,
    PAYMASTER_SIGNER_PRIVATE_KEY: deployKeys.paymasterSigner,
    SUBMIT_WAIT_MS: '10000',
  })
}
