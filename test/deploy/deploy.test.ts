import { readFileSync } from 'node:fs'
import { encodeDeployData, getAddress, parseAbi, parseUnits, type Hex } from 'viem'
import { entryPoint06Abi } from 'viem/account-abstraction'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi, stablecoinBytecode } from '../../contracts/artifacts/Stablecoin'
import type { DeployOutcome } from '../../cli/runDeploy'
import { createServer } from '../../server/createServer'
import { checkoutSalt } from '../../deploy/deployCheckout'
import { create2Address, deterministicDeployer } from '../../deploy/deterministicDeployer'
import { devnetClients, mined } from '../../devnet/deploy'
import { silentLogger } from '../../server/http/logger'
import { readPinnedDeployment } from '../../build/readPinnedDeployment'
import { verifyPermitToSign } from '../../src/verify/verifyPermitToSign'
import { deployArgs, deployedServerConfig, deployEnv, deployer, deployTo, freshChain, seedPayment, type FreshChain } from '../support/deployedChain'
import { runCli } from '../support/runCli'
import { api, payThroughServer } from '../support/server'

/** What a second run could have changed: any transaction mines a block, any of the deployer's bumps its nonce. */
async function chainState(chain: FreshChain) {
  const { public: client } = devnetClients(chain.anvil.rpcUrl, chain.chainId)
  return { block: await client.getBlockNumber({ cacheTime: 0 }), deployerNonce: await client.getTransactionCount({ address: deployer.address }) }
}

const chains: FreshChain[] = []
let first: DeployOutcome
let second: DeployOutcome

