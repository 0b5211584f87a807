import { encodeFunctionData, parseEther, parseEventLogs, parseUnits, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { invoiceRegistryAbi } from '../contracts/artifacts/InvoiceRegistry'
import { payerVaultAbi } from '../contracts/artifacts/PayerVault'
import { payerVaultFactoryAbi } from '../contracts/artifacts/PayerVaultFactory'
import { stablecoinAbi } from '../contracts/artifacts/Stablecoin'
import type { Deployment } from '../shared/deployment'
import type { InvoiceMetadata } from '../shared/metadata'
import { hashMetadata } from '../shared/metadataHash'
import { vaultSalt } from '../shared/vaultFactoryAbi'
import { demoInvoiceNumber, demoInvoices, demoMetadata } from './demoInvoices'
import { DevnetError } from './devnetError'
import { devnetClients, mined, type DevnetClients } from './deploy'

export const demoPayerFunds = parseUnits('10000', 6)

export type SeededInvoice = { id: bigint; amount: bigint; invoiceNumber: bigint; dueAt: bigint; metadata: InvoiceMetadata }

export type Seed = {
  merchant: { vault: Address; owner: Address; ownerPrivateKey: Hex }
  payer: { vault: Address; owner: Address; ownerPrivateKey: Hex }
  invoices: SeededInvoice[]
}

/** A deployed merchant vault, with an owner key that can drive it directly (SimpleAccount lets its
 * owner call execute without a UserOperation). */
export async function createMerchant(clients: DevnetClients, deployment: Deployment) {
  const ownerPrivateKey = generatePrivateKey()
  const owner = privateKeyToAccount(ownerPrivateKey)
  const { public: client, wallet } = clients
  await mined(client, await wallet.sendTransaction({ to: owner.address, value: parseEther('10') }))
  await mined(
    client,
    await wallet.writeContract({
      address: deployment.vaultFactory,
      abi: payerVaultFactoryAbi,
      functionName: 'createAccount',
      args: [owner.address, vaultSalt],
    }),
  )
  const vault = await client.readContract({
    address: deployment.vaultFactory,
    abi: payerVaultFactoryAbi,
    functionName: 'getAddress',
    args: [owner.address, vaultSalt],
  })
  return { vault, owner: owner.address, ownerPrivateKey }
}

export type IssueInvoiceParameters = { amount: bigint; dueAt: bigint; metaHash: Hex; tokenURI?: string }

type MerchantKey = { vault: Address; ownerPrivateKey: Hex }

/** Calls the registry as the merchant: the owner calls its vault, the vault calls the registry. */
async function asMerchant(rpcUrl: string, deployment: Deployment, merchant: MerchantKey, data: Hex) {
  const { public: client, wallet } = devnetClients(rpcUrl, deployment.chainId, privateKeyToAccount(merchant.ownerPrivateKey))
  return mined(
    client,
    await wallet.writeContract({ address: merchant.vault, abi: payerVaultAbi, functionName: 'execute', args: [deployment.registry, 0n, data] }),
  )
}

export async function issueInvoice(rpcUrl: string, deployment: Deployment, merchant: MerchantKey, { amount, dueAt, metaHash, tokenURI = '' }: IssueInvoiceParameters) {
  const issue = encodeFunctionData({
    abi: invoiceRegistryAbi,
    functionName: 'issue',
    args: [deployment.token, amount, dueAt, metaHash, tokenURI],
  })
  const receipt = await asMerchant(rpcUrl, deployment, merchant, issue)
  const [event] = parseEventLogs({ abi: invoiceRegistryAbi, eventName: 'InvoiceIssued', logs: receipt.logs })
  if (!event) throw new DevnetError('DEVNET_SEED_FAILED', 'the registry issued no invoice (no InvoiceIssued event): is the registry at this address the one this devnet deployed?')
  return { id: event.args.id, invoiceNumber: event.args.invoiceNumber, amount, dueAt }
}

export async function cancelInvoice(rpcUrl: string, deployment: Deployment, merchant: MerchantKey, id: bigint) {
  await asMerchant(rpcUrl, deployment, merchant, encodeFunctionData({ abi: invoiceRegistryAbi, functionName: 'cancel', args: [id] }))
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

export async function seedDemo(rpcUrl: string, clients: DevnetClients, deployment: Deployment): Promise<Seed> {
  const merchant = await createMerchant(clients, deployment)
  const payer = await createPayer(clients, deployment, demoPayerFunds)
  return { merchant, payer, invoices: await issueDemoInvoices(rpcUrl, clients, deployment, merchant) }
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
