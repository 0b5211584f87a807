import { parseEther, parseEventLogs, parseUnits, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { invoiceRegistryAbi } from '../contracts/artifacts/InvoiceRegistry'
import { merchantVaultFactoryAbi } from '../contracts/artifacts/MerchantVaultFactory'
import { payerVaultFactoryAbi } from '../contracts/artifacts/PayerVaultFactory'
import { stablecoinAbi } from '../contracts/artifacts/Stablecoin'
import type { Deployment } from '../shared/deployment'
import type { InvoiceMetadata } from '../shared/metadata'
import { hashMetadata } from '../shared/metadataHash'
import { vaultSalt } from '../shared/vaultFactoryAbi'
import { demoInvoiceNumber, demoInvoices, demoMetadata } from './demoInvoices'
import { DevnetError } from './devnetError'
import type { MerchantVaultCall } from '../shared/merchantVaultCall'
import { mined, type DevnetClients } from './deploy'
import { sendMerchantOperation } from './merchantOperation'

export const demoPayerFunds = parseUnits('10000', 6)

export type SeededInvoice = { id: bigint; amount: bigint; invoiceNumber: bigint; dueAt: bigint; metadata: InvoiceMetadata }

export type Seed = {
  merchant: { vault: Address; owner: Address; ownerPrivateKey: Hex }
  /** The server signer's key (SERVER_SIGNER_PRIVATE_KEY), with a session on the merchant's vault. */
  serverSigner: { address: Address; privateKey: Hex }
  payer: { vault: Address; owner: Address; ownerPrivateKey: Hex }
  invoices: SeededInvoice[]
}

/** A deployed merchant vault (MerchantVault: ERC-4337 + ERC-7579), with an EntryPoint deposit to pay
 * for its operations and an owner key with ether to send them: on the devnet the owner is its own
 * bundler. */
export async function createMerchant(clients: DevnetClients, deployment: Deployment) {
  const factory = deployment.merchantVaultFactory
  if (!factory) throw new DevnetError('DEVNET_SEED_FAILED', 'this deployment has no merchant vault factory: deploy it again with this version')
  const ownerPrivateKey = generatePrivateKey()
  const owner = privateKeyToAccount(ownerPrivateKey)
  const { public: client, wallet } = clients
  await mined(client, await wallet.sendTransaction({ to: owner.address, value: parseEther('10') }))
  await mined(client, await wallet.writeContract({ address: factory, abi: merchantVaultFactoryAbi, functionName: 'createAccount', args: [owner.address, vaultSalt] }))
  const vault = await client.readContract({ address: factory, abi: merchantVaultFactoryAbi, functionName: 'getAddress', args: [owner.address, vaultSalt] })
  await mined(client, await wallet.writeContract({ address: deployment.entryPoint, abi: entryPoint07Abi, functionName: 'depositTo', args: [vault], value: parseEther('1') }))
  return { vault, owner: owner.address, ownerPrivateKey }
}

export type IssueInvoiceParameters = { amount: bigint; dueAt: bigint; metaHash: Hex; tokenURI?: string }

type MerchantKey = { vault: Address; ownerPrivateKey: Hex }

/** One of the merchant vault's operations, signed by its owner as the typed message its wallet shows. */
async function asMerchant(rpcUrl: string, deployment: Deployment, merchant: MerchantKey, call: MerchantVaultCall) {
  const owner = privateKeyToAccount(merchant.ownerPrivateKey)
  const { receipt, success } = await sendMerchantOperation(rpcUrl, deployment, { vault: merchant.vault, call, signer: { kind: 'owner', privateKey: merchant.ownerPrivateKey }, bundler: owner })
  if (!success) throw new DevnetError('DEVNET_SEED_FAILED', `the merchant vault's ${call.kind} operation reverted`)
  return receipt
}

export async function issueInvoice(rpcUrl: string, deployment: Deployment, merchant: MerchantKey, { amount, dueAt, metaHash, tokenURI = '' }: IssueInvoiceParameters) {
  const receipt = await asMerchant(rpcUrl, deployment, merchant, { kind: 'Issue', registry: deployment.registry, token: deployment.token, amount, dueAt, metaHash, tokenURI })
  const [event] = parseEventLogs({ abi: invoiceRegistryAbi, eventName: 'InvoiceIssued', logs: receipt.logs })
  if (!event) throw new DevnetError('DEVNET_SEED_FAILED', 'the registry issued no invoice (no InvoiceIssued event): is the registry at this address the one this devnet deployed?')
  return { id: event.args.id, invoiceNumber: event.args.invoiceNumber, amount, dueAt }
}

export async function cancelInvoice(rpcUrl: string, deployment: Deployment, merchant: MerchantKey, id: bigint) {
  await asMerchant(rpcUrl, deployment, merchant, { kind: 'Cancel', registry: deployment.registry, invoice: id })
}

export async function mintTo(clients: DevnetClients, deployment: Deployment, to: Address, amount: bigint) {
  await mined(
    clients.public,
    await clients.wallet.writeContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'mint', args: [to, amount] }),
  )
}

