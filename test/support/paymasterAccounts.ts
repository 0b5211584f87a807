import { createRequire } from 'node:module'
import { encodeFunctionData, getAddress, hexToBigInt, numberToHex, parseAbi, type Abi, type Address, type Hex, type LocalAccount } from 'viem'
import { getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
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

/** The gas fields the paymaster service holds to what an operation measures in simulation. */
export const measuredGasFields = ['verificationGasLimit', 'callGasLimit', 'preVerificationGas'] as const

/** An operation's fields as ERC-7677 carries them: quantities in hex. */
export const paymasterWire = (op: Record<string, unknown>, fields: Record<string, unknown> = {}) => ({
  ...Object.fromEntries(Object.entries(op).map(([key, value]) => [key, typeof value === 'bigint' ? hex(value) : value])),
  ...fields,
})

export type PaymasterAsk = { serviceUrl: string; entryPoint: Address; chainId: number; client?: string | undefined; fields?: Record<string, unknown> }

let paymasterRequestId = 0
/** One ERC-7677 call to the service at `serviceUrl`, from the client address `client` (X-Forwarded-For). */
export async function paymasterRpc(serviceUrl: string, method: string, params: unknown[], client = '203.0.113.7') {
  const id = ++paymasterRequestId
  const response = await fetch(serviceUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  })
  return { id, status: response.status, body: (await response.json()) as any, cors: response.headers.get('access-control-allow-origin') }
}

/**
 * pm_getPaymasterData as a wallet asks for it that wants the most the service pays: each gas field the
 * service holds above what the operation measured (GAS_LIMIT_TOO_HIGH, naming the field and its max)
 * is lowered to that max, and asked again. The operation as signed for, and the answer.
 */
export async function sponsoredAtCeilings<T extends Record<string, unknown>>(op: T, { serviceUrl, entryPoint, chainId, client, fields = {} }: PaymasterAsk) {
  let asked = op
  // a field lowered changes the operation's bytes, so another's measure may move a little: ask until it holds
  for (let attempt = 0; attempt < 8; attempt++) {
    const answer = await paymasterRpc(serviceUrl, 'pm_getPaymasterData', [paymasterWire(asked, fields), entryPoint, hex(chainId), {}], client)
    const refusal = answer.body.error?.data
    if (refusal?.code !== 'GAS_LIMIT_TOO_HIGH' || !measuredGasFields.includes(refusal.field)) return { op: asked, answer }
    asked = { ...asked, [refusal.field]: BigInt(refusal.max) }
  }
  throw new Error('the service kept refusing the gas fields')
}

/** The paymaster fields pm_getPaymasterData answered for EntryPoint v0.7 (quantities in hex). */
export type SponsoredFields = { paymaster: Address; paymasterData: Hex; paymasterVerificationGasLimit: Hex; paymasterPostOpGasLimit: Hex }

/**
 * `op` with the service's paymaster fields, signed as SimpleAccount 0.7.0 checks it: its owner's
 * EIP-191 signature of the operation's hash. What a wallet sends once it is sponsored.
 */
export async function signedSponsoredOp(op: Omit<UserOperation<'0.7'>, 'signature'>, sponsored: SponsoredFields, owner: LocalAccount, { chainId, entryPoint }: { chainId: number; entryPoint: Address }) {
  const userOp: UserOperation<'0.7'> = {
    ...op,
    paymaster: getAddress(sponsored.paymaster),
    paymasterData: sponsored.paymasterData,
    paymasterVerificationGasLimit: hexToBigInt(sponsored.paymasterVerificationGasLimit),
    paymasterPostOpGasLimit: hexToBigInt(sponsored.paymasterPostOpGasLimit),
    signature: '0x',
  }
  const userOpHash = getUserOperationHash({ userOperation: userOp, chainId, entryPointAddress: entryPoint, entryPointVersion: '0.7' })
  return { userOp: { ...userOp, signature: await owner.signMessage({ message: { raw: userOpHash } }) }, userOpHash }
}
