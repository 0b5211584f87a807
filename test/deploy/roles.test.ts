import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseAbi, parseEther, type Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { ownedVerifyingPaymasterAbi } from '../../contracts/artifacts/OwnedVerifyingPaymaster'
import { readPinnedDeployment } from '../../build/readPinnedDeployment'
import { devnetClients, mined } from '../../devnet/deploy'
import { deployArgs, deployEnv, deployer, deployKeys, freshChain, type FreshChain } from '../support/deployedChain'
import { encryptKeystore } from '../support/encryptKeystore'
import { runCli } from '../support/runCli'

/** Any transaction mines a block; any of the deployer's bumps its nonce. */
async function chainState(chain: FreshChain) {
  const { public: client } = devnetClients(chain.anvil.rpcUrl, chain.chainId)
  return { block: await client.getBlockNumber({ cacheTime: 0 }), deployerNonce: await client.getTransactionCount({ address: deployer.address }) }
}

const ownerKey = generatePrivateKey()
const owner = privateKeyToAccount(ownerKey)
const signer = privateKeyToAccount(deployKeys.paymasterSigner).address
const keystorePassword = 'correct horse battery staple'
const keystoreDir = mkdtempSync(join(tmpdir(), 'svc-roles-'))
afterAll(() => rmSync(keystoreDir, { recursive: true, force: true }))
const keystore = join(keystoreDir, 'deployer.json')
writeFileSync(keystore, JSON.stringify(encryptKeystore(deployKeys.deployer, keystorePassword)))

let chain: FreshChain

/** Who owns a contract, and who was offered it; the registry's and the paymaster's ABIs agree on both. */
async function ownership(contract: Address, abi: typeof invoiceRegistryAbi | typeof ownedVerifyingPaymasterAbi = invoiceRegistryAbi) {
  const { public: client } = devnetClients(chain.anvil.rpcUrl, chain.chainId)
  return {
    owner: await client.readContract({ address: contract, abi: abi as typeof invoiceRegistryAbi, functionName: 'owner' }),
    pendingOwner: await client.readContract({ address: contract, abi: abi as typeof invoiceRegistryAbi, functionName: 'pendingOwner' }),
  }
}

