import { signTypedData } from '@wagmi/core'
import { decodeFunctionResult, encodeFunctionData, getAddress, isAddressEqual, type Address, type Hex } from 'viem'
import merchantVaultDescriptor from '../../clear-signing/eip712-svc-checkout-MerchantVault.json'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { bindDescriptor, renderDescriptor, type Descriptor, type TypedDataRequest, type WalletKnowledge } from '../../shared/clearSigning/renderDescriptor'
import { unsignedVaultDeployment } from '../../shared/merchantVaultDeployment'
import { vaultFactoryAbi } from '../../shared/vaultFactoryAbi'
import { ownerOperationSignature } from '../../shared/merchantVaultMessage'
import type { WireUserOp } from '../../shared/userOpWire'
import { ethCall } from '../../src/chain/ethCall'
import { readBlockTime } from '../../src/chain/readBlockTime'
import { pinned } from '../../src/config/pinned'
import { createWagmiWallets, type WalletConnection } from '../../src/wallet/wagmiWallets'
import type { WalletChoice } from '../../src/wallet/walletChoice'
import { OwnerAccountMoved, ownerAccountIs, stillConnectedAs } from './ownerAccount'
import { watchOwnerWalletChoices } from './ownerWalletChoices'

/**
 * The studio owner's wallet in the dashboard, loaded only when an owner operation is started (the
 * first paint carries none of it): the pay page's wagmi wallets (EIP-6963 discovery, and WalletConnect
 * through the pay page's own bundle when the deployment names a project id), the MerchantVault's
 * ERC-7730 descriptor rendered by the same renderer the devnet wallet prompts payers with, and the
 * signature the vault reads. Nothing is signed that the merchant has not been shown in words first, and
 * nothing for an account the wallet is no longer on.
 */

/** A prepare answer of the owner routes (SPEC 4.10, 4.11, 4.17): the operation and its typed message. */
export type PreparedOperation = { userOp: Record<string, unknown>; typedDataToSign: TypedDataRequest & { domain: { chainId: number; verifyingContract: string } } }

/** What the merchant reads before signing: the descriptor's intent and its lines, "Label: value". */
export type OwnerPrompt = { intent: string; lines: string[] }

/** The studio whose vault may be named in a message: anything else is refused before the prompt. */
export type OwnerStudio = { vaultAddress: Address; vaultChainId: number }

export class OwnerWalletRefusal extends Error {}

const descriptor = merchantVaultDescriptor as unknown as Descriptor
const wallets = createWagmiWallets(pinned, location.origin)

/** The connected wallet's node: the dashboard reads the chain through the owner's own wallet (it may
 * reach only this server and the identity provider itself), on the chain the wallet was moved to. */
async function walletNode() {
  const provider = await wallets.provider()
  return (method: string, params?: readonly unknown[]) => provider.request({ method, params: params as unknown[] })
}

/** ERC-1167's minimal proxy, around the 20 bytes of the address it delegates every call to. */
const clonePrefix = '0x363d3d373d3d3d363d73'
const cloneSuffix = '5af43d82803e903d91602b57fd5bf3'

/** The implementation a merchant vault runs: the factory deploys each as an ERC-1167 clone (contracts/
 * MerchantVaultFactory.sol), whose code names it. Undefined when the code is no such clone. */
async function readCloneImplementation(node: Awaited<ReturnType<typeof walletNode>>, vault: Address): Promise<Address | undefined> {
  const code = String(await node('eth_getCode', [vault, 'latest']).catch(() => '0x')).toLowerCase()
  if (code.length !== clonePrefix.length + 40 + cloneSuffix.length || !code.startsWith(clonePrefix) || !code.endsWith(cloneSuffix)) return undefined
  return getAddress(`0x${code.slice(clonePrefix.length, clonePrefix.length + 40)}`)
}

const vaultImplementationAbi = { type: 'function', name: 'vaultImplementation', stateMutability: 'view', inputs: [], outputs: [{ type: 'address' }] } as const

