import type { Address, Hex } from 'viem'
import type * as z from 'zod/mini'
import type { UserOperation } from 'viem/account-abstraction'
import type { PinnedDeployment } from '../config/pinnedDeployment'
import type {
  permitRequestSchema,
  permitResponseSchema,
  prepareRequestSchema,
  submitRequestSchema,
  submitResponseSchema,
  WireInvoice,
} from '../../shared/wire'
import type { OnchainInvoice } from '../verify/confirmInvoice'
import type { PrepareResponse, verifyPreparedPayment } from '../verify/verifyPreparedPayment'
import type { PermitTypedData, verifyPermitToSign } from '../verify/verifyPermitToSign'
import type { verifyFundingPermitToSign } from '../verify/verifyFundingPermitToSign'

export type PermitRequest = z.infer<typeof permitRequestSchema>
export type PermitResponse = z.infer<typeof permitResponseSchema>
export type PrepareRequest = z.infer<typeof prepareRequestSchema>
export type SubmitRequest = z.infer<typeof submitRequestSchema>
export type SubmitResponse = z.infer<typeof submitResponseSchema>

/** SPEC 4.14. Each throws ApiError for anything but success. */
export type PaymentApi = {
  getInvoice(id: string): Promise<WireInvoice>
  requestPermit(id: string, request: PermitRequest): Promise<PermitResponse>
  prepare(id: string, request: PrepareRequest): Promise<PrepareResponse>
  submit(id: string, request: SubmitRequest): Promise<SubmitResponse>
}

/** The owner's wallet (EIP-1193 underneath): a refusal by the payer throws an error with code 4001. */
export type PaymentWallet = {
  connect(): Promise<Address>
  chainId(): Promise<number>
  switchChain(chainId: number): Promise<void>
  signTypedData(typedData: PermitTypedData): Promise<Hex>
  /** The vault (SimpleAccount v0.7) checks an EIP-191 signature of the hash: personal_sign of its 32
   * bytes. The verified operation travels with its hash, so a wallet reached through a bridge can
   * verify it again before it signs. */
  signUserOperation(operation: { userOp: UserOperation<'0.7'>; userOpHash: Hex }): Promise<Hex>
  /** The plain way to fund the vault: the wallet's own token transfer from the account to the vault,
   * whose network fee the payer pays. Resolves with its hash once it is mined; throws if it reverted. */
  sendToVault(transfer: { token: Address; vault: Address; amount: bigint }): Promise<Hex>
  /** The pinned registry's invoice read through the wallet's own node: a second view of the chain. */
  invoiceOf(id: bigint): Promise<OnchainInvoice | null>
}

/** Reads of the pinned chain through the build's pinned RPC (and the payer's wallet once it is
 * connected on that chain): never through the server whose answers are being checked. */
export type PaymentChain = {
  /** The pinned registry's invoice; null when it has none with this id. */
  invoiceOf(id: bigint): Promise<OnchainInvoice | null>
  /** The transaction of the invoice's InvoicePaid event; null while there is none. */
  settlementOf(id: bigint): Promise<Hex | null>
  vaultOf(owner: Address): Promise<{ vault: Address; deployed: boolean }>
  /** The token balance of a vault, or of the payer's own account. */
  balanceOf(holder: Address): Promise<bigint>
  /** The token's EIP-2612 nonces(owner): of the vault, or of the account that funds it. */
  permitNonceOf(owner: Address): Promise<bigint>
  /** EntryPoint.getNonce(vault, 0). */
  entryPointNonceOf(vault: Address): Promise<bigint>
  /** The latest block's timestamp, in seconds. */
  blockTime(): Promise<number>
}

type MaybeAsync<F extends (...args: never[]) => unknown> = (...args: Parameters<F>) => ReturnType<F> | Promise<ReturnType<F>>

/** The verifiers, or loaders of them: the page fetches them with the first payment step, not with the
 * invoice (they bundle the userOpHash and ABI code a payer who only reads the invoice never needs). */
export type PaymentVerifier = {
  verifyPermitToSign: MaybeAsync<typeof verifyPermitToSign>
  verifyFundingPermitToSign: MaybeAsync<typeof verifyFundingPermitToSign>
  verifyPreparedPayment: MaybeAsync<typeof verifyPreparedPayment>
}

export type PaymentClock = { now(): number; sleep(ms: number): Promise<void> }

export type PaymentFlowDeps = {
  invoiceId: string
  /** Pinned in the build: what the verifier holds the server to. */
  deployment: PinnedDeployment
  api: PaymentApi
  wallet: PaymentWallet
  chain: PaymentChain
  verifier: PaymentVerifier
  clock: PaymentClock
}
