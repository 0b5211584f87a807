import {
  concat,
  createPublicClient,
  createWalletClient,
  getAddress,
  http,
  parseEther,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type WalletClient,
} from 'viem'
import { entryPoint07Address } from 'viem/account-abstraction'
import { mnemonicToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { entryPointBytecode } from '../../contracts/artifacts/EntryPoint'
import { invoiceRegistryAbi, invoiceRegistryBytecode } from '../../contracts/artifacts/InvoiceRegistry'
import { payerVaultFactoryAbi, payerVaultFactoryBytecode } from '../../contracts/artifacts/PayerVaultFactory'
import { stablecoinAbi, stablecoinBytecode } from '../../contracts/artifacts/Stablecoin'
import { verifyingPaymasterAbi, verifyingPaymasterBytecode } from '../../contracts/artifacts/VerifyingPaymaster'
import type { Deployment } from '../../src/shared/deployment'

/** Arachnid's deterministic deployer, present on anvil from genesis. */
const create2Deployer: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c'
/** The salt the eth-infinitism release used: with the packaged bytecode it yields 0x0000000071727De2…. */
const entryPointSalt: Hex = '0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3'

/** anvil's public test mnemonic: these keys are devnet-only and known to everyone. */
const devMnemonic = 'test test test test test test test test test test test junk'

export const devnetRoles = {
  deployer: mnemonicToAccount(devMnemonic, { addressIndex: 0 }),
  bundler: mnemonicToAccount(devMnemonic, { addressIndex: 1 }),
  paymasterSigner: mnemonicToAccount(devMnemonic, { addressIndex: 2 }),
  treasury: mnemonicToAccount(devMnemonic, { addressIndex: 3 }),
  // a third-party bundler in tests (alto) signs with its own accounts: sharing `bundler`'s would race
  // the local executor for nonces
  externalBundlerExecutor: mnemonicToAccount(devMnemonic, { addressIndex: 5 }),
  externalBundlerUtility: mnemonicToAccount(devMnemonic, { addressIndex: 6 }),
}

const devnetRetailFeeBps = 100
const paymasterDeposit = parseEther('100')
const paymasterStake = parseEther('1')
const paymasterUnstakeDelay = 86_400

function devnetChain(chainId: number, rpcUrl: string): Chain {
  return { ...foundry, id: chainId, rpcUrls: { default: { http: [rpcUrl] } } }
}

export type DevnetClients = { public: PublicClient; wallet: WalletClient<ReturnType<typeof http>, Chain, Account> }

export function devnetClients(rpcUrl: string, chainId: number, account: Account = devnetRoles.deployer): DevnetClients {
  const chain = devnetChain(chainId, rpcUrl)
  // anvil mines on demand: a short polling interval keeps receipts from waiting on the default 4 s
  const transport = http(rpcUrl, { batch: false })
  return {
    public: createPublicClient({ chain, transport, pollingInterval: 50 }),
    wallet: createWalletClient({ chain, transport, account, pollingInterval: 50 }),
  }
}

export async function mined(client: PublicClient, hash: Hex) {
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`)
  return receipt
}

async function deployedAt(client: PublicClient, hash: Hex): Promise<Address> {
  const { contractAddress } = await mined(client, hash)
  if (!contractAddress) throw new Error(`transaction ${hash} created no contract`)
  return getAddress(contractAddress)
}

/** EntryPoint v0.7 at its canonical address, built from the package's artifact through CREATE2. Its
 * constructor creates SenderCreator, so copying runtime code (anvil_setCode) would not do. */
async function deployEntryPoint(clients: DevnetClients): Promise<Address> {
  const existing = await clients.public.getCode({ address: entryPoint07Address })
  if (existing && existing !== '0x') return entryPoint07Address
  const hash = await clients.wallet.sendTransaction({ to: create2Deployer, data: concat([entryPointSalt, entryPointBytecode]) })
  await mined(clients.public, hash)
  const code = await clients.public.getCode({ address: entryPoint07Address })
  if (!code || code === '0x') throw new Error('EntryPoint did not land at its canonical address')
  return entryPoint07Address
}

/** Deploys EntryPoint, token, registry, vault factory and a staked, funded VerifyingPaymaster. */
export async function deployContracts(clients: DevnetClients): Promise<Deployment> {
  const chainId = await clients.public.getChainId()
  const deployer = devnetRoles.deployer.address
  const entryPoint = await deployEntryPoint(clients)
  const { wallet, public: client } = clients
  const token = await deployedAt(client, await wallet.deployContract({ abi: stablecoinAbi, bytecode: stablecoinBytecode, args: [deployer] }))
  const registry = await deployedAt(
    client,
    await wallet.deployContract({
      abi: invoiceRegistryAbi,
      bytecode: invoiceRegistryBytecode,
      args: [deployer, devnetRoles.treasury.address, devnetRetailFeeBps],
    }),
  )
  const vaultFactory = await deployedAt(
    client,
    await wallet.deployContract({ abi: payerVaultFactoryAbi, bytecode: payerVaultFactoryBytecode, args: [entryPoint] }),
  )
  const paymaster = await deployedAt(
    client,
    await wallet.deployContract({
      abi: verifyingPaymasterAbi,
      bytecode: verifyingPaymasterBytecode,
      args: [entryPoint, devnetRoles.paymasterSigner.address],
    }),
  )
  await mined(client, await wallet.writeContract({ address: registry, abi: invoiceRegistryAbi, functionName: 'setAcceptedToken', args: [token, true] }))
  await mined(client, await wallet.writeContract({ address: paymaster, abi: verifyingPaymasterAbi, functionName: 'deposit', value: paymasterDeposit }))
  await mined(
    client,
    await wallet.writeContract({
      address: paymaster,
      abi: verifyingPaymasterAbi,
      functionName: 'addStake',
      args: [paymasterUnstakeDelay],
      value: paymasterStake,
    }),
  )
  return { chainId, entryPoint, token, registry, vaultFactory, paymaster }
}