/** A payer whose vault exists only as an address: the first payment deploys it. */
export async function createPayer(clients: DevnetClients, deployment: Deployment, funds: bigint) {
  const ownerPrivateKey = generatePrivateKey()
  const owner = privateKeyToAccount(ownerPrivateKey).address
  const vault = await clients.public.readContract({
    address: deployment.vaultFactory,
    abi: payerVaultFactoryAbi,
    functionName: 'getAddress',
    args: [owner, vaultSalt],
  })
  await mintTo(clients, deployment, vault, funds)
  return { vault, owner, ownerPrivateKey }
}

/** How long the demo vault's server session lasts: a year, as an owner would start one. */
export const serverSessionSeconds = 365n * 86_400n

/** The owner lets `signer` issue and cancel on the deployment's registry until `sessionUntil` (an
 * owner-signed StartSession operation: the vault's session module then holds the bounds). */
export async function startServerSession(rpcUrl: string, deployment: Deployment, merchant: MerchantKey, signer: Address, sessionUntil: bigint) {
  await asMerchant(rpcUrl, deployment, merchant, { kind: 'StartSession', signer, registry: deployment.registry, sessionUntil })
}

/** The owner ends the vault's session: the server signer can sign nothing for it after. */
export async function endServerSession(rpcUrl: string, deployment: Deployment, merchant: MerchantKey) {
  await asMerchant(rpcUrl, deployment, merchant, { kind: 'EndSession' })
}

export async function seedDemo(rpcUrl: string, clients: DevnetClients, deployment: Deployment): Promise<Seed> {
  const merchant = await createMerchant(clients, deployment)
  // a key of this devnet's own, so server-signed issuance works on `npm start` with nothing to configure
  const serverSignerKey = generatePrivateKey()
  const serverSigner = { address: privateKeyToAccount(serverSignerKey).address, privateKey: serverSignerKey }
  const { timestamp } = await clients.public.getBlock()
  await startServerSession(rpcUrl, deployment, merchant, serverSigner.address, timestamp + serverSessionSeconds)
  const payer = await createPayer(clients, deployment, demoPayerFunds)
  return { merchant, serverSigner, payer, invoices: await issueDemoInvoices(rpcUrl, clients, deployment, merchant) }
}

/** The demo merchant's four demo invoices, numbered on from the merchant's last invoice: a devnet can
 * be given a fresh set whenever the last one is paid. */
export async function issueDemoInvoices(rpcUrl: string, clients: DevnetClients, deployment: Deployment, merchant: MerchantKey): Promise<SeededInvoice[]> {
  const [block, issuedBefore] = await Promise.all([
    clients.public.getBlock(),
    clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'merchantInvoiceCount', args: [merchant.vault] }),
  ])
  const issuedAt = new Date(Number(block.timestamp) * 1000)
  const token = { address: deployment.token, symbol: 'USDC', decimals: 6, chainId: deployment.chainId }
  const invoices: SeededInvoice[] = []
  for (const [index, demo] of demoInvoices.entries()) {
    const metadata = demoMetadata(demo, { invoiceNumber: BigInt(issuedBefore) + BigInt(index + 1), issuedAt, token, merchantVault: merchant.vault })
    const dueAt = BigInt(Math.floor(Date.parse(`${metadata.dueAt}T23:59:59Z`) / 1000))
    const issued = await issueInvoice(rpcUrl, deployment, merchant, {
      amount: BigInt(metadata.amountRaw),
      dueAt,
      metaHash: hashMetadata(metadata),
    })
    if (demoInvoiceNumber(issued.invoiceNumber) !== metadata.invoiceNumber) {
      throw new DevnetError('DEVNET_SEED_FAILED', 'the registry numbered the demo invoices differently than their metadata: another process issued invoices for the demo merchant while they were seeded')
    }
    invoices.push({ ...issued, metadata })
  }
  return invoices
}