function merchantFactory(): Address {
  if (!pinned.merchantVaultFactory) throw new OwnerWalletRefusal('This deployment names no merchant vault factory, so no vault can be created here.')
  return pinned.merchantVaultFactory
}

/** Where the pinned factory deploys `owner`'s vault (salt 0, one vault per owner wallet). */
export async function predictedVault(owner: Address): Promise<Address> {
  const provider = await wallets.provider()
  // the merchant factory's getAddress(owner, salt) is the payer factory's
  const data = encodeFunctionData({ abi: vaultFactoryAbi, functionName: 'getAddress', args: [owner, 0n] })
  return getAddress(decodeFunctionResult({ abi: vaultFactoryAbi, functionName: 'getAddress', data: await ethCall(provider, merchantFactory(), data) }))
}

/** The factory's implementation, when `vault` is where the factory deploys `owner`'s vault. */
async function factoryImplementationFor(owner: Address, vault: Address): Promise<Address | undefined> {
  try {
    if (!isAddressEqual(await predictedVault(owner), vault)) return undefined
    const provider = await wallets.provider()
    const data = encodeFunctionData({ abi: [vaultImplementationAbi], functionName: 'vaultImplementation' })
    return getAddress(decodeFunctionResult({ abi: [vaultImplementationAbi], functionName: 'vaultImplementation', data: await ethCall(provider, merchantFactory(), data) }))
  } catch {
    return undefined
  }
}

/** The unsigned operation that deploys the owner's vault (SPEC 4.3), as POST /v1/studios/prepare takes it. */
export function vaultDeployment(owner: Address, vault: Address): WireUserOp {
  return unsignedVaultDeployment({ factory: merchantFactory(), vault, owner, token: pinned.token })
}

/** The browser's wallets (EIP-6963 and a legacy injected one) as they are discovered, and WalletConnect
 * when the deployment names a project id. */
export function watchOwnerWallets(onChange: (choices: WalletChoice[]) => void): () => void {
  return watchOwnerWalletChoices(wallets, onChange)
}

let following: (() => void) | null = null

/** Connects the chosen wallet and moves it to the pinned chain; from then on the dashboard follows
 * the account and chain the wallet is on (connectedOwner), as wagmi hears of them. */
export async function connectOwnerWallet(choice: WalletChoice): Promise<Address> {
  const owner = await wallets.connect(choice)
  await moveToPinnedChain()
  following ??= wallets.watchConnection(ownerAccountIs)
  ownerAccountIs(wallets.connection())
  return owner
}

/** A wallet signs a typed message for the chain it is on only: one moved to another network since it
 * was connected is asked to move back before anything is prepared for it. */
export async function moveToPinnedChain(): Promise<void> {
  if (wallets.connection()?.chainId !== pinned.chainId) await wallets.switchToPinnedChain()
}

/** The account and chain the connected wallet is on, asked of the wallet itself rather than taken
 * from its last event: a wallet may switch accounts without a word. Null once it shares no account. */
export async function ownerAccountNow(): Promise<WalletConnection> {
  const node = await walletNode()
  const [accounts, chainId] = await Promise.all([node('eth_accounts'), node('eth_chainId')])
  const [account] = (accounts ?? []) as string[]
  const now = account ? { owner: getAddress(account), chainId: Number(chainId) } : null
  ownerAccountIs(now)
  return now
}

/** Refuses (OwnerAccountMoved) unless the wallet is still `owner` on the pinned chain. */
async function assertStillConnectedAs(owner: Address): Promise<void> {
  const now = await ownerAccountNow()
  if (!stillConnectedAs(now, owner, pinned.chainId)) throw new OwnerAccountMoved(owner, now)
}

/**
 * The message in words, or a refusal: its domain must be the studio's own vault on the pinned chain,
 * and the vault's descriptor must bind it (the vault proxies to the implementation it lists), so the
 * lines the merchant reads are exactly the fields the wallet will sign.
 */
