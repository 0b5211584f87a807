import { createRequire } from 'node:module'
import { encodeFunctionData, numberToHex, parseAbi, type Abi, type Address, type Hex, type LocalAccount } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { devnetClients, mined, type DevnetClients } from '../../devnet/deploy'

const require = createRequire(import.meta.url)
type Artifact = { abi: Abi; bytecode: Hex }
const artifact = (pkg: '@account-abstraction/contracts' | '@account-abstraction/contracts-v06', name: string) => require(`${pkg}/artifacts/${name}.json`) as Artifact

/** eth-infinitism's SimpleAccountFactory, as released (0.7.0 and 0.6.0): accounts none of us wrote. */
export const simpleAccountFactoryV07 = artifact('@account-abstraction/contracts', 'SimpleAccountFactory')
export const simpleAccountFactoryV06 = artifact('@account-abstraction/contracts-v06', 'SimpleAccountFactory')

export const factoryAbi = parseAbi([
  'function createAccount(address owner, uint256 salt) returns (address)',
  'function getAddress(address owner, uint256 salt) view returns (address)',
])

/** A funded anvil account of its own: the server's bundler and the deployer keep their nonces. */
export const submitter = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 7 })

/** Deploys a SimpleAccountFactory for `entryPoint` from the deployer (plain CREATE: only tests use it). */
export async function deployFactory(clients: DevnetClients, factory: Artifact, entryPoint: Address): Promise<Address> {
  const hash = await clients.wallet.deployContract({ abi: factory.abi, bytecode: factory.bytecode, args: [entryPoint] })
  const receipt = await mined(clients.public, hash)
  return receipt.contractAddress!
}

/** The account a factory would make for `owner` (not deployed: the first operation's factory data deploys it). */
export async function accountOf(clients: DevnetClients, factory: Address, owner: LocalAccount, salt = 0n) {
  const sender = await clients.public.readContract({ address: factory, abi: factoryAbi, functionName: 'getAddress', args: [owner.address, salt] })
  const factoryData = encodeFunctionData({ abi: factoryAbi, functionName: 'createAccount', args: [owner.address, salt] })
  return { sender, factory, factoryData }
}

export const submitterClients = (rpcUrl: string, chainId: number) => devnetClients(rpcUrl, chainId, submitter)

/** Quantities as ERC-7677 (and every ERC-4337 RPC) writes them. */
export const hex = (value: bigint | number) => numberToHex(value)
