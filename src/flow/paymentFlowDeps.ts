import type { Address, Hex } from 'viem'
import type * as z from 'zod/mini'
import type { Deployment } from '../shared/deployment'
import type {
  permitRequestSchema,
  permitResponseSchema,
  prepareRequestSchema,
  submitRequestSchema,
  submitResponseSchema,
  WireInvoice,
} from '../shared/wire'
import type { OnchainInvoice } from '../verify/verifyOnchainInvoice'
import type { PrepareResponse, verifyPreparedPayment } from '../verify/verifyPreparedPayment'
import type { PermitTypedData, verifyPermitToSign } from '../verify/verifyPermitToSign'

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
  /** The vault (SimpleAccount v0.7) checks an EIP-191 signature of the hash: personal_sign of its 32 bytes. */
  signUserOpHash(userOpHash: Hex): Promise<Hex>
}

/** Reads from the pinned chain (the page reads through the payer's own wallet once it is on that
 * chain): never through the server whose answers are being checked. */
export type PaymentChain = {
  vaultOf(owner: Address): Promise<{ vault: Address; deployed: boolean }>
  balanceOf(vault: Address): Promise<bigint>
  /** The pinned registry's invoice; null when it has none with this id. */
  invoiceOf(id: bigint): Promise<OnchainInvoice | null>
}

export type PaymentVerifier = { verifyPermitToSign: typeof verifyPermitToSign; verifyPreparedPayment: typeof verifyPreparedPayment }

export type PaymentClock = { now(): number; sleep(ms: number): Promise<void> }

export type PaymentFlowDeps = {
  invoiceId: string
  /** Pinned in the build: what the verifier holds the server to. */
  deployment: Deployment
  api: PaymentApi
  wallet: PaymentWallet
  chain: PaymentChain
  verifier: PaymentVerifier
  clock: PaymentClock
}