describe('npm run deploy', () => {
  beforeAll(async () => {
    chains.push(await freshChain(48_001), await freshChain(48_002))
    // the first chain lacks the deterministic-deployment proxy, as a fresh chain may
    const { public: client } = devnetClients(chains[0]!.anvil.rpcUrl, chains[0]!.chainId)
    await client.request({ method: 'anvil_setCode' as never, params: [deterministicDeployer, '0x'] as never })
    first = await deployTo(chains[0]!)
    second = await deployTo(chains[1]!)
  })

  afterAll(async () => {
    await Promise.all(chains.map((chain) => chain.anvil.stop()))
  })

  test('behavior: two chains with different chain ids get identical addresses; the proxy lands at its canonical address where it was missing', async () => {
    const [a, b] = chains as [FreshChain, FreshChain]
    const addresses = ({ pinned }: DeployOutcome) => [pinned.entryPoint, pinned.token, pinned.registry, pinned.vaultFactory, pinned.paymaster]
    expect(addresses(first)).toEqual(addresses(second))
    expect([first.pinned.chainId, second.pinned.chainId]).toEqual([48_001, 48_002])
    expect(first.pinned.entryPoint).toBe('0x0000000071727De22E5E9d8BAf0edAc6f37da032')
    const proxyCode = (chain: FreshChain) => devnetClients(chain.anvil.rpcUrl, chain.chainId).public.getCode({ address: deterministicDeployer })
    expect(await proxyCode(a)).toBe(await proxyCode(b))
    expect(first.sent).toBeGreaterThan(second.sent)
  })

  test('behavior: EntryPoint v0.6 lands at its canonical address from the 0.6.0 release, and its VerifyingPaymaster at the same address on both chains, owned by the deployer, funded and staked', async () => {
    expect([first.pinned.entryPointV06, second.pinned.entryPointV06]).toEqual(['0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789', '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789'])
    expect(first.pinned.paymasterV06).toBe(second.pinned.paymasterV06)
    const { public: client } = devnetClients(chains[0]!.anvil.rpcUrl, chains[0]!.chainId)
    const paymasterV06 = first.pinned.paymasterV06!
    const ownable = parseAbi(['function owner() view returns (address)', 'function verifyingSigner() view returns (address)', 'function entryPoint() view returns (address)'])
    expect(await client.readContract({ address: paymasterV06, abi: ownable, functionName: 'owner' })).toBe(deployer.address)
    expect(await client.readContract({ address: paymasterV06, abi: ownable, functionName: 'entryPoint' })).toBe(first.pinned.entryPointV06)
    const info = await client.readContract({ address: first.pinned.entryPointV06!, abi: entryPoint06Abi, functionName: 'getDepositInfo', args: [paymasterV06] })
    expect(info.deposit).toBeGreaterThan(0n)
    expect(info.staked).toBe(true)
  })

  test('behavior: the written file is what the page build reads, the token facts as the chain states them, the server environment alongside', () => {
    const [a] = chains as [FreshChain, FreshChain]
    expect(readPinnedDeployment(a.out)).toEqual(first.pinned)
    expect(first.pinned).toMatchObject({ tokenSymbol: 'USDC', tokenDecimals: 6, permitDomain: { name: 'USD Coin', version: '2' }, rpcUrls: [a.anvil.rpcUrl] })
    expect(first.serverEnvironment).toEqual({
      RPC_URL: a.anvil.rpcUrl,
      CHAIN_ID: '48001',
      ENTRY_POINT_ADDRESS: first.pinned.entryPoint,
      TOKEN_ADDRESS: first.pinned.token,
      REGISTRY_ADDRESS: first.pinned.registry,
      VAULT_FACTORY_ADDRESS: first.pinned.vaultFactory,
      PAYMASTER_ADDRESS: first.pinned.paymaster,
      ENTRY_POINT_V06_ADDRESS: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
      PAYMASTER_V06_ADDRESS: first.pinned.paymasterV06,
      MERCHANT_VAULT_FACTORY_ADDRESS: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      SESSION_VALIDATOR_ADDRESS: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      REGISTRY_FROM_BLOCK: first.pinned.registryFromBlock,
    })
  })

  test('behavior: a second run of the command sends no transaction and says it found everything in place', async () => {
    const [, b] = chains as [FreshChain, FreshChain]
    const written = readFileSync(b.out, 'utf8')
    const before = await chainState(b)
    const run = await runCli('cli/deploy.ts', deployArgs(b), deployEnv(b))
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 })
    expect(run.stderr).toContain('found everything in place: sent no transaction')
    expect(run.stdout).toContain(`REGISTRY_ADDRESS=${second.pinned.registry}`)
    expect(run.stdout).toContain('CHAIN_ID=48002')
    expect(await chainState(b)).toEqual(before)
    expect(readFileSync(b.out, 'utf8')).toBe(written)
  })

  test('behavior: a payer pays on the second chain through a server configured by the printed environment, the permit checked against the written file', async () => {
    const [, b] = chains as [FreshChain, FreshChain]
    const amount = parseUnits('25', 6)
    const { clients, deployment, invoice, payer, merchant } = await seedPayment(b, amount)
    const server = await createServer(deployedServerConfig(second.serverEnvironment), { logger: silentLogger })
    try {
      // the merchant as a studio of the server, as `npm run keys -- create-studio` makes one: only its invoices are sponsored
      await server.stores.studios.createStudio({ vaultAddress: merchant.vault, chainId: deployment.chainId })
      const permit = await api(server.url, `/v1/pay/${invoice.id}/permit`, { payerAddress: payer.vault })
      expect(permit.status).toBe(200)
      const pageCheck = verifyPermitToSign(permit.body.permitToSign, {
        deployment,
        vault: payer.vault,
        invoice: { id: invoice.id, invoiceNumber: invoice.invoiceNumber, merchant: merchant.vault, amount, token: deployment.token, feeBps: 100 },
        nonce: 0n,
        now: Date.now(),
      })
      expect(pageCheck.ok ? [] : pageCheck.problems).toEqual([])

      const { submit } = await payThroughServer(server.url, invoice.id, payer)
      expect(submit.status).toBe(200)
      expect(submit.body.status).toBe('confirmed')
      expect((await api(server.url, `/v1/pay/${invoice.id}`)).body.data.status).toBe('Paid')
      const onChain = await clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [invoice.id] })
      expect(onChain.payer).toBe(payer.vault)
    } finally {
      await server.close()
    }
    // a fresh PGlite and its migrations take most of it, longer on a loaded machine
  }, 60_000)

  test('behavior: --token deploys no token: an existing permit token is accepted and its facts pinned from the chain', async () => {
    const chain = await freshChain(48_003)
    chains.push(chain)
    const issuer = devnetClients(chain.anvil.rpcUrl, chain.chainId)
    // a token that is not ours to place: deployed from another account, at a nonce address
    const { contractAddress } = await mined(issuer.public, await issuer.wallet.deployContract({ abi: stablecoinAbi, bytecode: stablecoinBytecode, args: [issuer.wallet.account.address] }))
    const token = getAddress(contractAddress!)
    const lines: string[] = []
    const outcome = await deployTo(chain, (line) => lines.push(line), ['--token', token])
    expect(outcome.pinned).toMatchObject({ token, tokenSymbol: 'USDC', tokenDecimals: 6, permitDomain: { name: 'USD Coin', version: '2' } })
    expect(lines).toContain(`token: in place at ${token}`)
    expect(outcome.pinned.registry).toBe(second.pinned.registry)
    expect(await issuer.public.readContract({ address: outcome.pinned.registry, abi: invoiceRegistryAbi, functionName: 'acceptedToken', args: [token] })).toBe(true)
    const testToken = create2Address(checkoutSalt, encodeDeployData({ abi: stablecoinAbi, bytecode: stablecoinBytecode, args: [deployer.address] }) as Hex)
    expect(await issuer.public.getCode({ address: testToken })).toBeUndefined()
  })
})