export async function describeOwnerOperation(prepared: PreparedOperation, studio: OwnerStudio, owner: Address): Promise<OwnerPrompt> {
  const { domain } = prepared.typedDataToSign
  if (Number(domain.chainId) !== pinned.chainId || studio.vaultChainId !== pinned.chainId) {
    throw new OwnerWalletRefusal(`The message is for chain ${domain.chainId}, not chain ${pinned.chainId} your vault is on. Nothing was signed.`)
  }
  if (typeof domain.verifyingContract !== 'string' || !isAddressEqual(domain.verifyingContract as Address, studio.vaultAddress)) {
    throw new OwnerWalletRefusal(`The message is for ${domain.verifyingContract}, not your studio's vault ${studio.vaultAddress}. Nothing was signed.`)
  }
  const vault = getAddress(studio.vaultAddress)
  const node = await walletNode()
  // a vault not yet deployed (its first operation deploys it) is the clone the factory will make
  const implementation = (await readCloneImplementation(node, vault)) ?? (await factoryImplementationFor(owner, vault))
  const knowledge: WalletKnowledge = {
    tokens: [{ chainId: pinned.chainId, address: getAddress(pinned.token), ticker: pinned.tokenSymbol, decimals: pinned.tokenDecimals }],
    names: { [vault]: 'Your vault', [getAddress(pinned.registry)]: 'Invoice registry' },
    from: owner,
    implementationOf: (chainId, address) => (chainId === pinned.chainId && address === vault ? implementation : undefined),
  }
  const bound = bindDescriptor(descriptor, prepared.typedDataToSign, knowledge)
  if ('refused' in bound) throw new OwnerWalletRefusal(`This message cannot be shown in words (${bound.refused}). Nothing was signed.`)
  const screen = renderDescriptor(descriptor, prepared.typedDataToSign, knowledge)
  // a prompt is shown for the account the wallet is on, never for one it has left while this was prepared
  await assertStillConnectedAs(owner)
  return { intent: screen.interpolatedIntent ?? screen.intent, lines: screen.lines }
}

/** The owner signs the typed message in their wallet (eth_signTypedData_v4); the operation carries the
 * message's validUntil before the signature, as the vault reads it. */
export async function signOwnerOperation(prepared: PreparedOperation, owner: Address): Promise<Record<string, unknown>> {
  // the merchant read the prompt for `owner`: a wallet on another account or chain by now signs nothing
  await assertStillConnectedAs(owner)
  const { domain, types, primaryType, message } = prepared.typedDataToSign
  const fields = types[primaryType] ?? []
  // the answer's integers are decimal strings (JSON has no bigint); the wallet is handed numbers
  const typed = Object.fromEntries(fields.map(({ name, type }) => [name, type.startsWith('uint') ? BigInt(message[name] as string) : message[name]]))
  // the message's types arrive at run time, so the typed-data generics cannot check them here
  const signature = await signTypedData(wallets.config, {
    account: owner,
    domain: { ...domain, chainId: Number(domain.chainId), verifyingContract: getAddress(domain.verifyingContract) },
    types,
    primaryType,
    message: typed,
  } as never)
  return { ...prepared.userOp, signature: ownerOperationSignature(BigInt(message.validUntil as string), signature as Hex) }
}

/** The chain's facts an invoice's record names: its time (the registry refuses a due time already
 * past by the chain's clock) and the number the registry gives the vault's next invoice. */
export async function nextInvoiceFacts(vault: Address): Promise<{ chainSeconds: bigint; invoiceNumber: string }> {
  const provider = await wallets.provider()
  const data = encodeFunctionData({ abi: invoiceRegistryAbi, functionName: 'merchantInvoiceCount', args: [vault] })
  const [seconds, answer] = await Promise.all([readBlockTime(provider), ethCall(provider, pinned.registry, data)])
  const issued = decodeFunctionResult({ abi: invoiceRegistryAbi, functionName: 'merchantInvoiceCount', data: answer })
  return { chainSeconds: BigInt(seconds), invoiceNumber: (BigInt(issued) + 1n).toString() }
}

export const tokenOfDeployment = { address: getAddress(pinned.token), symbol: pinned.tokenSymbol, decimals: pinned.tokenDecimals, chainId: pinned.chainId }