describe('npm run deploy: roles', () => {
  beforeAll(async () => {
    chain = await freshChain(48_011)
  })

  afterAll(async () => {
    await chain.anvil.stop()
  })

  test('behavior: a deploy without --paymaster-signer exits 2 naming the flag, and sends nothing', async () => {
    const before = await chainState(chain)
    const run = await runCli('cli/deploy.ts', ['--out', chain.out, '--test-token'], deployEnv(chain))
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("--paymaster-signer: missing: the paymaster's signer: pass --paymaster-signer <address>")
    expect(run.stdout).toBe('')
    expect(await chainState(chain)).toEqual(before)
    expect(before.deployerNonce).toBe(0)
  })

  test('behavior: the deployer as its own signer is refused before anything is sent, whether its key comes from DEPLOYER_PRIVATE_KEY or a keystore', async () => {
    const before = await chainState(chain)
    const refusal = `--paymaster-signer: ${deployer.address} is the deployer, which owns the registry and the paymaster`
    const fromEnv = await runCli('cli/deploy.ts', ['--out', chain.out, '--test-token', '--paymaster-signer', deployer.address], deployEnv(chain))
    expect({ code: fromEnv.code, stdout: fromEnv.stdout }).toEqual({ code: 2, stdout: '' })
    expect(fromEnv.stderr).toContain(refusal)
    // a keystore's address is known only once it is open: the same refusal, after the password
    const fromKeystore = await runCli('cli/deploy.ts', ['--out', chain.out, '--test-token', '--paymaster-signer', deployer.address, '--keystore', keystore], {
      RPC_URL: chain.anvil.rpcUrl,
      DEPLOYER_KEYSTORE_PASSWORD: keystorePassword,
    })
    expect({ code: fromKeystore.code, stdout: fromKeystore.stdout }).toEqual({ code: 2, stdout: '' })
    expect(fromKeystore.stderr).toContain(refusal)
    expect(await chainState(chain)).toEqual(before)
  }, 30_000)

  test('behavior: a keystore deploy with --owner offers the registry and the paymaster to the owner, who owns both once it accepts', async () => {
    const run = await runCli('cli/deploy.ts', [...deployArgs(chain), '--owner', owner.address, '--keystore', keystore], {
      RPC_URL: chain.anvil.rpcUrl,
      DEPLOYER_KEYSTORE_PASSWORD: keystorePassword,
    })
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 })
    expect(run.stderr).not.toContain('warning')
    const { registry, paymaster } = readPinnedDeployment(chain.out)
    expect(run.stderr).toContain(`to finish: ${owner.address} must call acceptOwnership() on the registry (${registry}) and the paymaster (${paymaster})`)
    expect(await ownership(registry)).toEqual({ owner: deployer.address, pendingOwner: owner.address })
    expect(await ownership(paymaster, ownedVerifyingPaymasterAbi)).toEqual({ owner: deployer.address, pendingOwner: owner.address })
    const { public: client } = devnetClients(chain.anvil.rpcUrl, chain.chainId)
    expect(await client.readContract({ address: paymaster, abi: ownedVerifyingPaymasterAbi, functionName: 'verifyingSigner' })).toBe(signer)

    const ownerClients = devnetClients(chain.anvil.rpcUrl, chain.chainId, owner)
    await ownerClients.public.request({ method: 'anvil_setBalance' as never, params: [owner.address, `0x${parseEther('1').toString(16)}`] as never })
    await mined(ownerClients.public, await ownerClients.wallet.writeContract({ address: registry, abi: invoiceRegistryAbi, functionName: 'acceptOwnership' }))
    await mined(ownerClients.public, await ownerClients.wallet.writeContract({ address: paymaster, abi: ownedVerifyingPaymasterAbi, functionName: 'acceptOwnership' }))
    const zero = '0x0000000000000000000000000000000000000000'
    expect(await ownership(registry)).toEqual({ owner: owner.address, pendingOwner: zero })
    expect(await ownership(paymaster, ownedVerifyingPaymasterAbi)).toEqual({ owner: owner.address, pendingOwner: zero })

    // the v0.6 paymaster's Ownable moves in one step: it waits for the owner to have accepted the other paymaster
    const { paymasterV06 } = readPinnedDeployment(chain.out)
    expect(run.stderr).toContain(`paymaster v0.6 owner: ${deployer.address}; it passes to ${owner.address}`)
    const handOver = await runCli('cli/deploy.ts', [...deployArgs(chain), '--owner', owner.address], deployEnv(chain))
    expect({ code: handOver.code, stderr: handOver.stderr }).toMatchObject({ code: 0 })
    expect(handOver.stderr).toContain(`paymaster v0.6 owner: ${owner.address} (handed over)`)
    expect(handOver.stderr).toContain('sent 1 transaction')
    const ownerOf = parseAbi(['function owner() view returns (address)'])
    expect(await client.readContract({ address: paymasterV06!, abi: ownerOf, functionName: 'owner' })).toBe(owner.address)
  }, 60_000)

  test('behavior: once the owner has accepted, a rerun with DEPLOYER_PRIVATE_KEY sends nothing; --private-key works too, warning on stderr', async () => {
    const before = await chainState(chain)
    const fromEnv = await runCli('cli/deploy.ts', [...deployArgs(chain), '--owner', owner.address], deployEnv(chain))
    expect({ code: fromEnv.code, stderr: fromEnv.stderr }).toMatchObject({ code: 0 })
    expect(fromEnv.stderr).toContain('found everything in place: sent no transaction')
    expect(fromEnv.stderr).toContain(`registry owner: ${owner.address}, already`)
    expect(fromEnv.stderr).not.toContain('warning')

    const fromFlag = await runCli('cli/deploy.ts', [...deployArgs(chain), '--owner', owner.address, '--private-key', deployKeys.deployer], { RPC_URL: chain.anvil.rpcUrl })
    expect(fromFlag.code).toBe(0)
    expect(fromFlag.stderr).toMatch(/^warning: --private-key lands in shell history and in ps .*: set DEPLOYER_PRIVATE_KEY or pass --keystore <file> instead$/m)
    expect(fromFlag.stderr).not.toContain(deployKeys.deployer.slice(2))
    expect(await chainState(chain)).toEqual(before)
  }, 30_000)

  test('behavior: a stake the owner must add is refused with what the owner must call, and nothing is sent', async () => {
    const before = await chainState(chain)
    const { paymaster } = readPinnedDeployment(chain.out)
    const run = await runCli('cli/deploy.ts', [...deployArgs(chain), '--paymaster-stake', '2'], deployEnv(chain))
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`deploy failed: the paymaster ${paymaster} is owned by ${owner.address}, not the deployer: its owner must call addStake(86400) on it with`)
    expect(await chainState(chain)).toEqual(before)
  }, 30_000)
})
