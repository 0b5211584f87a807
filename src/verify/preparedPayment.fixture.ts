import { parseSignature, type Address, type LocalAccount } from 'viem'
import { entryPoint07Address, getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { registryStatusOf } from '../../shared/invoiceStatus'
import { payUserOperation } from '../../shared/payUserOperation'
import { signVerifyingPaymasterData } from '../../shared/verifyingPaymaster'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import devnetDeployment from '../../shared/devnet.deployment.json'
import type { Funding } from '../../shared/fundedPayCall'
import type { PermitSignature } from '../../shared/payCall'
import { earliestDeadline, permitTypedData } from '../../shared/permit'
import { type WireInvoice } from '../../shared/wire'
import { toWireUserOp } from '../../shared/userOpWire'
import type { ShownInvoice } from './confirmInvoice'
import type { OnchainInvoice } from '../chain/readInvoice'
import type { PrepareResponse } from '../api/createPayApi'

/** Test-only: real keys, real signatures and a server that prepares payments as SPEC 4.14 says, so
 * that tests tamper with genuine data rather than with placeholders. */

function randomAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address
}

export function testDeployment(): PinnedDeployment {
  return {
    chainId: 31337,
    entryPoint: entryPoint07Address,
    token: randomAddress(),
    tokenSymbol: 'USDC',
    tokenDecimals: 6,
    permitDomain: { name: 'USD Coin', version: '2' },
    registry: randomAddress(),
    registryFromBlock: '0',
    vaultFactory: randomAddress(),
    paymaster: randomAddress(),
    rpcUrls: ['http://127.0.0.1:8545'],
    userOpLimits: devnetDeployment.userOpLimits,
  }
}

export function testInvoice(deployment: PinnedDeployment, overrides: Partial<WireInvoice> = {}): WireInvoice {
  return {
    id: '3',
    invoiceNumber: '1042',
    merchant: randomAddress(),
    agent: null,
    payer: null,
    token: { address: deployment.token, symbol: 'USDC', decimals: 6 },
    amount: '248000000',
    status: 'Issued',
    metaHash: `0x${'ab'.repeat(32)}`,
    tokenURI: '',
    issuedAt: '1767225600',
    dueAt: '1769817600',
    paidAt: null,
    effectiveFeeBps: 0,
    settledFee: null,
    settledFeeBps: null,
    txHash: null,
    ...overrides,
  }
}

/** The registry's record of `invoice`, as `invoices(id)` returns it when the service told the truth. */
export function testOnchainInvoice(invoice: WireInvoice): OnchainInvoice {
  return {
    merchant: invoice.merchant,
    status: registryStatusOf[invoice.status],
    invoiceNumber: BigInt(invoice.invoiceNumber),
    token: invoice.token.address,
    issuedAt: BigInt(invoice.issuedAt),
    payer: invoice.payer ?? '0x0000000000000000000000000000000000000000',
    dueAt: BigInt(invoice.dueAt),
    paidAt: BigInt(invoice.paidAt ?? 0),
    amount: BigInt(invoice.amount),
    metaHash: invoice.metaHash,
  }
}

/** `invoice` as the widget shows it once the chain has confirmed it. */
export function confirmedTestInvoice(invoice: WireInvoice): ShownInvoice {
  return { ...invoice, confirmed: true }
}

/** What the payer's wallet does with POST /permit's typed data: the owner signs for its vault. */
export async function signTestPermit(
  owner: LocalAccount,
  { deployment, vault, value, deadline, spender = deployment.registry }: { deployment: PinnedDeployment; vault: Address; value: bigint; deadline: bigint; spender?: Address },
): Promise<PermitSignature> {
  const signature = await owner.signTypedData(
    permitTypedData(
      { name: 'USD Coin', version: '2', chainId: deployment.chainId, verifyingContract: deployment.token },
      { owner: vault, spender, value, nonce: 0n, deadline },
    ),
  )
  const { r, s, yParity } = parseSignature(signature)
  return { deadline, v: yParity + 27, r, s }
}

/** The rate the test registry charges the fixture's merchant (its feeBpsFor): what an honest server's
 * operation names, and what a test's chain answers for feeBpsOf. */
export const testFeeBps = 100

export type PrepareTestPaymentParameters = {
  deployment: PinnedDeployment
  invoice: WireInvoice
  /** The registry's fee rate for the merchant now; testFeeBps unless given. */
  feeBps?: number
  vault: Address
  owner: Address
  vaultDeployed: boolean
  permit: PermitSignature
  /** A payment from the payer's own account: the funding the owner signed. */
  funding?: Funding
  paymasterSigner: LocalAccount
  /** The paymaster's signed window; an honest server ends it with the permit. */
  sponsorship?: { validUntil: number; validAfter: number }
  /** The EntryPoint nonce (key << 64 | sequence) the operation uses; an honest server reads it. */
  nonce?: bigint
  /** A dishonest server: changes the sponsored operation before it is hashed (so the hash agrees). */
  tamper?: (userOp: UserOperation<'0.7'>) => UserOperation<'0.7'>
}

/** POST /prepare as an honest server answers it, unless told to tamper. */
export async function prepareTestPayment(p: PrepareTestPaymentParameters): Promise<PrepareResponse> {
  const unsponsored = payUserOperation({
    deployment: p.deployment,
    invoiceId: BigInt(p.invoice.id),
    invoiceNumber: BigInt(p.invoice.invoiceNumber),
    merchant: p.invoice.merchant,
    amount: BigInt(p.invoice.amount),
    feeBps: p.feeBps ?? testFeeBps,
    vault: p.vault,
    owner: p.owner,
    vaultDeployed: p.vaultDeployed,
    nonce: p.nonce ?? 0n,
    permit: p.permit,
    funding: p.funding,
    gas: {
      callGasLimit: 300_000n,
      verificationGasLimit: 500_000n,
      preVerificationGas: 60_000n,
      paymasterVerificationGasLimit: 100_000n,
      paymasterPostOpGasLimit: 0n,
      maxFeePerGas: 5_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    },
    paymasterData: '0x',
    signature: '0x',
  })
  const lastSecond = earliestDeadline(p.permit, p.funding?.permit)
  const paymasterData = await signVerifyingPaymasterData(
    p.paymasterSigner,
    { ...unsponsored, paymaster: p.deployment.paymaster, paymasterVerificationGasLimit: 100_000n, paymasterPostOpGasLimit: 0n },
    { chainId: p.deployment.chainId, ...(p.sponsorship ?? { validUntil: Number(lastSecond), validAfter: 0 }) },
  )
  const sponsored: UserOperation<'0.7'> = { ...unsponsored, paymasterData }
  const userOp = p.tamper ? p.tamper(sponsored) : sponsored
  const userOpHash = getUserOperationHash({
    chainId: p.deployment.chainId,
    entryPointAddress: p.deployment.entryPoint,
    entryPointVersion: '0.7',
    userOperation: userOp,
  })
  return {
    success: true,
    userOp: toWireUserOp(userOp),
    userOpHash,
    permitDeadline: p.permit.deadline.toString(),
    expiresAt: new Date(Number(lastSecond) * 1000).toISOString(),
    invoice: p.invoice,
  }
}

/** What the payer's wallet does to pay from its own account: the owner lets its vault take `value`. */
export async function signTestFunding(
  owner: LocalAccount,
  { deployment, vault, value, deadline }: { deployment: PinnedDeployment; vault: Address; value: bigint; deadline: bigint },
): Promise<Funding> {
  const permit = await signTestPermit(owner, { deployment, vault: owner.address, spender: vault, value, deadline })
  return { from: owner.address, to: vault, amount: value, permit }
}
